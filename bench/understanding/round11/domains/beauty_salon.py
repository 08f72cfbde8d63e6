"""Beauty salon (round-11 bench domain): book a service with a professional, price of a service.

Fake, deterministic, in memory.
Run: ``python -m bench.understanding.round11.domains.beauty_salon --port 8302``.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from bench.understanding.round11.domains._common import (
    ex,
    language,
    lookup_spec,
    read_day,
    read_time,
    resolve_loose,
    say,
    today,
)
from sdk.service import DomainService, clarify, fail, option, serve
from shared.models import DomainOutput, ExecutionIntent

SERVICES = ["HAIRCUT", "COLORING", "BLOWOUT", "MANICURE", "PEDICURE", "EYEBROWS", "BEARD"]
SERVICE_SYNONYMS: dict[str, list[str]] = {
    "HAIRCUT": [
        "corte de cabelo",
        "corte",
        "cortar o cabelo",
        "cortar cabelo",
        "haircut",
        "hair cut",
        "trim",
    ],
    "COLORING": [
        "coloração",
        "tintura",
        "pintar o cabelo",
        "luzes",
        "mechas",
        "hair color",
        "highlights",
        "dye",
    ],
    "BLOWOUT": ["escova", "escovar o cabelo", "blowout", "blow dry", "blow-dry"],
    "MANICURE": [
        "manicure",
        "unha da mão",
        "unhas da mão",
        "fazer a unha",
        "fazer as unhas",
        "mani",
        "nails",
    ],
    "PEDICURE": ["pedicure", "unha do pé", "unhas do pé", "pedi", "toenails"],
    "EYEBROWS": ["sobrancelha", "sobrancelhas", "design de sobrancelha", "eyebrows", "eyebrow", "brows"],
    "BEARD": ["barba", "fazer a barba", "aparar a barba", "beard", "beard trim", "shave"],
}
#: price of each service in BRL
PRICES: dict[str, float] = {
    "HAIRCUT": 80.0,
    "COLORING": 220.0,
    "BLOWOUT": 60.0,
    "MANICURE": 45.0,
    "PEDICURE": 55.0,
    "EYEBROWS": 40.0,
    "BEARD": 45.0,
}
#: professionals (canonical name <- other ways people write it)
PROFESSIONALS: dict[str, list[str]] = {
    "Carla Souza": ["carla", "carlinha", "carla souza"],
    "Renata Alves": ["renata", "renatinha", "renata alves"],
    "Diego Martins": ["diego", "barbeiro diego", "diego martins"],
    "Yuki Tanaka": ["yuki", "yuki tanaka"],
}
#: what each professional does
DOES: dict[str, set[str]] = {
    "Carla Souza": {"HAIRCUT", "COLORING", "BLOWOUT"},
    "Renata Alves": {"MANICURE", "PEDICURE", "EYEBROWS"},
    "Diego Martins": {"HAIRCUT", "BEARD"},
    "Yuki Tanaka": {"MANICURE", "PEDICURE"},
}
OPEN, CLOSE = 9, 19  # Tuesday to Saturday
_next = [500]

service = DomainService(
    "beauty_salon",
    "0.1.0",
    {
        "pt": "Salão de beleza: agendar corte, unha, escova, barba e ver preços",
        "en": "Beauty salon: book a haircut, nails, blowout, beard and see prices",
    },
)


def _next_open(day: dt.date) -> dt.date:
    while day.weekday() in (0, 6):  # closed on Monday and Sunday
        day += dt.timedelta(days=1)
    return day


@service.capability(
    "book_service",
    {"pt": "Agenda um serviço no salão", "en": "Book a salon service"},
    parameters={
        "type": "object",
        "properties": {
            "service": {"type": "string", "enum": SERVICES},
            "professional_text": {"type": "string"},
            "day": {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"},
            "time": {"type": "string", "pattern": "^\\d{2}:\\d{2}$"},
        },
        "required": ["service", "day", "time"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["agendar no salão", "marcar horário", "salão de beleza", "book at the salon"],
            "examples": ["quero marcar um horário no salão", "book an appointment at the salon"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def book_service(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    what = str(p.get("service") or "")
    day, time = read_day(p.get("day")), read_time(p.get("time"))
    if what not in PRICES or day is None or time is None:
        return fail(
            say(lang, "Falta o serviço, o dia ou a hora.", "Service, day or time missing."),
            "missing_parameter",
        )
    able = [n for n in PROFESSIONALS if what in DOES[n]]
    who = None
    if p.get("professional_text"):
        who = resolve_loose(p.get("professional_text"), PROFESSIONALS)
        if who is None or what not in DOES[who]:
            return clarify(
                say(lang, "Quem pode fazer esse serviço:", "Who can do that service:"),
                [option(n, n, aliases=PROFESSIONALS[n]) for n in able],
                param="professional_text",
            )
    if day < today():
        return fail(say(lang, "Esse dia já passou.", "That day is past."), "past_day")
    if day.weekday() in (0, 6):
        return fail(
            say(lang, "O salão fecha domingo e segunda.", "The salon is closed on Sunday and Monday."),
            "closed_day",
            recoverable=True,
            suggestions=[{"day": _next_open(day).isoformat()}],
        )
    if not OPEN <= int(time[:2]) < CLOSE:
        return fail(
            say(lang, "O salão atende das 9h às 19h.", "The salon works from 9:00 to 19:00."),
            "closed_hour",
            recoverable=True,
            suggestions=[{"time": "09:00"}],
        )
    who = who or able[0]
    _next[0] += 1
    code = f"BS{_next[0]}"
    return DomainOutput(
        status="success",
        result={"code": code, "service": what, "professional": who, "day": day.isoformat(), "time": time},
        explanation=say(
            lang,
            f"{what} com {who} em {day:%d/%m} às {time}, R$ {PRICES[what]:.2f}. Código {code}.",
            f"{what} with {who} on {day:%b %d} at {time}, R$ {PRICES[what]:.2f}. Code {code}.",
        ),
    )


@service.capability(
    "service_price",
    {"pt": "Preço de um serviço do salão", "en": "Price of a salon service"},
    parameters={
        "type": "object",
        "properties": {"service": {"type": "string", "enum": SERVICES}},
        "required": ["service"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["quanto custa", "preço", "valor", "how much", "price"],
            "examples": ["quanto custa no salão?", "salon prices"],
        },
        "policy": {"read_only": True},
    },
)
def service_price(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    what = str(intent.parameters.get("service") or "")
    if what not in PRICES:
        return fail(say(lang, "Qual serviço?", "Which service?"), "missing_parameter")
    return DomainOutput(
        status="success",
        result={"service": what, "price": {"amount": PRICES[what], "currency": "BRL"}},
        explanation=say(lang, f"{what}: R$ {PRICES[what]:.2f}.", f"{what}: R$ {PRICES[what]:.2f}."),
    )


SERVICE_ENTITY: dict[str, Any] = {
    "type": "enum",
    "required": True,
    "values": SERVICES,
    "synonyms": SERVICE_SYNONYMS,
    "description": {"pt": "O serviço", "en": "The service"},
}

service.add_goal(
    {
        "goal": "BOOK_SERVICE",
        "description": {"pt": "Agendar um serviço no salão", "en": "Book a salon service"},
        "entities_schema": {
            "service": SERVICE_ENTITY,
            "professional_text": {
                "type": "string",
                "description": {"pt": "Com quem", "en": "With whom"},
                "lookup": lookup_spec(PROFESSIONALS),
            },
            "day": {"type": "date", "required": True, "description": {"pt": "O dia", "en": "The day"}},
            "time": {"type": "time", "required": True, "description": {"pt": "O horário", "en": "The time"}},
        },
        "capabilities": ["book_service"],
        "examples": [
            ex(
                "marca um corte com a Carla sábado às 10h",
                service="HAIRCUT",
                professional_text="Carla",
                day="sábado",
                time="10h",
            ),
            ex("quero fazer a unha amanhã 15h", service="MANICURE", day="amanhã", time="15h"),
            ex(
                "agenda barba com o Diego quinta 18h",
                service="BEARD",
                professional_text="Diego",
                day="quinta",
                time="18h",
            ),
            ex(
                "book a haircut with Diego on Friday at 5pm",
                service="HAIRCUT",
                professional_text="Diego",
                day="Friday",
                time="5pm",
            ),
            ex("I'd like a pedicure tomorrow at 11am", service="PEDICURE", day="tomorrow", time="11am"),
        ],
    }
)
service.add_goal(
    {
        "goal": "SERVICE_PRICE",
        "description": {"pt": "Ver o preço de um serviço", "en": "See a service's price"},
        "entities_schema": {"service": SERVICE_ENTITY},
        "capabilities": ["service_price"],
        "examples": [
            ex("quanto custa a escova?", service="BLOWOUT"),
            ex("qual o valor da coloração?", service="COLORING"),
            ex("how much is a manicure?", service="MANICURE"),
            ex("price of eyebrows", service="EYEBROWS"),
        ],
    }
)

if __name__ == "__main__":
    serve(service)
