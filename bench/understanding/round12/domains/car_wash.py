"""Car wash (round-12 bench domain): book a wash, ask a wash's price, cancel a wash.

Fake, deterministic, in memory.
Run: ``python -m bench.understanding.round12.domains.car_wash --port 8401``.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from bench.understanding.round12.domains._common import (
    code_of,
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

#: units (canonical name <- other ways people write it)
UNITS: dict[str, list[str]] = {
    "Lava-Rápido Pinheiros": ["pinheiros", "unidade pinheiros", "lava rápido pinheiros", "pinheiros branch"],
    "Lava-Rápido Moema": ["moema", "unidade moema", "lava rápido moema", "moema branch"],
    "Lava-Rápido Tatuapé": ["tatuapé", "tatuape", "unidade tatuapé", "tatuape branch"],
    "Lava-Rápido Centro": ["centro", "unidade centro", "downtown", "downtown branch"],
}
#: wash kinds (enum value <- synonyms) and their price in BRL
WASHES: dict[str, list[str]] = {
    "SIMPLE": ["lavagem simples", "simples", "ducha", "basic wash", "quick wash", "simple wash"],
    "COMPLETE": ["lavagem completa", "completa", "lavagem completinha", "full wash", "complete wash"],
    "WAX": ["enceramento", "encerar", "cera", "polimento", "wax", "waxing", "polish"],
    "INTERIOR": ["higienização", "higienizar", "limpeza interna", "interior cleaning", "interior detailing"],
    "ENGINE": ["lavagem de motor", "lavar o motor", "engine wash", "engine cleaning"],
}
PRICES: dict[str, int] = {"SIMPLE": 40, "COMPLETE": 70, "WAX": 120, "INTERIOR": 150, "ENGINE": 60}
OPEN, CLOSE = 8, 18
#: washes already booked (code -> unit, day, time, wash)
BOOKINGS: dict[str, tuple[str, str, str, str]] = {
    "LW2101": ("Lava-Rápido Pinheiros", "2026-03-11", "10:00", "COMPLETE"),
    "LW2115": ("Lava-Rápido Moema", "2026-03-13", "15:00", "WAX"),
    "LW2120": ("Lava-Rápido Centro", "2026-03-18", "09:00", "SIMPLE"),
}
_next = [2200]

service = DomainService(
    "car_wash",
    "0.1.0",
    {
        "pt": "Lava-rápido: agendar lavagem, preço de cada lavagem, cancelar agendamento",
        "en": "Car wash: book a wash, the price of each wash, cancel a booking",
    },
)


def _unit(lang: str, words: object) -> tuple[str | None, DomainOutput | None]:
    unit = resolve_loose(words, UNITS)
    if unit is None:
        return None, clarify(
            say(lang, f"Não temos a unidade “{words}”. Qual destas?", "Which of our branches?"),
            [option(u, u, aliases=UNITS[u]) for u in UNITS],
            param="unit_text",
        )
    return unit, None


def _wash(value: object) -> str | None:
    text = str(value or "").upper()
    return text if text in WASHES else None


@service.capability(
    "book_wash",
    {"pt": "Agenda uma lavagem de carro", "en": "Book a car wash"},
    parameters={
        "type": "object",
        "properties": {
            "unit_text": {"type": "string", "minLength": 1},
            "wash": {"type": "string", "enum": list(WASHES)},
            "day": {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"},
            "time": {"type": "string", "pattern": "^\\d{2}:\\d{2}$"},
        },
        "required": ["unit_text", "wash", "day", "time"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["lava-rápido", "lavar o carro", "agendar lavagem", "car wash", "wash my car"],
            "examples": ["quero agendar uma lavagem do carro", "book a car wash for my car"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def book_wash(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    unit, question = _unit(lang, p.get("unit_text"))
    if question is not None:
        return question
    assert unit is not None  # resolved, or the question above
    wash, day, time = _wash(p.get("wash")), read_day(p.get("day")), read_time(p.get("time"))
    if wash is None or day is None or time is None:
        return fail(
            say(lang, "Falta a lavagem, o dia ou a hora.", "The wash, day or time is missing."),
            "missing_parameter",
        )
    if day < today():
        return fail(say(lang, "Esse dia já passou.", "That day is past."), "past_day")
    if day.weekday() == 6:
        monday = (day + timedelta(days=1)).isoformat()
        return fail(
            say(lang, "Domingo estamos fechados.", "We are closed on Sundays."),
            "closed",
            recoverable=True,
            suggestions=[{"day": monday}],
        )
    if not OPEN <= int(time[:2]) < CLOSE:
        return fail(
            say(lang, "Atendemos das 8h às 18h.", "We are open 8:00 to 18:00."),
            "closed",
            recoverable=True,
            suggestions=[{"time": "08:00"}],
        )
    _next[0] += 1
    code = f"LW{_next[0]}"
    BOOKINGS[code] = (unit, day.isoformat(), time, wash)
    return DomainOutput(
        status="success",
        result={"code": code, "unit": unit, "day": day.isoformat(), "time": time, "wash": wash},
        explanation=say(
            lang,
            f"Lavagem agendada no {unit}, {day:%d/%m} às {time} (R$ {PRICES[wash]}). Código {code}.",
            f"Wash booked at {unit}, {day:%b %d} at {time} (R$ {PRICES[wash]}). Code {code}.",
        ),
    )


@service.capability(
    "wash_price",
    {"pt": "Diz o preço de uma lavagem", "en": "Tell the price of a wash"},
    parameters={
        "type": "object",
        "properties": {"wash": {"type": "string", "enum": list(WASHES)}},
        "required": ["wash"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["preço da lavagem", "quanto custa lavar", "car wash price"],
            "examples": ["quanto custa a lavagem?", "how much is a wash?"],
        },
        "policy": {"read_only": True},
    },
)
def wash_price(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    wash = _wash(intent.parameters.get("wash"))
    if wash is None:
        return fail(say(lang, "Qual lavagem?", "Which wash?"), "missing_parameter")
    return DomainOutput(
        status="success",
        result={"wash": wash, "price": {"amount": PRICES[wash], "currency": "BRL"}},
        explanation=say(lang, f"{wash}: R$ {PRICES[wash]}.", f"{wash}: R$ {PRICES[wash]}."),
    )


@service.capability(
    "cancel_wash",
    {"pt": "Cancela uma lavagem agendada pelo código", "en": "Cancel a booked wash by its code"},
    parameters={
        "type": "object",
        "properties": {"booking_text": {"type": "string", "minLength": 1}},
        "required": ["booking_text"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["cancelar lavagem", "desmarcar lavagem", "cancel wash"],
            "examples": ["quero cancelar a lavagem", "cancel my car wash"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def cancel_wash(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    code = code_of(intent.parameters.get("booking_text"), "LW")
    if code not in BOOKINGS:
        return fail(say(lang, f"Não achei a lavagem {code}.", f"Wash {code} not found."), "not_found")
    unit, day, time, wash = BOOKINGS.pop(code)
    return DomainOutput(
        status="success",
        result={"code": code, "unit": unit, "day": day, "time": time, "wash": wash, "cancelled": True},
        explanation=say(
            lang,
            f"Lavagem {code} ({unit}, {day} {time}) cancelada.",
            f"Wash {code} ({unit}, {day} {time}) cancelled.",
        ),
    )


WASH_ENTITY: dict[str, Any] = {
    "type": "enum",
    "required": True,
    "values": list(WASHES),
    "synonyms": WASHES,
    "description": {"pt": "O tipo de lavagem", "en": "The kind of wash"},
}

service.add_goal(
    {
        "goal": "BOOK_WASH",
        "description": {"pt": "Agendar uma lavagem", "en": "Book a wash"},
        "entities_schema": {
            "unit_text": {
                "type": "string",
                "required": True,
                "description": {"pt": "A unidade do lava-rápido", "en": "The car wash branch"},
                "lookup": lookup_spec(UNITS),
            },
            "wash": WASH_ENTITY,
            "day": {"type": "date", "required": True, "description": {"pt": "O dia", "en": "The day"}},
            "time": {"type": "time", "required": True, "description": {"pt": "O horário", "en": "The time"}},
        },
        "capabilities": ["book_wash"],
        "examples": [
            ex(
                "agenda uma lavagem completa na unidade Moema amanhã às 10h",
                unit_text="unidade Moema",
                wash="COMPLETE",
                day="amanhã",
                time="10h",
            ),
            ex(
                "quero lavagem simples em pinheiros sábado 9h",
                unit_text="pinheiros",
                wash="SIMPLE",
                day="sábado",
                time="9h",
            ),
            ex(
                "marca um enceramento no centro sexta às 14h",
                unit_text="centro",
                wash="WAX",
                day="sexta",
                time="14h",
            ),
            ex(
                "book a full wash at the Tatuape branch tomorrow at 11am",
                unit_text="Tatuape branch",
                wash="COMPLETE",
                day="tomorrow",
                time="11am",
            ),
            ex(
                "I want interior cleaning downtown on Thursday at 3pm",
                unit_text="downtown",
                wash="INTERIOR",
                day="Thursday",
                time="3pm",
            ),
        ],
    }
)
service.add_goal(
    {
        "goal": "WASH_PRICE",
        "description": {"pt": "Saber o preço de uma lavagem", "en": "Know the price of a wash"},
        "entities_schema": {"wash": WASH_ENTITY},
        "capabilities": ["wash_price"],
        "examples": [
            ex("qual o preço da lavagem completa?", wash="COMPLETE"),
            ex("quanto sai o enceramento?", wash="WAX"),
            ex("how much is the engine wash?", wash="ENGINE"),
            ex("price of a basic wash", wash="SIMPLE"),
        ],
    }
)
service.add_goal(
    {
        "goal": "CANCEL_WASH",
        "description": {"pt": "Cancelar uma lavagem agendada", "en": "Cancel a booked wash"},
        "entities_schema": {
            "booking_text": {
                "type": "string",
                "required": True,
                "description": {"pt": "O código do agendamento", "en": "The booking code"},
            },
        },
        "capabilities": ["cancel_wash"],
        "examples": [
            ex("cancela a lavagem LW2101", booking_text="LW2101"),
            ex("desmarca meu agendamento lw2115", booking_text="lw2115"),
            ex("cancel car wash LW2120", booking_text="LW2120"),
            ex("please cancel my wash booking LW2101", booking_text="LW2101"),
        ],
    }
)

if __name__ == "__main__":
    serve(service)
