"""Moving company (round-12 bench domain): book a move with a truck and a crew, quote a move.

Fake, deterministic, in memory.
Run: ``python -m bench.understanding.round12.domains.moving --port 8403``.
"""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

from bench.understanding.round12.domains._common import (
    ex,
    language,
    lookup_spec,
    read_day,
    read_number,
    read_time,
    resolve_loose,
    say,
    today,
)
from sdk.service import DomainService, clarify, fail, option, serve
from shared.models import DomainOutput, ExecutionIntent

#: vehicles (canonical name <- other ways people write it)
TRUCKS: dict[str, list[str]] = {
    "Fiorino": ["fiorino", "utilitário", "carro pequeno", "small van", "mini van"],
    "Van": ["van", "sprinter", "van de mudança", "moving van", "cargo van"],
    "Caminhão Baú": [
        "caminhão",
        "caminhão baú",
        "caminhãozinho",
        "baú",
        "box truck",
        "truck",
        "moving truck",
    ],
}
#: price per hour of each vehicle with its driver, in BRL; each helper adds HELPER per hour
RATES: dict[str, int] = {"Fiorino": 90, "Van": 150, "Caminhão Baú": 250}
HELPER = 60
#: extras (enum value <- synonyms)
EXTRAS: dict[str, list[str]] = {
    "PACKING": ["embalagem", "embalar", "embalar tudo", "encaixotar", "packing", "pack everything"],
    "ASSEMBLY": [
        "montagem",
        "desmontagem",
        "montar os móveis",
        "desmontar os móveis",
        "furniture assembly",
        "assembly",
    ],
}
EXTRA_PRICE = {"PACKING": 200, "ASSEMBLY": 150}
START, MIN_MINUTES, MAX_MINUTES, MAX_HELPERS = 7, 120, 600, 4
#: moves already booked (code -> truck, day, start)
MOVES: dict[str, tuple[str, str, str]] = {"MV5001": ("Van", "2026-03-14", "08:00")}
_next = [5100]

service = DomainService(
    "moving",
    "0.1.0",
    {
        "pt": "Mudanças: agendar mudança com veículo e ajudantes, orçamento",
        "en": "Moving: book a move with a vehicle and helpers, get a quote",
    },
)


def _minutes(value: object) -> int | None:
    m = re.fullmatch(r"PT?(?:(\d+)H)?(?:(\d+)M)?", str(value or "").upper())
    if not m or not any(m.groups()):
        return None
    h, mi = (int(g or 0) for g in m.groups())
    return h * 60 + mi


def _truck(lang: str, words: object) -> tuple[str | None, DomainOutput | None]:
    truck = resolve_loose(words, TRUCKS)
    if truck is None:
        return None, clarify(
            say(lang, f"Não temos “{words}”. Qual veículo?", "Which vehicle?"),
            [option(t, t, aliases=TRUCKS[t]) for t in TRUCKS],
            param="truck_text",
        )
    return truck, None


def _price(truck: str, minutes: int, helpers: int, extra: str | None) -> float:
    hours = minutes / 60
    return RATES[truck] * hours + HELPER * helpers * hours + (EXTRA_PRICE.get(extra or "", 0))


@service.capability(
    "book_move",
    {"pt": "Agenda uma mudança", "en": "Book a move"},
    parameters={
        "type": "object",
        "properties": {
            "truck_text": {"type": "string", "minLength": 1},
            "day": {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"},
            "start": {"type": "string", "pattern": "^\\d{2}:\\d{2}$"},
            "duration": {"type": "string"},
            "helpers": {"type": "number"},
            "extra": {"type": "string", "enum": list(EXTRAS)},
        },
        "required": ["truck_text", "day", "start", "duration"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["agendar mudança", "fazer mudança", "frete", "book a move", "moving company"],
            "examples": ["quero agendar uma mudança", "book a move for next week"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def book_move(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    truck, question = _truck(lang, p.get("truck_text"))
    if question is not None:
        return question
    assert truck is not None  # resolved, or the question above
    day, start, minutes = read_day(p.get("day")), read_time(p.get("start")), _minutes(p.get("duration"))
    helpers = int(read_number(p.get("helpers")) or 0)
    extra = str(p.get("extra") or "").upper() or None
    if day is None or start is None or minutes is None:
        return fail(
            say(lang, "Falta o dia, a hora ou a duração.", "The day, time or duration is missing."),
            "missing_parameter",
        )
    if day < today():
        return fail(say(lang, "Esse dia já passou.", "That day is past."), "past_day")
    if day.weekday() == 6:
        return fail(
            say(lang, "Não fazemos mudança no domingo.", "We do not move on Sundays."),
            "closed",
            recoverable=True,
            suggestions=[{"day": (day + timedelta(days=1)).isoformat()}],
        )
    if int(start[:2]) < START:
        return fail(
            say(lang, "Começamos às 7h.", "We start at 7:00."),
            "too_early",
            recoverable=True,
            suggestions=[{"start": "07:00"}],
        )
    if not MIN_MINUTES <= minutes <= MAX_MINUTES:
        fix = "PT2H" if minutes < MIN_MINUTES else "PT10H"
        return fail(
            say(lang, "Uma mudança vai de 2 a 10 horas.", "A move lasts 2 to 10 hours."),
            "bad_duration",
            recoverable=True,
            suggestions=[{"duration": fix}],
        )
    if helpers > MAX_HELPERS:
        return fail(
            say(lang, "Mandamos até 4 ajudantes.", "We send up to 4 helpers."),
            "too_many_helpers",
            recoverable=True,
            suggestions=[{"helpers": MAX_HELPERS}],
        )
    _next[0] += 1
    code = f"MV{_next[0]}"
    MOVES[code] = (truck, day.isoformat(), start)
    price = _price(truck, minutes, helpers, extra)
    return DomainOutput(
        status="success",
        result={
            "code": code,
            "truck": truck,
            "day": day.isoformat(),
            "start": start,
            "minutes": minutes,
            "helpers": helpers,
            "extra": extra,
            "price": {"amount": price, "currency": "BRL"},
        },
        explanation=say(
            lang,
            f"Mudança {code}: {truck}, {day:%d/%m} às {start}, {minutes // 60}h, "
            f"{helpers} ajudante(s), R$ {price:.2f}.",
            f"Move {code}: {truck}, {day:%b %d} at {start}, {minutes // 60}h, "
            f"{helpers} helper(s), R$ {price:.2f}.",
        ),
    )


@service.capability(
    "move_quote",
    {"pt": "Faz o orçamento de uma mudança", "en": "Quote a move"},
    parameters={
        "type": "object",
        "properties": {
            "truck_text": {"type": "string", "minLength": 1},
            "duration": {"type": "string"},
            "helpers": {"type": "number"},
            "extra": {"type": "string", "enum": list(EXTRAS)},
        },
        "required": ["truck_text"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["orçamento de mudança", "quanto custa a mudança", "moving quote"],
            "examples": ["quanto fica uma mudança?", "how much does a move cost?"],
        },
        "policy": {"read_only": True},
    },
)
def move_quote(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    truck, question = _truck(lang, p.get("truck_text"))
    if question is not None:
        return question
    assert truck is not None
    minutes = _minutes(p.get("duration")) or 240
    helpers = int(read_number(p.get("helpers")) or 0)
    extra = str(p.get("extra") or "").upper() or None
    price = _price(truck, minutes, helpers, extra)
    return DomainOutput(
        status="success",
        result={
            "truck": truck,
            "minutes": minutes,
            "helpers": helpers,
            "price": {"amount": price, "currency": "BRL"},
        },
        explanation=say(
            lang,
            f"{truck} por {minutes // 60}h com {helpers} ajudante(s): R$ {price:.2f}.",
            f"{truck} for {minutes // 60}h with {helpers} helper(s): R$ {price:.2f}.",
        ),
    )


TRUCK_ENTITY: dict[str, Any] = {
    "type": "string",
    "required": True,
    "description": {"pt": "O veículo", "en": "The vehicle"},
    "lookup": lookup_spec(TRUCKS),
}
HELPERS_ENTITY: dict[str, Any] = {
    "type": "number",
    "description": {"pt": "Quantos ajudantes", "en": "How many helpers"},
}
EXTRA_ENTITY: dict[str, Any] = {
    "type": "enum",
    "values": list(EXTRAS),
    "synonyms": EXTRAS,
    "description": {"pt": "Serviço extra", "en": "Extra service"},
}
DURATION = {"pt": "Por quantas horas", "en": "For how many hours"}

service.add_goal(
    {
        "goal": "BOOK_MOVE",
        "description": {"pt": "Agendar uma mudança", "en": "Book a move"},
        "entities_schema": {
            "truck_text": TRUCK_ENTITY,
            "day": {
                "type": "date",
                "required": True,
                "description": {"pt": "O dia da mudança", "en": "The day"},
            },
            "start": {
                "type": "time",
                "required": True,
                "description": {"pt": "A hora de início", "en": "Start time"},
            },
            "duration": {"type": "duration", "required": True, "description": DURATION},
            "helpers": HELPERS_ENTITY,
            "extra": EXTRA_ENTITY,
        },
        "capabilities": ["book_move"],
        "examples": [
            ex(
                "agenda uma mudança com caminhão baú sábado às 8h por 5 horas com 2 ajudantes",
                truck_text="caminhão baú",
                day="sábado",
                start="8h",
                duration="5 horas",
                helpers="2 ajudantes",
            ),
            ex(
                "quero uma van pra mudança dia 20 às 9h por 3 horas",
                truck_text="van",
                day="dia 20",
                start="9h",
                duration="3 horas",
            ),
            ex(
                "fiorino amanhã 14h por 2 horas, com montagem",
                truck_text="fiorino",
                day="amanhã",
                start="14h",
                duration="2 horas",
                extra="ASSEMBLY",
            ),
            ex(
                "book a moving truck on Saturday at 7am for 6 hours with 3 helpers",
                truck_text="moving truck",
                day="Saturday",
                start="7am",
                duration="6 hours",
                helpers="3 helpers",
            ),
            ex(
                "I need a cargo van on Friday at 10am for 4 hours, packing included",
                truck_text="cargo van",
                day="Friday",
                start="10am",
                duration="4 hours",
                extra="PACKING",
            ),
        ],
    }
)
service.add_goal(
    {
        "goal": "MOVE_QUOTE",
        "description": {"pt": "Orçamento de mudança", "en": "Moving quote"},
        "entities_schema": {
            "truck_text": TRUCK_ENTITY,
            "duration": {"type": "duration", "description": DURATION},
            "helpers": HELPERS_ENTITY,
            "extra": EXTRA_ENTITY,
        },
        "capabilities": ["move_quote"],
        "examples": [
            ex(
                "quanto custa um caminhão por 4 horas com 2 ajudantes?",
                truck_text="caminhão",
                duration="4 horas",
                helpers="2 ajudantes",
            ),
            ex("orçamento de mudança com fiorino", truck_text="fiorino"),
            ex("how much for a van for 3 hours?", truck_text="van", duration="3 hours"),
            ex("quote for a box truck with 2 helpers", truck_text="box truck", helpers="2 helpers"),
        ],
    }
)

if __name__ == "__main__":
    serve(service)
