"""Home services (round-4 bench domain): schedule a visit, cancel a visit, a price quote.

Fake, deterministic, in memory.
Run: ``python -m bench.understanding.round4.domains.home_services --port 8143``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from bench.understanding.round4.domains._common import (
    code_of,
    ex,
    language,
    read_day,
    read_money,
    read_time,
    say,
    today,
)
from sdk.service import DomainService, fail, serve
from shared.models import DomainOutput, ExecutionIntent

SERVICES = ["CLEANING", "PLUMBING", "ELECTRICAL", "PAINTING"]
SERVICE_SYNONYMS: dict[str, list[str]] = {
    "CLEANING": [
        "faxina",
        "faxineira",
        "diarista",
        "limpeza",
        "limpeza da casa",
        "cleaning",
        "cleaner",
        "house cleaning",
        "maid",
    ],
    "PLUMBING": ["encanador", "encanamento", "bombeiro hidráulico", "hidráulica", "plumber", "plumbing"],
    "ELECTRICAL": ["eletricista", "elétrica", "parte elétrica", "electrician", "electrical", "wiring"],
    "PAINTING": ["pintor", "pintura", "painter", "painting", "paint job"],
}
#: price of a visit in BRL (cleaning: a day; painting: a room)
PRICE_BRL = {"CLEANING": 180.0, "PLUMBING": 150.0, "ELECTRICAL": 160.0, "PAINTING": 450.0}
NAMES = {
    "CLEANING": ("Faxina", "Cleaning"),
    "PLUMBING": ("Encanador", "Plumbing"),
    "ELECTRICAL": ("Eletricista", "Electrician"),
    "PAINTING": ("Pintura (um cômodo)", "Painting (one room)"),
}
OPEN_FROM, OPEN_TO = "08:00", "18:00"  # Monday to Saturday


@dataclass
class Visit:
    code: str
    service: str
    day: str
    time: str

    def describe(self) -> str:
        return f"{self.code}: {self.service}, {self.day} {self.time}"


VISITS: dict[str, Visit] = {
    v.code: v
    for v in (
        Visit("VS3012", "CLEANING", "2026-03-12", "09:00"),
        Visit("VS3090", "PLUMBING", "2026-03-16", "14:00"),
        Visit("VS3145", "PAINTING", "2026-03-21", "08:00"),
        Visit("VS2977", "ELECTRICAL", "2026-03-05", "10:00"),  # already done
    )
}
_next_code = [4000]

service = DomainService(
    "home_services",
    "0.1.0",
    {
        "pt": "Serviços para a casa: faxina, encanador, eletricista, pintor",
        "en": "Home services: cleaning, plumbing, electrical, painting",
    },
)

SERVICE_ENTITY: dict[str, Any] = {
    "type": "enum",
    "values": SERVICES,
    "synonyms": SERVICE_SYNONYMS,
    "description": {"pt": "O serviço", "en": "The service"},
}


@service.capability(
    "schedule_visit",
    {"pt": "Agenda a visita de um profissional em casa", "en": "Schedule a professional's home visit"},
    parameters={
        "type": "object",
        "properties": {
            "service": {"type": "string", "enum": SERVICES},
            "day": {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"},
            "time": {"type": "string", "pattern": "^\\d{2}:\\d{2}$"},
        },
        "required": ["service", "day", "time"],
    },
    metadata={
        "intent_hints": {
            "keywords": [
                "agendar visita",
                "marcar visita",
                "mandar alguém",
                "schedule a visit",
                "book a visit",
            ],
            "examples": ["preciso de alguém aqui em casa", "I need someone to come over"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def schedule_visit(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    kind = str(p.get("service", "")).upper()
    day, time = read_day(p.get("day")), read_time(p.get("time"))
    if kind not in PRICE_BRL or day is None or time is None:
        return fail(
            say(lang, "Faltam o serviço, o dia ou o horário.", "Service, day or time missing."),
            "missing_parameter",
        )
    if day < today():
        return fail(say(lang, "Esse dia já passou.", "That day has passed."), "past_day")
    if day.weekday() == 6 or not OPEN_FROM <= time <= OPEN_TO:
        return fail(
            say(
                lang,
                f"Atendemos de segunda a sábado, das {OPEN_FROM} às {OPEN_TO}.",
                f"We visit Monday to Saturday, {OPEN_FROM} to {OPEN_TO}.",
            ),
            "outside_hours",
            recoverable=True,
        )
    _next_code[0] += 1
    visit = Visit(f"VS{_next_code[0]}", kind, day.isoformat(), time)
    VISITS[visit.code] = visit
    return DomainOutput(
        status="success",
        result=asdict(visit) | {"price_brl": PRICE_BRL[kind]},
        explanation=say(
            lang,
            f"Visita agendada — {visit.describe()}, R$ {PRICE_BRL[kind]:.2f}.",
            f"Visit scheduled — {visit.describe()}, R$ {PRICE_BRL[kind]:.2f}.",
        ),
    )


@service.capability(
    "cancel_visit",
    {"pt": "Cancela uma visita agendada", "en": "Cancel a scheduled visit"},
    parameters={
        "type": "object",
        "properties": {"visit_code_text": {"type": "string", "minLength": 1}},
        "required": ["visit_code_text"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["cancelar visita", "desmarcar visita", "cancel visit", "cancel the appointment"]
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def cancel_visit(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    code = code_of(intent.parameters.get("visit_code_text"), "VS")
    visit = VISITS.get(code)
    if visit is None:
        return fail(say(lang, f"Não achei a visita {code}.", f"No visit {code}."), "visit_not_found")
    if (read_day(visit.day) or today()) < today():
        return fail(
            say(lang, f"A visita {code} já aconteceu.", f"Visit {code} already happened."), "visit_done"
        )
    VISITS.pop(code)
    return DomainOutput(
        status="success",
        result={"code": code, "cancelled": True},
        explanation=say(lang, f"Visita cancelada — {visit.describe()}.", f"Cancelled — {visit.describe()}."),
    )


@service.capability(
    "price_quote",
    {"pt": "Diz quanto custa um serviço", "en": "Quote a service's price"},
    parameters={
        "type": "object",
        "properties": {"service": {"type": "string", "enum": SERVICES}, "budget": {"type": "object"}},
        "required": ["service"],
    },
    metadata={
        "intent_hints": {"keywords": ["quanto custa", "orçamento", "preço", "how much", "quote", "estimate"]},
        "policy": {"read_only": True},
    },
)
def price_quote(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    kind = str(p.get("service", "")).upper()
    if kind not in PRICE_BRL:
        return fail(say(lang, "Qual serviço?", "Which service?"), "missing_parameter")
    price = PRICE_BRL[kind]
    budget = read_money(p.get("budget"))
    fits = None if budget is None else budget[0] >= price
    name = say(lang, *NAMES[kind])
    text = say(lang, f"{name}: R$ {price:.2f} por visita.", f"{name}: R$ {price:.2f} a visit.")
    if budget is not None and budget[1] != "BRL":
        text += say(lang, " (Só trabalhamos em reais.)", " (We only work in reais.)")
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
        "goal": "SCHEDULE_VISIT",
        "description": {"pt": "Agendar um serviço em casa", "en": "Schedule a home service visit"},
        "entities_schema": {
            "service": SERVICE_ENTITY | {"required": True},
            "day": {
                "type": "date",
                "required": True,
                "description": {"pt": "O dia da visita", "en": "The day of the visit"},
            },
            "time": {"type": "time", "required": True, "description": {"pt": "O horário", "en": "The time"}},
        },
        "capabilities": ["schedule_visit"],
        "examples": [
            ex("agenda uma faxina pra quinta às 9h", service="CLEANING", day="quinta", time="às 9h"),
            ex(
                "preciso de um encanador amanhã às 14h, a pia tá vazando",
                service="PLUMBING",
                day="amanhã",
                time="às 14h",
            ),
            ex(
                "marca um eletricista na segunda de manhã às 10h",
                service="ELECTRICAL",
                day="segunda",
                time="às 10h",
            ),
            ex("quero um pintor aqui em casa sábado 8h", service="PAINTING", day="sábado", time="8h"),
            ex("book a cleaner for Friday at 10am", service="CLEANING", day="Friday", time="10am"),
            ex("I need a plumber tomorrow at 3pm", service="PLUMBING", day="tomorrow", time="3pm"),
            ex("schedule an electrician on Monday at 9am", service="ELECTRICAL", day="Monday", time="9am"),
        ],
    }
)
service.add_goal(
    {
        "goal": "CANCEL_VISIT",
        "description": {"pt": "Cancelar uma visita agendada em casa", "en": "Cancel a scheduled home visit"},
        "entities_schema": {
            "visit_code_text": {
                "type": "string",
                "required": True,
                "description": {"pt": "O código da visita", "en": "The visit code"},
            }
        },
        "capabilities": ["cancel_visit"],
        "examples": [
            ex("cancela a visita VS3012", visit_code_text="VS3012"),
            ex("desmarca o serviço VS3090, não preciso mais", visit_code_text="VS3090"),
            ex("quero cancelar o agendamento VS3145", visit_code_text="VS3145"),
            ex("cancel visit VS3012", visit_code_text="VS3012"),
            ex("please call off the VS3090 appointment", visit_code_text="VS3090"),
        ],
    }
)
service.add_goal(
    {
        "goal": "PRICE_QUOTE",
        "description": {"pt": "Quanto custa um serviço em casa", "en": "How much a home service costs"},
        "entities_schema": {
            "service": SERVICE_ENTITY | {"required": True},
            "budget": {
                "type": "money",
                "description": {"pt": "Quanto quer gastar", "en": "Your budget"},
            },
        },
        "capabilities": ["price_quote"],
        "examples": [
            ex("quanto custa uma faxina?", service="CLEANING"),
            ex("qual o preço do eletricista?", service="ELECTRICAL"),
            ex("tenho R$ 200, dá pra chamar um encanador?", service="PLUMBING", budget="R$ 200"),
            ex("orçamento de pintura até 500 reais", service="PAINTING", budget="500 reais"),
            ex("how much does a cleaner cost?", service="CLEANING"),
            ex("plumber price, my budget is $100", service="PLUMBING", budget="$100"),
            ex("quote for painting under 400 reais", service="PAINTING", budget="400 reais"),
        ],
    }
)

if __name__ == "__main__":
    serve(service)
