"""Karaoke (round-19 bench domain): book a private karaoke room for a group on a day and time
(two hours unless a duration is said), cancel a booking by its code, and quote the rooms'
prices (optionally within a budget).

Fake, deterministic, in memory.
Run: ``python -m bench.understanding.round19.domains.karaoke --port 8922``.
"""

from __future__ import annotations

import re
from datetime import date

from bench.understanding.round19.domains._common import (
    ex,
    hhmm,
    language,
    norm_code,
    read_day,
    read_number,
    resolve_name,
    say,
    table,
    today,
)
from sdk.service import DomainService, clarify, fail, option, serve
from shared.models import DomainOutput, ExecutionIntent

#: rooms (canonical value <- aliases)
ROOMS: dict[str, list[str]] = {
    "Sala Tóquio": [
        "sala tóquio",
        "sala toquio",
        "tóquio",
        "toquio",
        "tokyo",
        "tokyo room",
        "sala pequena",
        "small room",
    ],
    "Sala Seul": ["sala seul", "seul", "seoul", "seoul room", "sala média", "sala media", "medium room"],
    "Sala Vegas": ["sala vegas", "vegas", "las vegas", "vegas room", "sala grande", "big room", "large room"],
    "Sala Broadway": ["sala broadway", "broadway", "broadway room", "sala vip", "vip room", "vip"],
}
#: room -> (price per hour in BRL, capacity)
ROOM_INFO: dict[str, tuple[float, int]] = {
    "Sala Tóquio": (80.0, 6),
    "Sala Seul": (120.0, 10),
    "Sala Vegas": (180.0, 15),
    "Sala Broadway": (300.0, 25),
}
#: start hours 18:00..23:00 (the house closes at 02:00)
FIRST_START, LAST_START = 18, 23
DEFAULT_HOURS = 2.0
#: bookings (code -> room, day, time, guests, hours, state)
BOOKINGS: dict[str, tuple[str, date, str, int, float, str]] = {
    "KR5101": ("Sala Seul", date(2026, 3, 13), "21:00", 8, 2.0, "booked"),
    "KR5105": ("Sala Vegas", date(2026, 3, 14), "22:00", 12, 3.0, "booked"),
    "KR5110": ("Sala Tóquio", date(2026, 3, 12), "20:00", 4, 2.0, "cancelled"),
    "KR5114": ("Sala Broadway", date(2026, 3, 10), "23:00", 20, 2.0, "booked"),
}
_next = [5200]

service = DomainService(
    "karaoke",
    "0.1.0",
    {
        "pt": "Karaokê: reservar uma sala privativa, cancelar uma reserva, salas e preços por hora",
        "en": "Karaoke: book a private room, cancel a booking, rooms and hourly prices",
    },
)


def _hours(value: object) -> float | None:
    """ISO 8601 ``PT2H``, ``PT1H30M``, ``PT90M`` -> hours."""
    if not value:
        return None
    m = re.fullmatch(r"P(?:\d+D)?T?(?:(\d+(?:\.\d+)?)H)?(?:(\d+)M)?", str(value).strip().upper())
    if not m or not (m.group(1) or m.group(2)):
        return None
    return float(m.group(1) or 0) + int(m.group(2) or 0) / 60


def _fits(guests: int) -> str | None:
    for room, (_, cap) in ROOM_INFO.items():
        if guests <= cap:
            return room
    return None


def _room_line(lang: str, room: str, hours: float) -> str:
    price, cap = ROOM_INFO[room]
    return say(
        lang,
        f"{room} (até {cap} pessoas, R$ {price:.0f}/h, {hours:g}h R$ {price * hours:.0f})",
        f"{room} (up to {cap} people, R$ {price:.0f}/h, {hours:g}h R$ {price * hours:.0f})",
    )


def _rooms_text(lang: str, hours: float) -> str:
    return "; ".join(_room_line(lang, room, hours) for room in ROOM_INFO)


@service.capability(
    "book_karaoke_room",
    {
        "pt": (
            "Reserva uma sala de karaokê para um grupo num dia e horário"
            " (2 horas quando a duração não é dita)"
        ),
        "en": "Book a karaoke room for a group on a day and time (2 hours when no duration is said)",
    },
    parameters={
        "type": "object",
        "properties": {
            "room_text": {"type": "string", "minLength": 1},
            "day": {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"},
            "time": {"type": "string", "pattern": "^\\d{2}:\\d{2}$"},
            "guests": {"type": "number", "exclusiveMinimum": 0},
            "duration": {"type": "string"},
        },
        "required": ["room_text", "day", "time", "guests"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["karaokê", "karaoke", "sala de karaokê", "karaoke room", "cantar"],
            "examples": ["quero reservar uma sala de karaokê", "book a karaoke room"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def book_karaoke_room(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    said = str(p.get("room_text") or "").strip()
    room = resolve_name(ROOMS, said) if said else None
    if room is None:
        return clarify(
            say(lang, f"Não temos a sala '{said}'. Qual destas?", f"No room '{said}'. Which of these?"),
            [option(r, r, aliases=ROOMS[r][1:4]) for r in ROOMS],
            param="room_text",
        )
    day = read_day(p.get("day"))
    at = hhmm(p.get("time")) if p.get("time") else None
    guests = read_number(p.get("guests"))
    if day is None or at is None or guests is None:
        return fail(
            say(lang, "Faltam dados da reserva.", "Booking details are missing."), "missing_parameter"
        )
    hours = _hours(p.get("duration")) or DEFAULT_HOURS
    n = int(guests)
    price, cap = ROOM_INFO[room]
    if day < today():
        return fail(say(lang, "Esse dia já passou.", "That day is past."), "past_day")
    if n > cap:
        bigger = _fits(n)
        if bigger is None:
            return fail(
                say(lang, "Nossa maior sala comporta 25 pessoas.", "Our largest room holds 25 people."),
                "too_many_guests",
            )
        return fail(
            say(lang, f"A {room} comporta até {cap} pessoas.", f"{room} holds up to {cap} people."),
            "room_too_small",
            recoverable=True,
            suggestions=[{"room_text": bigger}],
        )
    if not (FIRST_START <= at[0] <= LAST_START) or hours > 6:
        return fail(
            say(
                lang,
                "As salas abrem das 18h às 2h; a última entrada é às 23h.",
                "Rooms open from 6pm to 2am; the last start is 11pm.",
            ),
            "outside_hours",
            recoverable=True,
            suggestions=[{"time": "18:00" if at[0] < FIRST_START and at[0] >= 6 else "23:00"}],
        )
    _next[0] += 1
    code = f"KR{_next[0]}"
    when = f"{at[0]:02d}:{at[1]:02d}"
    BOOKINGS[code] = (room, day, when, n, hours, "booked")
    total = price * hours
    return DomainOutput(
        status="success",
        result={
            "code": code,
            "room": room,
            "day": day.isoformat(),
            "time": when,
            "guests": n,
            "hours": hours,
            "total": {"amount": total, "currency": "BRL"},
        },
        explanation=say(
            lang,
            f"Reserva {code}: {room}, {day:%d/%m} às {when}, {hours:g}h, {n} pessoas. Total R$ {total:.2f}.",
            f"Booking {code}: {room}, {day:%b %d} at {when}, {hours:g}h, {n} people. Total R$ {total:.2f}.",
        ),
    )


@service.capability(
    "cancel_karaoke_booking",
    {"pt": "Cancela uma reserva de sala de karaokê", "en": "Cancel a karaoke room booking"},
    parameters={
        "type": "object",
        "properties": {"booking_text": {"type": "string", "minLength": 1}},
        "required": ["booking_text"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["cancelar karaokê", "cancel karaoke"],
            "examples": ["quero cancelar a reserva do karaokê", "cancel my karaoke booking"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def cancel_karaoke_booking(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    code = norm_code(intent.parameters.get("booking_text"))
    booking = BOOKINGS.get(code)
    if booking is None:
        return fail(say(lang, f"Não achei a reserva {code}.", f"No booking {code}."), "not_found")
    room, day, when, n, hours, state = booking
    if state == "cancelled":
        return fail(
            say(lang, f"A reserva {code} já foi cancelada.", f"{code} is already cancelled."),
            "already_cancelled",
        )
    if day <= today():
        return fail(
            say(lang, "Reservas de hoje não podem ser canceladas.", "Same-day bookings cannot be cancelled."),
            "too_late",
        )
    BOOKINGS[code] = (room, day, when, n, hours, "cancelled")
    return DomainOutput(
        status="success",
        result={"code": code, "room": room, "day": day.isoformat(), "state": "cancelled"},
        explanation=say(
            lang,
            f"Reserva {code} ({room}, {day:%d/%m} às {when}) cancelada.",
            f"Booking {code} ({room}, {day:%b %d} at {when}) cancelled.",
        ),
    )


@service.capability(
    "karaoke_price",
    {
        "pt": "Informa as salas de karaokê, quantas pessoas cabem e o preço por hora",
        "en": "Quote the karaoke rooms, how many people fit and the hourly price",
    },
    parameters={
        "type": "object",
        "properties": {
            "room_text": {"type": "string"},
            "guests": {"type": "number"},
            "duration": {"type": "string"},
            "budget": {
                "type": "object",
                "properties": {"amount": {"type": "number"}, "currency": {"type": ["string", "null"]}},
            },
        },
    },
    metadata={
        "intent_hints": {
            "keywords": ["preço do karaokê", "quanto custa o karaokê", "karaoke prices", "karaoke rates"],
            "examples": ["quanto custa a hora do karaokê?", "how much is a karaoke room per hour?"],
        },
        "policy": {"read_only": True},
    },
)
def karaoke_price(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    hours = _hours(p.get("duration")) or DEFAULT_HOURS
    said = p.get("room_text")
    if said:
        room = resolve_name(ROOMS, str(said))
        if room is None:
            return fail(
                say(
                    lang,
                    f"Não temos '{said}'. Salas: {_rooms_text(lang, hours)}.",
                    f"No '{said}'. Rooms: {_rooms_text(lang, hours)}.",
                ),
                "unknown_room",
            )
        price, cap = ROOM_INFO[room]
        return DomainOutput(
            status="success",
            result={"room": room, "price_per_hour": {"amount": price, "currency": "BRL"}, "capacity": cap},
            explanation=say(
                lang,
                f"{room}: até {cap} pessoas, R$ {price:.0f} a hora; {hours:g}h R$ {price * hours:.0f}.",
                f"{room}: up to {cap} people, R$ {price:.0f} an hour; {hours:g}h R$ {price * hours:.0f}.",
            ),
        )
    rooms = list(ROOM_INFO)
    guests = read_number(p.get("guests"))
    if guests is not None:
        rooms = [r for r in rooms if ROOM_INFO[r][1] >= int(guests)]
    budget = p.get("budget")
    if isinstance(budget, dict) and budget.get("amount") is not None:
        currency = budget.get("currency")
        if currency not in (None, "BRL"):
            return fail(
                say(lang, "Só trabalhamos em reais.", "We only work in reais."),
                "unsupported_currency",
                recoverable=True,
            )
        limit = float(budget["amount"])
        rooms = [r for r in rooms if ROOM_INFO[r][0] * hours <= limit]
    if not rooms:
        return DomainOutput(
            status="success",
            result={"rooms": []},
            explanation=say(
                lang,
                f"Nenhuma sala cabe nisso. Salas: {_rooms_text(lang, hours)}.",
                f"No room fits that. Rooms: {_rooms_text(lang, hours)}.",
            ),
        )
    text = "; ".join(_room_line(lang, r, hours) for r in rooms)
    return DomainOutput(
        status="success",
        result={"rooms": rooms, "hours": hours},
        explanation=say(lang, f"Salas: {text}.", f"Rooms: {text}."),
    )


_ROOM = {
    "type": "string",
    "lookup": table(ROOMS),
    "description": {"pt": "A sala", "en": "The room"},
}
service.add_goal(
    {
        "goal": "BOOK_KARAOKE_ROOM",
        "description": {"pt": "Reservar uma sala de karaokê", "en": "Book a karaoke room"},
        "entities_schema": {
            "room_text": {**_ROOM, "required": True},
            "day": {"type": "date", "required": True, "description": {"pt": "O dia", "en": "The day"}},
            "time": {"type": "time", "required": True, "description": {"pt": "O horário", "en": "The time"}},
            "guests": {
                "type": "number",
                "required": True,
                "description": {"pt": "Quantas pessoas", "en": "How many people"},
            },
            "duration": {
                "type": "duration",
                "description": {"pt": "Por quanto tempo", "en": "For how long"},
            },
        },
        "capabilities": ["book_karaoke_room"],
        "examples": [
            ex(
                "reserva a sala seul pra 8 pessoas sexta às 21h",
                room_text="sala seul",
                guests="8 pessoas",
                day="sexta",
                time="às 21h",
            ),
            ex(
                "quero a sala vegas sábado 22h por 3 horas, 12 pessoas",
                room_text="sala vegas",
                day="sábado",
                time="22h",
                duration="3 horas",
                guests="12 pessoas",
            ),
            ex(
                "karaokê na tóquio amanhã às 20h pra 4 amigos",
                room_text="tóquio",
                day="amanhã",
                time="às 20h",
                guests="4 amigos",
            ),
            ex(
                "book the vip room for 20 people on friday at 10pm",
                room_text="vip room",
                guests="20 people",
                day="friday",
                time="at 10pm",
            ),
            ex(
                "can we get the tokyo room tomorrow at 8pm for 2 hours, 5 of us",
                room_text="tokyo room",
                day="tomorrow",
                time="at 8pm",
                duration="2 hours",
                guests="5",
            ),
        ],
    }
)
service.add_goal(
    {
        "goal": "CANCEL_KARAOKE_BOOKING",
        "description": {"pt": "Cancelar uma reserva de karaokê", "en": "Cancel a karaoke booking"},
        "entities_schema": {
            "booking_text": {
                "type": "string",
                "required": True,
                "description": {"pt": "O código da reserva", "en": "The booking code"},
            }
        },
        "capabilities": ["cancel_karaoke_booking"],
        "examples": [
            ex("cancela a reserva do karaokê KR5101", booking_text="KR5101"),
            ex("quero cancelar a sala KR5105", booking_text="KR5105"),
            ex("cancel karaoke booking KR5101", booking_text="KR5101"),
            ex("please cancel our karaoke room KR5105", booking_text="KR5105"),
        ],
    }
)
service.add_goal(
    {
        "goal": "KARAOKE_PRICE",
        "description": {
            "pt": "As salas de karaokê e o preço por hora",
            "en": "The karaoke rooms and their hourly price",
        },
        "entities_schema": {
            "room_text": _ROOM,
            "guests": {"type": "number", "description": {"pt": "Quantas pessoas", "en": "How many people"}},
            "duration": {"type": "duration", "description": {"pt": "Por quanto tempo", "en": "For how long"}},
            "budget": {
                "type": "money",
                "description": {"pt": "Quanto quer gastar no total", "en": "Your total budget"},
            },
        },
        "capabilities": ["karaoke_price"],
        "examples": [
            "quanto custa a hora do karaokê?",
            ex("qual o preço da sala broadway?", room_text="sala broadway"),
            ex(
                "tem sala de karaokê pra 10 pessoas até 300 reais?",
                guests="10 pessoas",
                budget="300 reais",
            ),
            "karaoke room prices",
            ex("how much is the seoul room for 3 hours?", room_text="seoul room", duration="3 hours"),
            ex(
                "karaoke for 15 people under R$ 400, what are the options?",
                guests="15 people",
                budget="R$ 400",
            ),
        ],
    }
)

if __name__ == "__main__":
    serve(service)
