"""Pet care (round-5 bench domain): book a vet or grooming appointment, cancel it, a price quote.

Fake, deterministic, in memory. Run: ``python -m bench.understanding.round5.domains.pet_care --port 8153``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from bench.understanding.round5.domains._common import (
    code_of,
    ex,
    language,
    lookup_spec,
    read_day,
    read_money,
    read_time,
    resolve_loose,
    say,
    today,
)
from sdk.service import DomainService, clarify, fail, option, serve
from shared.models import DomainOutput, ExecutionIntent

SERVICES = ["VET_CHECKUP", "VACCINE", "BATH", "GROOMING"]
SERVICE_SYNONYMS: dict[str, list[str]] = {
    "VET_CHECKUP": [
        "consulta",
        "consulta veterinária",
        "veterinário",
        "veterinária",
        "vet",
        "check-up",
        "checkup",
        "vet visit",
        "vet appointment",
    ],
    "VACCINE": ["vacina", "vacinas", "vacinação", "vacinar", "vaccine", "vaccination", "shots", "booster"],
    "BATH": ["banho", "banhinho", "bath", "wash"],
    "GROOMING": ["tosa", "banho e tosa", "tosar", "grooming", "groom", "haircut", "trim"],
}
PRICE_BRL = {"VET_CHECKUP": 180.0, "VACCINE": 120.0, "BATH": 70.0, "GROOMING": 110.0}
NAMES = {
    "VET_CHECKUP": ("Consulta veterinária", "Vet check-up"),
    "VACCINE": ("Vacina", "Vaccine"),
    "BATH": ("Banho", "Bath"),
    "GROOMING": ("Banho e tosa", "Grooming"),
}
#: the person's pets (canonical name <- other ways they write it) and what each is
PETS: dict[str, list[str]] = {
    "Thor": ["Thorzinho", "o golden", "the golden"],
    "Mel": ["Melzinha", "a siamesa"],
    "Pipoca": ["Pipo", "a shih-tzu"],
    "Frederico": ["Fred", "Fredinho"],
}
KIND = {"Thor": "golden retriever", "Mel": "gata siamesa", "Pipoca": "shih-tzu", "Frederico": "gato persa"}
OPEN_FROM, OPEN_TO = "08:00", "19:00"  # Monday to Saturday


@dataclass
class Appointment:
    code: str
    pet: str
    service: str
    day: str
    time: str

    def describe(self, lang: str = "pt") -> str:
        return f"{self.code}: {self.pet}, {say(lang, *NAMES[self.service])}, {self.day} {self.time}"


APPOINTMENTS: dict[str, Appointment] = {
    a.code: a
    for a in (
        Appointment("AP5120", "Thor", "VACCINE", "2026-03-12", "10:00"),
        Appointment("AP5168", "Mel", "BATH", "2026-03-14", "09:00"),
        Appointment("AP5203", "Pipoca", "VET_CHECKUP", "2026-03-17", "15:30"),
        Appointment("AP5011", "Frederico", "GROOMING", "2026-03-06", "11:00"),  # already done
    )
}
_next_code = [6000]

service = DomainService(
    "pet_care",
    "0.1.0",
    {
        "pt": "Pet shop e veterinário: consultas, vacinas, banho e tosa",
        "en": "Pet care: vet check-ups, vaccines, baths and grooming",
    },
)

SERVICE_ENTITY: dict[str, Any] = {
    "type": "enum",
    "values": SERVICES,
    "synonyms": SERVICE_SYNONYMS,
    "description": {"pt": "O serviço", "en": "The service"},
}


@service.capability(
    "book_pet_service",
    {"pt": "Agenda um atendimento para o seu pet", "en": "Book an appointment for your pet"},
    parameters={
        "type": "object",
        "properties": {
            "pet_text": {"type": "string", "minLength": 1},
            "service": {"type": "string", "enum": SERVICES},
            "day": {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"},
            "time": {"type": "string", "pattern": "^\\d{2}:\\d{2}$"},
        },
        "required": ["pet_text", "service", "day", "time"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["pet shop", "petshop", "veterinário", "agendar banho", "pet", "vet", "groomer"],
            "examples": ["quero agendar um horário no pet shop", "book my pet in at the vet"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def book_pet_service(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    pet = resolve_loose(p.get("pet_text"), PETS)
    if pet is None:
        return clarify(
            say(
                lang,
                "Não conheço esse pet no seu cadastro. Qual destes?",
                "That pet isn't on your file. Which one?",
            ),
            [option(n, f"{n} ({KIND[n]})", aliases=a) for n, a in PETS.items()],
            param="pet_text",
            metadata={"resolution": "unknown_pet"},
        )
    kind = str(p.get("service", "")).upper()
    day, time = read_day(p.get("day")), read_time(p.get("time"))
    if kind not in PRICE_BRL or day is None or time is None:
        return fail(
            say(lang, "Faltam o serviço, o dia ou o horário.", "Service, day or time missing."),
            "missing_parameter",
        )
    if day < today():
        return fail(say(lang, "Esse dia já passou.", "That day has passed."), "past_day")
    if day.weekday() == 6 or not OPEN_FROM <= time < OPEN_TO:
        return fail(
            say(
                lang,
                f"Atendemos de segunda a sábado, das {OPEN_FROM} às {OPEN_TO}.",
                f"We are open Monday to Saturday, {OPEN_FROM} to {OPEN_TO}.",
            ),
            "outside_hours",
            recoverable=True,
            suggestions=[{"time": "10:00"}] if day.weekday() != 6 else None,
        )
    taken = [a for a in APPOINTMENTS.values() if a.day == day.isoformat() and a.time == time]
    if taken:
        hour = int(time[:2]) + 1
        return fail(
            say(
                lang,
                f"O horário {time} de {day.isoformat()} está ocupado.",
                f"{time} on {day.isoformat()} is taken.",
            ),
            "slot_taken",
            recoverable=True,
            suggestions=[{"time": f"{hour:02d}:{time[3:]}"}],
        )
    _next_code[0] += 1
    made = Appointment(f"AP{_next_code[0]}", pet, kind, day.isoformat(), time)
    APPOINTMENTS[made.code] = made
    return DomainOutput(
        status="success",
        result=asdict(made) | {"price_brl": PRICE_BRL[kind]},
        explanation=say(
            lang,
            f"Agendado — {made.describe(lang)}, R$ {PRICE_BRL[kind]:.2f}. Código {made.code}.",
            f"Booked — {made.describe(lang)}, R$ {PRICE_BRL[kind]:.2f}. Your code is {made.code}.",
        ),
    )


@service.capability(
    "cancel_pet_service",
    {"pt": "Cancela um atendimento agendado do pet", "en": "Cancel a pet appointment"},
    parameters={
        "type": "object",
        "properties": {"appointment_code_text": {"type": "string", "minLength": 1}},
        "required": ["appointment_code_text"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["cancelar banho", "cancelar consulta do pet", "cancel pet appointment"]
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def cancel_pet_service(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    code = code_of(intent.parameters.get("appointment_code_text"), "AP")
    made = APPOINTMENTS.get(code)
    if made is None:
        return fail(
            say(lang, f"Não achei o agendamento {code}.", f"No appointment {code}."), "appointment_not_found"
        )
    if (read_day(made.day) or today()) < today():
        return fail(
            say(lang, f"O atendimento {code} já aconteceu.", f"Appointment {code} already happened."),
            "appointment_done",
        )
    APPOINTMENTS.pop(code)
    return DomainOutput(
        status="success",
        result={"code": code, "cancelled": True},
        explanation=say(lang, f"Cancelado — {made.describe(lang)}.", f"Cancelled — {made.describe(lang)}."),
    )


@service.capability(
    "pet_service_price",
    {"pt": "Diz quanto custa um serviço do pet shop", "en": "Quote a pet service's price"},
    parameters={
        "type": "object",
        "properties": {"service": {"type": "string", "enum": SERVICES}, "budget": {"type": "object"}},
        "required": ["service"],
    },
    metadata={
        "intent_hints": {"keywords": ["quanto custa", "preço", "valor", "how much", "price", "cost"]},
        "policy": {"read_only": True},
    },
)
def pet_service_price(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    kind = str(p.get("service", "")).upper()
    if kind not in PRICE_BRL:
        return fail(say(lang, "Qual serviço?", "Which service?"), "missing_parameter")
    price = PRICE_BRL[kind]
    budget = read_money(p.get("budget"))
    fits = None if budget is None or budget[1] != "BRL" else budget[0] >= price
    text = say(lang, f"{NAMES[kind][0]}: R$ {price:.2f}.", f"{NAMES[kind][1]}: R$ {price:.2f}.")
    if budget is not None and budget[1] != "BRL":
        text += say(lang, " (Só cobramos em reais.)", " (We only charge in reais.)")
    elif fits is not None:
        text += (
            say(lang, " Cabe no seu orçamento.", " Within your budget.")
            if fits
            else say(lang, " Passa do seu orçamento.", " Over your budget.")
        )
    return DomainOutput(
        status="success", result={"service": kind, "price_brl": price, "fits_budget": fits}, explanation=text
    )


service.add_goal(
    {
        "goal": "BOOK_PET_SERVICE",
        "description": {
            "pt": "Agendar veterinário, vacina, banho ou tosa para o seu pet",
            "en": "Book a vet visit, vaccine, bath or grooming for your pet",
        },
        "entities_schema": {
            "pet_text": {
                "type": "string",
                "required": True,
                "description": {"pt": "O pet", "en": "The pet"},
                "lookup": lookup_spec(PETS),
            },
            "service": SERVICE_ENTITY | {"required": True},
            "day": {"type": "date", "required": True, "description": {"pt": "O dia", "en": "The day"}},
            "time": {"type": "time", "required": True, "description": {"pt": "O horário", "en": "The time"}},
        },
        "capabilities": ["book_pet_service"],
        "examples": [
            ex(
                "marca banho pro Thor sexta às 10h",
                service="BATH",
                pet_text="Thor",
                day="sexta",
                time="às 10h",
            ),
            ex(
                "agenda a vacina da Mel amanhã às 15h",
                service="VACCINE",
                pet_text="Mel",
                day="amanhã",
                time="às 15h",
            ),
            ex(
                "a Pipoca precisa de tosa, pode ser sábado 9h?",
                pet_text="Pipoca",
                service="GROOMING",
                day="sábado",
                time="9h",
            ),
            ex(
                "consulta no veterinário pro Fred na segunda às 14h30",
                service="VET_CHECKUP",
                pet_text="Fred",
                day="segunda",
                time="às 14h30",
            ),
            ex(
                "book a bath for Thor on Friday at 11am",
                service="BATH",
                pet_text="Thor",
                day="Friday",
                time="11am",
            ),
            ex(
                "schedule Mel's vaccine tomorrow at 4pm",
                pet_text="Mel",
                service="VACCINE",
                day="tomorrow",
                time="4pm",
            ),
            ex(
                "I need a vet check-up for Pipoca on Monday at 9:30am",
                service="VET_CHECKUP",
                pet_text="Pipoca",
                day="Monday",
                time="9:30am",
            ),
        ],
    }
)
service.add_goal(
    {
        "goal": "CANCEL_PET_SERVICE",
        "description": {"pt": "Cancelar um atendimento do pet", "en": "Cancel a pet appointment"},
        "entities_schema": {
            "appointment_code_text": {
                "type": "string",
                "required": True,
                "description": {"pt": "O código do agendamento", "en": "The appointment code"},
            }
        },
        "capabilities": ["cancel_pet_service"],
        "examples": [
            ex("cancela o agendamento AP5120", appointment_code_text="AP5120"),
            ex("desmarca o banho AP5168, vou viajar", appointment_code_text="AP5168"),
            ex("quero cancelar a consulta do pet AP5203", appointment_code_text="AP5203"),
            ex("cancel pet appointment AP5120", appointment_code_text="AP5120"),
            ex("please cancel the grooming AP5168", appointment_code_text="AP5168"),
        ],
    }
)
service.add_goal(
    {
        "goal": "PET_SERVICE_PRICE",
        "description": {"pt": "Quanto custa um serviço para o pet", "en": "How much a pet service costs"},
        "entities_schema": {
            "service": SERVICE_ENTITY | {"required": True},
            "budget": {"type": "money", "description": {"pt": "Quanto quer gastar", "en": "Your budget"}},
        },
        "capabilities": ["pet_service_price"],
        "examples": [
            ex("quanto custa um banho no pet shop?", service="BATH"),
            ex("qual o valor da vacina pra cachorro?", service="VACCINE"),
            ex("tenho 100 reais, dá pra fazer a tosa?", service="GROOMING", budget="100 reais"),
            ex("preço da consulta veterinária", service="VET_CHECKUP"),
            ex("how much is a pet bath?", service="BATH"),
            ex("grooming price, my budget is R$ 90", service="GROOMING", budget="R$ 90"),
            ex("what does a vet check-up cost?", service="VET_CHECKUP"),
        ],
    }
)

if __name__ == "__main__":
    serve(service)
