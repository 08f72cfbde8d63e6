"""Parcels (round-5 bench domain): track a parcel, reschedule a delivery, list my deliveries.

Fake, deterministic, in memory. Run: ``python -m bench.understanding.round5.domains.parcels --port 8152``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import timedelta
from typing import Any

from bench.understanding.round5.domains._common import (
    code_of,
    ex,
    language,
    read_day,
    read_time,
    say,
    today,
)
from sdk.service import DomainService, fail, serve
from shared.models import DomainOutput, ExecutionIntent

PERIODS = ["MORNING", "AFTERNOON", "EVENING"]
PERIOD_SYNONYMS: dict[str, list[str]] = {
    "MORNING": ["de manhã", "pela manhã", "parte da manhã", "período da manhã", "in the morning", "morning"],
    "AFTERNOON": [
        "à tarde",
        "de tarde",
        "parte da tarde",
        "período da tarde",
        "in the afternoon",
        "afternoon",
    ],
    "EVENING": ["à noite", "de noite", "no fim do dia", "in the evening", "evening"],
}
#: delivery windows
WINDOWS = {"MORNING": ("08:00", "12:00"), "AFTERNOON": ("12:00", "18:00"), "EVENING": ("18:00", "21:00")}
WINDOW_NAMES = {
    "MORNING": ("manhã (8h–12h)", "morning (8am–12pm)"),
    "AFTERNOON": ("tarde (12h–18h)", "afternoon (12pm–6pm)"),
    "EVENING": ("noite (18h–21h)", "evening (6pm–9pm)"),
}
STATUS_NAMES = {
    "in_transit": ("em trânsito", "in transit"),
    "delayed": ("atrasada", "delayed"),
    "out_for_delivery": ("saiu para entrega", "out for delivery"),
    "delivered": ("entregue", "delivered"),
}


@dataclass
class Parcel:
    code: str
    item: tuple[str, str]
    sender: str
    status: str
    day: str  # expected delivery day, or the day it was delivered
    period: str = "AFTERNOON"

    def describe(self, lang: str = "pt") -> str:
        item = say(lang, *self.item)
        status = say(lang, *STATUS_NAMES[self.status])
        window = say(lang, *WINDOW_NAMES[self.period])
        if self.status == "delivered":
            return say(
                lang,
                f"{self.code} ({item}, {self.sender}): entregue em {self.day}",
                f"{self.code} ({item}, {self.sender}): delivered on {self.day}",
            )
        return say(
            lang,
            f"{self.code} ({item}, {self.sender}): {status}, previsão {self.day}, {window}",
            f"{self.code} ({item}, {self.sender}): {status}, expected {self.day}, {window}",
        )


PARCELS: dict[str, Parcel] = {
    p.code: p
    for p in (
        Parcel(
            "PX7301", ("fone de ouvido", "headphones"), "Loja Eletro", "in_transit", "2026-03-12", "MORNING"
        ),
        Parcel("PX7345", ("livros", "books"), "Livraria Central", "delayed", "2026-03-13"),
        Parcel("PX7388", ("tênis", "sneakers"), "Esporte Total", "delivered", "2026-03-09"),
        Parcel("PX7412", ("cafeteira", "coffee maker"), "Casa & Cozinha", "out_for_delivery", "2026-03-10"),
        Parcel(
            "PX7460",
            ("ração do cachorro", "dog food"),
            "PetShop Online",
            "in_transit",
            "2026-03-16",
            "EVENING",
        ),
    )
}
#: parcels that missed their first promised day
LATE = {"PX7345": "2026-03-08"}

service = DomainService(
    "parcels",
    "0.1.0",
    {
        "pt": "Encomendas: rastreio, reagendamento da entrega e minhas entregas",
        "en": "Parcels: tracking, rescheduling a delivery and listing your deliveries",
    },
)

CODE_ENTITY: dict[str, Any] = {
    "type": "string",
    "required": True,
    "description": {"pt": "O código de rastreio", "en": "The tracking code"},
}


def _not_found(lang: str, code: str) -> DomainOutput:
    return fail(say(lang, f"Não achei a encomenda {code}.", f"No parcel {code}."), "parcel_not_found")


@service.capability(
    "track_parcel",
    {"pt": "Consulta onde está uma encomenda", "en": "Track a parcel"},
    parameters={
        "type": "object",
        "properties": {"tracking_code_text": {"type": "string", "minLength": 1}},
        "required": ["tracking_code_text"],
    },
    metadata={
        "intent_hints": {
            "keywords": [
                "rastrear",
                "rastreio",
                "rastreamento",
                "encomenda",
                "pacote",
                "track",
                "tracking",
                "parcel",
            ],
            "examples": ["cadê meu pacote?", "where is my parcel?"],
        },
        "policy": {"read_only": True},
    },
)
def track_parcel(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    code = code_of(intent.parameters.get("tracking_code_text"), "PX")
    parcel = PARCELS.get(code)
    if parcel is None:
        return _not_found(lang, code)
    return DomainOutput(
        status="success",
        result=asdict(parcel) | {"late_since": LATE.get(code)},
        explanation=parcel.describe(lang),
    )


@service.capability(
    "reschedule_delivery",
    {"pt": "Reagenda a entrega de uma encomenda", "en": "Reschedule a parcel delivery"},
    parameters={
        "type": "object",
        "properties": {
            "tracking_code_text": {"type": "string", "minLength": 1},
            "day": {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"},
            "period": {"type": "string", "enum": PERIODS},
            "time": {"type": "string", "pattern": "^\\d{2}:\\d{2}$"},
        },
        "required": ["tracking_code_text", "day"],
        "anyOf": [{"required": ["period"]}, {"required": ["time"]}],
    },
    metadata={
        "intent_hints": {
            "keywords": ["reagendar", "remarcar entrega", "mudar a entrega", "reschedule", "redeliver"],
            "examples": ["quero mudar o dia da entrega", "can you deliver it another day?"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def reschedule_delivery(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    code = code_of(p.get("tracking_code_text"), "PX")
    parcel = PARCELS.get(code)
    if parcel is None:
        return _not_found(lang, code)
    if parcel.status == "delivered":
        return fail(
            say(
                lang,
                f"A encomenda {code} já foi entregue em {parcel.day}.",
                f"{code} was delivered on {parcel.day}.",
            ),
            "already_delivered",
        )
    if parcel.status == "out_for_delivery":
        return fail(
            say(
                lang,
                f"A encomenda {code} já saiu para entrega; não dá mais para mudar.",
                f"{code} is already out for delivery; it can't be changed now.",
            ),
            "out_for_delivery",
        )
    day = read_day(p.get("day"))
    if day is None:
        return fail(say(lang, "Qual dia?", "Which day?"), "missing_parameter")
    if day <= today():
        return fail(
            say(lang, "Reagendamos a partir de amanhã.", "Deliveries can be moved to tomorrow or later."),
            "day_too_soon",
        )
    if day.weekday() == 6:
        monday = (day + timedelta(days=1)).isoformat()
        return fail(
            say(lang, "Não entregamos aos domingos.", "We don't deliver on Sundays."),
            "no_sunday_delivery",
            recoverable=True,
            suggestions=[{"day": monday}],
        )
    period = str(p.get("period") or "").upper()
    time = read_time(p.get("time"))
    if time is not None:
        found = [k for k, (start, end) in WINDOWS.items() if start <= time < end]
        if not found:
            return fail(
                say(lang, "Entregamos das 08:00 às 21:00.", "We deliver from 08:00 to 21:00."),
                "outside_delivery_hours",
                recoverable=True,
                suggestions=[{"time": "18:00"}],
            )
        period = found[0]
    if period not in WINDOWS:
        return fail(say(lang, "Qual período?", "Which part of the day?"), "missing_parameter")
    parcel.day, parcel.period = day.isoformat(), period
    if parcel.status == "delayed":
        parcel.status = "in_transit"
    return DomainOutput(
        status="success",
        result=asdict(parcel),
        explanation=say(
            lang,
            f"Entrega reagendada — {code}: {parcel.day}, {WINDOW_NAMES[period][0]}.",
            f"Delivery rescheduled — {code}: {parcel.day}, {WINDOW_NAMES[period][1]}.",
        ),
    )


@service.capability(
    "list_deliveries",
    {"pt": "Lista as suas entregas", "en": "List your deliveries"},
    parameters={"type": "object", "properties": {"delayed": {"type": "boolean"}}},
    metadata={
        "intent_hints": {
            "keywords": ["minhas entregas", "minhas encomendas", "my deliveries", "my parcels", "my packages"]
        },
        "policy": {"read_only": True},
    },
)
def list_deliveries(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    only_late = bool(intent.parameters.get("delayed"))
    items = [
        p
        for p in sorted(PARCELS.values(), key=lambda p: p.day)
        if (p.status == "delayed" if only_late else p.status != "delivered")
    ]
    text = "\n".join(p.describe(lang) for p in items) or say(
        lang, "Nenhuma entrega pendente.", "No deliveries pending."
    )
    return DomainOutput(status="success", result={"parcels": [asdict(p) for p in items]}, explanation=text)


service.add_goal(
    {
        "goal": "TRACK_PARCEL",
        "description": {"pt": "Onde está uma encomenda", "en": "Where a parcel is"},
        "entities_schema": {"tracking_code_text": CODE_ENTITY},
        "capabilities": ["track_parcel"],
        "examples": [
            ex("rastreia a encomenda PX7301", tracking_code_text="PX7301"),
            ex("onde está meu pacote PX7345?", tracking_code_text="PX7345"),
            ex("quando chega a encomenda PX7460?", tracking_code_text="PX7460"),
            ex("status da entrega PX7412", tracking_code_text="PX7412"),
            ex("track parcel PX7301", tracking_code_text="PX7301"),
            ex("where is my package PX7345?", tracking_code_text="PX7345"),
            ex("when will PX7460 arrive?", tracking_code_text="PX7460"),
        ],
    }
)
service.add_goal(
    {
        "goal": "RESCHEDULE_DELIVERY",
        "description": {"pt": "Reagendar a entrega de uma encomenda", "en": "Reschedule a parcel delivery"},
        "entities_schema": {
            "tracking_code_text": CODE_ENTITY,
            "day": {
                "type": "date",
                "required": True,
                "description": {"pt": "O novo dia da entrega", "en": "The new delivery day"},
            },
            "period": {
                "type": "enum",
                "values": PERIODS,
                "synonyms": PERIOD_SYNONYMS,
                "description": {"pt": "O período do dia", "en": "The part of the day"},
            },
            "time": {"type": "time", "description": {"pt": "O horário", "en": "The time"}},
        },
        "required_one_of": [["period", "time"]],
        "capabilities": ["reschedule_delivery"],
        "examples": [
            ex(
                "reagenda a entrega PX7301 pra sexta de manhã",
                tracking_code_text="PX7301",
                day="sexta",
                period="MORNING",
            ),
            ex(
                "não vou estar em casa, muda a entrega da PX7460 pra quinta à tarde",
                tracking_code_text="PX7460",
                day="quinta",
                period="AFTERNOON",
            ),
            ex(
                "remarca a entrega PX7345 para sábado às 19h",
                tracking_code_text="PX7345",
                day="sábado",
                time="às 19h",
            ),
            ex(
                "reschedule delivery PX7301 to Monday afternoon",
                tracking_code_text="PX7301",
                day="Monday",
                period="AFTERNOON",
            ),
            ex(
                "I won't be home, deliver PX7460 on Thursday in the evening",
                tracking_code_text="PX7460",
                day="Thursday",
                period="EVENING",
            ),
            ex(
                "move the delivery of PX7345 to Saturday at 10am",
                tracking_code_text="PX7345",
                day="Saturday",
                time="10am",
            ),
        ],
    }
)
service.add_goal(
    {
        "goal": "LIST_DELIVERIES",
        "description": {"pt": "As suas entregas a caminho", "en": "Your deliveries on the way"},
        "entities_schema": {
            "delayed": {
                "type": "boolean",
                "description": {"pt": "Só as atrasadas", "en": "Only the delayed ones"},
                "synonyms": {
                    "true": ["atrasada", "atrasadas", "atrasado", "atrasados", "em atraso", "delayed", "late"]
                },
            }
        },
        "capabilities": ["list_deliveries"],
        "examples": [
            ex("quais encomendas estão chegando?"),
            ex("minhas entregas pendentes"),
            ex("alguma encomenda atrasada?", delayed=True),
            ex("what deliveries are on the way?"),
            ex("list my parcels"),
            ex("are any of my packages delayed?", delayed=True),
        ],
    }
)

if __name__ == "__main__":
    serve(service)
