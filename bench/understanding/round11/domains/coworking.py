"""Coworking (round-11 bench domain): book a desk or a room, list my bookings, cancel a booking.

Fake, deterministic, in memory.
Run: ``python -m bench.understanding.round11.domains.coworking --port 8301``.
"""

from __future__ import annotations

import re
from typing import Any

from bench.understanding.round11.domains._common import (
    code_of,
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

#: spaces (canonical name <- other ways people write it)
SPACES: dict[str, list[str]] = {
    "Mesa Compartilhada": [
        "mesa",
        "mesa compartilhada",
        "hot desk",
        "desk",
        "estação de trabalho",
        "workstation",
    ],
    "Sala Ipê": ["ipê", "sala ipê", "ipe room", "sala pequena", "small room"],
    "Sala Jabuticaba": ["jabuticaba", "sala jabuticaba", "jabuticaba room", "sala grande", "big room"],
    "Auditório Paulista": ["auditório", "auditorio paulista", "auditorium", "paulista"],
    "Cabine Telefônica": ["cabine", "cabine telefônica", "phone booth", "booth", "call booth"],
}
#: people each space holds
CAPACITY: dict[str, int] = {
    "Mesa Compartilhada": 1,
    "Sala Ipê": 6,
    "Sala Jabuticaba": 12,
    "Auditório Paulista": 40,
    "Cabine Telefônica": 1,
}
OPEN, CLOSE, MAX_MINUTES = 8, 20, 480
#: bookings already made (code -> space, day, start, minutes)
BOOKINGS: dict[str, tuple[str, str, str, int]] = {
    "CW1042": ("Sala Ipê", "2026-03-11", "10:00", 120),
    "CW1057": ("Mesa Compartilhada", "2026-03-12", "09:00", 480),
    "CW1063": ("Auditório Paulista", "2026-03-20", "14:00", 180),
}
_next = [1100]

service = DomainService(
    "coworking",
    "0.1.0",
    {
        "pt": "Coworking: reservar mesa ou sala, ver e cancelar minhas reservas",
        "en": "Coworking: book a desk or a room, see and cancel my bookings",
    },
)


def _minutes(value: object) -> int | None:
    m = re.fullmatch(r"PT?(?:(\d+)H)?(?:(\d+)M)?", str(value or "").upper())
    if not m or not any(m.groups()):
        return None
    h, mi = (int(g or 0) for g in m.groups())
    return h * 60 + mi


def _space(lang: str, words: object) -> tuple[str | None, DomainOutput | None]:
    space = resolve_loose(words, SPACES)
    if space is None:
        return None, clarify(
            say(lang, f"Não temos o espaço “{words}”. Qual destes?", "Which of these spaces?"),
            [option(s, s, aliases=SPACES[s]) for s in SPACES],
            param="space_text",
        )
    return space, None


@service.capability(
    "book_space",
    {"pt": "Reserva uma mesa ou sala do coworking", "en": "Book a coworking desk or room"},
    parameters={
        "type": "object",
        "properties": {
            "space_text": {"type": "string", "minLength": 1},
            "day": {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"},
            "start": {"type": "string", "pattern": "^\\d{2}:\\d{2}$"},
            "duration": {"type": "string"},
            "people": {"type": "number"},
        },
        "required": ["space_text", "day", "start", "duration"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["reservar sala", "reservar mesa", "coworking", "book a room", "book a desk"],
            "examples": ["quero reservar uma sala no coworking", "book a meeting room at the coworking"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def book_space(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    space, question = _space(lang, p.get("space_text"))
    if question is not None:
        return question
    assert space is not None  # resolved, or the question above
    day, start, minutes = read_day(p.get("day")), read_time(p.get("start")), _minutes(p.get("duration"))
    people = read_number(p.get("people")) or 1
    if day is None or start is None or minutes is None:
        return fail(
            say(lang, "Falta o dia, a hora ou a duração.", "The day, time or duration is missing."),
            "missing_parameter",
        )
    if day < today():
        return fail(say(lang, "Esse dia já passou.", "That day is past."), "past_day")
    if int(start[:2]) < OPEN:
        return fail(
            say(lang, "O coworking abre às 8h.", "The coworking opens at 8:00."),
            "closed",
            recoverable=True,
            suggestions=[{"start": "08:00"}],
        )
    if minutes > MAX_MINUTES:
        return fail(
            say(lang, "Uma reserva vai até 8 horas.", "A booking lasts up to 8 hours."),
            "too_long",
            recoverable=True,
            suggestions=[{"duration": "PT8H"}],
        )
    if people > CAPACITY[space]:
        bigger = next(s for s in SPACES if CAPACITY[s] >= people) if people <= 40 else None
        return fail(
            say(lang, f"{space} cabe {CAPACITY[space]} pessoa(s).", f"{space} holds {CAPACITY[space]}."),
            "too_many_people",
            recoverable=bigger is not None,
            suggestions=[{"space_text": bigger}] if bigger else None,
        )
    _next[0] += 1
    code = f"CW{_next[0]}"
    BOOKINGS[code] = (space, day.isoformat(), start, minutes)
    return DomainOutput(
        status="success",
        result={"code": code, "space": space, "day": day.isoformat(), "start": start, "minutes": minutes},
        explanation=say(
            lang,
            f"{space} reservada em {day:%d/%m} às {start} por {minutes} min. Código {code}.",
            f"{space} booked on {day:%b %d} at {start} for {minutes} min. Code {code}.",
        ),
    )


@service.capability(
    "list_bookings",
    {"pt": "Lista minhas reservas do coworking", "en": "List my coworking bookings"},
    parameters={
        "type": "object",
        "properties": {"day": {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"}},
    },
    metadata={
        "intent_hints": {
            "keywords": ["minhas reservas", "my bookings", "my reservations"],
            "examples": ["quais são minhas reservas?", "what are my bookings?"],
        },
        "policy": {"read_only": True},
    },
)
def list_bookings(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    day = read_day(intent.parameters.get("day"))
    rows = [
        {"code": c, "space": s, "day": d, "start": t, "minutes": m}
        for c, (s, d, t, m) in sorted(BOOKINGS.items(), key=lambda kv: (kv[1][1], kv[1][2]))
        if d >= today().isoformat() and (day is None or d == day.isoformat())
    ]
    lines = "; ".join(f"{r['code']} {r['space']} {r['day']} {r['start']}" for r in rows)
    return DomainOutput(
        status="success",
        result={"bookings": rows},
        explanation=say(
            lang,
            f"{len(rows)} reserva(s): {lines}" if rows else "Nenhuma reserva.",
            f"{len(rows)} booking(s): {lines}" if rows else "No bookings.",
        ),
    )


@service.capability(
    "cancel_booking",
    {"pt": "Cancela uma reserva pelo código", "en": "Cancel a booking by its code"},
    parameters={
        "type": "object",
        "properties": {"booking_text": {"type": "string", "minLength": 1}},
        "required": ["booking_text"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["cancelar reserva", "cancel booking", "cancel my reservation"],
            "examples": ["quero cancelar uma reserva", "cancel a booking"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def cancel_booking(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    code = code_of(intent.parameters.get("booking_text"), "CW")
    if code not in BOOKINGS:
        return fail(say(lang, f"Não achei a reserva {code}.", f"Booking {code} not found."), "not_found")
    space, day, start, _ = BOOKINGS.pop(code)
    return DomainOutput(
        status="success",
        result={"code": code, "space": space, "day": day, "start": start, "cancelled": True},
        explanation=say(
            lang,
            f"Reserva {code} ({space}, {day} {start}) cancelada.",
            f"Booking {code} ({space}, {day} {start}) cancelled.",
        ),
    )


SPACE_ENTITY: dict[str, Any] = {
    "type": "string",
    "required": True,
    "description": {"pt": "A mesa ou sala", "en": "The desk or room"},
    "lookup": lookup_spec(SPACES),
}
DAY_ENTITY: dict[str, Any] = {"type": "date", "description": {"pt": "O dia", "en": "The day"}}

service.add_goal(
    {
        "goal": "BOOK_SPACE",
        "description": {"pt": "Reservar uma mesa ou sala", "en": "Book a desk or a room"},
        "entities_schema": {
            "space_text": SPACE_ENTITY,
            "day": {**DAY_ENTITY, "required": True},
            "start": {
                "type": "time",
                "required": True,
                "description": {"pt": "A hora de início", "en": "Start time"},
            },
            "duration": {
                "type": "duration",
                "required": True,
                "description": {"pt": "Por quanto tempo", "en": "For how long"},
            },
            "people": {"type": "number", "description": {"pt": "Quantas pessoas", "en": "How many people"}},
        },
        "capabilities": ["book_space"],
        "examples": [
            ex(
                "reserva a sala Ipê amanhã às 10h por 2 horas para 4 pessoas",
                space_text="sala Ipê",
                day="amanhã",
                start="10h",
                duration="2 horas",
                people="4 pessoas",
            ),
            ex(
                "quero uma mesa compartilhada sexta 9h por 8 horas",
                space_text="mesa compartilhada",
                day="sexta",
                start="9h",
                duration="8 horas",
            ),
            ex(
                "preciso do auditório dia 20 às 14h por 3 horas, umas 30 pessoas",
                space_text="auditório",
                day="dia 20",
                start="14h",
                duration="3 horas",
                people="30 pessoas",
            ),
            ex(
                "book the Jabuticaba room tomorrow at 3pm for 1 hour for 8 people",
                space_text="Jabuticaba room",
                day="tomorrow",
                start="3pm",
                duration="1 hour",
                people="8 people",
            ),
            ex(
                "I need a phone booth on Thursday at 11am for 30 minutes",
                space_text="phone booth",
                day="Thursday",
                start="11am",
                duration="30 minutes",
            ),
        ],
    }
)
service.add_goal(
    {
        "goal": "LIST_BOOKINGS",
        "description": {"pt": "Ver minhas reservas", "en": "See my bookings"},
        "entities_schema": {"day": DAY_ENTITY},
        "capabilities": ["list_bookings"],
        "examples": [
            ex("quais reservas eu tenho no coworking?"),
            ex("tenho alguma sala reservada amanhã?", day="amanhã"),
            ex("show my coworking bookings"),
            ex("do I have a room booked on Friday?", day="Friday"),
        ],
    }
)
service.add_goal(
    {
        "goal": "CANCEL_BOOKING",
        "description": {"pt": "Cancelar uma reserva", "en": "Cancel a booking"},
        "entities_schema": {
            "booking_text": {
                "type": "string",
                "required": True,
                "description": {"pt": "O código da reserva", "en": "The booking code"},
            },
        },
        "capabilities": ["cancel_booking"],
        "examples": [
            ex("cancela a reserva CW1042", booking_text="CW1042"),
            ex("quero cancelar minha reserva cw1057", booking_text="cw1057"),
            ex("cancel booking CW1063", booking_text="CW1063"),
            ex("please cancel my reservation CW1042", booking_text="CW1042"),
        ],
    }
)

if __name__ == "__main__":
    serve(service)
