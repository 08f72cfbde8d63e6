"""Escape room (round-18 bench domain): book a room for a number of players on a day and time,
cancel a booking by its code, and list the rooms and their prices.

Fake, deterministic, in memory.
Run: ``python -m bench.understanding.round18.domains.escape_room --port 8911``.
"""

from __future__ import annotations

from datetime import date

from bench.understanding.round18.domains._common import (
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
    "Tumba do Faraó": [
        "tumba do faraó",
        "tumba do farao",
        "faraó",
        "farao",
        "sala do faraó",
        "egito",
        "pharaoh",
        "pharaoh's tomb",
        "pharaohs tomb",
        "the tomb",
    ],
    "Laboratório Zumbi": [
        "laboratório zumbi",
        "laboratorio zumbi",
        "zumbi",
        "zumbis",
        "sala do zumbi",
        "zombie lab",
        "zombie",
        "zombies",
    ],
    "Assalto ao Banco": ["assalto ao banco", "assalto", "sala do banco", "bank heist", "heist", "the heist"],
    "Mansão Assombrada": [
        "mansão assombrada",
        "mansao assombrada",
        "mansão",
        "mansao",
        "casa assombrada",
        "haunted mansion",
        "haunted house",
        "mansion",
    ],
}
#: room -> (price per player in BRL, min players, max players, difficulty pt, difficulty en)
ROOM_INFO: dict[str, tuple[float, int, int, str, str]] = {
    "Tumba do Faraó": (70.0, 2, 6, "média", "medium"),
    "Laboratório Zumbi": (80.0, 3, 8, "difícil", "hard"),
    "Assalto ao Banco": (75.0, 2, 6, "difícil", "hard"),
    "Mansão Assombrada": (65.0, 2, 5, "fácil", "easy"),
}
OPEN_HOUR, LAST_HOUR = 12, 22
#: bookings (code -> room, day, time, players, state)
BOOKINGS: dict[str, tuple[str, date, str, int, str]] = {
    "ER3101": ("Tumba do Faraó", date(2026, 3, 13), "19:00", 4, "booked"),
    "ER3105": ("Laboratório Zumbi", date(2026, 3, 14), "16:00", 6, "booked"),
    "ER3110": ("Assalto ao Banco", date(2026, 3, 12), "20:00", 3, "cancelled"),
    "ER3114": ("Mansão Assombrada", date(2026, 3, 10), "18:00", 2, "booked"),
}
_next = [3200]

service = DomainService(
    "escape_room",
    "0.1.0",
    {
        "pt": "Escape room: reservar uma sala para um grupo, cancelar uma reserva, salas e preços",
        "en": "Escape room: book a room for a group, cancel a booking, rooms and prices",
    },
)


def _rooms_text(lang: str) -> str:
    parts = []
    for room, (price, lo, hi, d_pt, d_en) in ROOM_INFO.items():
        parts.append(
            say(
                lang,
                f"{room} (R$ {price:.0f} por pessoa, {lo} a {hi} jogadores, {d_pt})",
                f"{room} (R$ {price:.0f} per player, {lo} to {hi} players, {d_en})",
            )
        )
    return "; ".join(parts)


@service.capability(
    "book_escape_room",
    {
        "pt": "Reserva uma sala de escape room para um grupo num dia e horário",
        "en": "Book an escape room for a group on a day and time",
    },
    parameters={
        "type": "object",
        "properties": {
            "room_text": {"type": "string", "minLength": 1},
            "players": {"type": "number", "exclusiveMinimum": 0},
            "day": {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"},
            "time": {"type": "string", "pattern": "^\\d{2}:\\d{2}$"},
        },
        "required": ["room_text", "players", "day", "time"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["escape room", "sala de fuga", "reservar sala", "book a room"],
            "examples": ["quero reservar um escape room", "I want to book an escape room"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def book_escape_room(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    said = str(p.get("room_text") or "").strip()
    room = resolve_name(ROOMS, said) if said else None
    if room is None:
        return clarify(
            say(lang, f"Não temos a sala '{said}'. Qual destas?", f"No room '{said}'. Which of these?"),
            [option(r, r) for r in ROOMS],
            param="room_text",
        )
    players = read_number(p.get("players"))
    day = read_day(p.get("day"))
    at = hhmm(p.get("time")) if p.get("time") else None
    if players is None or day is None or at is None:
        return fail(
            say(lang, "Faltam dados da reserva.", "Booking details are missing."), "missing_parameter"
        )
    price, lo, hi, _, _ = ROOM_INFO[room]
    n = int(players)
    if n < lo:
        return fail(
            say(
                lang,
                f"A {room} precisa de pelo menos {lo} jogadores.",
                f"{room} needs at least {lo} players.",
            ),
            "too_few_players",
            recoverable=True,
            suggestions=[{"players": lo}],
        )
    if n > hi:
        return fail(
            say(lang, f"A {room} comporta no máximo {hi} jogadores.", f"{room} holds at most {hi} players."),
            "too_many_players",
        )
    if day < today():
        return fail(say(lang, "Esse dia já passou.", "That day is past."), "past_day")
    if not (OPEN_HOUR <= at[0] <= LAST_HOUR - 1):
        return fail(
            say(
                lang,
                "As sessões começam entre 12h e 21h.",
                "Sessions start between 12pm and 9pm.",
            ),
            "outside_hours",
            recoverable=True,
            suggestions=[{"time": "12:00" if at[0] < OPEN_HOUR else "21:00"}],
        )
    _next[0] += 1
    code = f"ER{_next[0]}"
    when = f"{at[0]:02d}:{at[1]:02d}"
    BOOKINGS[code] = (room, day, when, n, "booked")
    total = price * n
    return DomainOutput(
        status="success",
        result={
            "code": code,
            "room": room,
            "day": day.isoformat(),
            "time": when,
            "players": n,
            "total": {"amount": total, "currency": "BRL"},
        },
        explanation=say(
            lang,
            f"Reserva {code}: {room}, {day:%d/%m} às {when}, {n} jogadores. Total R$ {total:.2f}.",
            f"Booking {code}: {room}, {day:%b %d} at {when}, {n} players. Total R$ {total:.2f}.",
        ),
    )


@service.capability(
    "cancel_escape_booking",
    {"pt": "Cancela uma reserva de escape room", "en": "Cancel an escape room booking"},
    parameters={
        "type": "object",
        "properties": {"booking_text": {"type": "string", "minLength": 1}},
        "required": ["booking_text"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["cancelar reserva do escape", "cancel escape room booking"],
            "examples": ["quero cancelar minha reserva do escape room", "cancel my escape room booking"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def cancel_escape_booking(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    code = norm_code(intent.parameters.get("booking_text"))
    booking = BOOKINGS.get(code)
    if booking is None:
        return fail(say(lang, f"Não achei a reserva {code}.", f"No booking {code}."), "not_found")
    room, day, when, n, state = booking
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
    BOOKINGS[code] = (room, day, when, n, "cancelled")
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
    "escape_room_info",
    {
        "pt": "Lista as salas de escape room com preços, jogadores e dificuldade",
        "en": "List the escape rooms with prices, players and difficulty",
    },
    parameters={"type": "object", "properties": {"room_text": {"type": "string"}}},
    metadata={
        "intent_hints": {
            "keywords": ["salas do escape", "preço do escape room", "escape room prices", "which rooms"],
            "examples": ["quais salas vocês têm?", "what rooms do you have?"],
        },
        "policy": {"read_only": True},
    },
)
def escape_room_info(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    said = intent.parameters.get("room_text")
    if said:
        room = resolve_name(ROOMS, str(said))
        if room is None:
            return fail(
                say(
                    lang,
                    f"Não temos '{said}'. Salas: {_rooms_text(lang)}.",
                    f"No '{said}'. Rooms: {_rooms_text(lang)}.",
                ),
                "unknown_room",
            )
        price, lo, hi, d_pt, d_en = ROOM_INFO[room]
        return DomainOutput(
            status="success",
            result={
                "room": room,
                "price_per_player": {"amount": price, "currency": "BRL"},
                "min": lo,
                "max": hi,
            },
            explanation=say(
                lang,
                f"{room}: R$ {price:.0f} por pessoa, {lo} a {hi} jogadores, dificuldade {d_pt}.",
                f"{room}: R$ {price:.0f} per player, {lo} to {hi} players, {d_en}.",
            ),
        )
    return DomainOutput(
        status="success",
        result={"rooms": list(ROOMS)},
        explanation=say(lang, f"Salas: {_rooms_text(lang)}.", f"Rooms: {_rooms_text(lang)}."),
    )


service.add_goal(
    {
        "goal": "BOOK_ESCAPE_ROOM",
        "description": {"pt": "Reservar uma sala de escape room", "en": "Book an escape room"},
        "entities_schema": {
            "room_text": {
                "type": "string",
                "required": True,
                "lookup": table(ROOMS),
                "description": {"pt": "A sala", "en": "The room"},
            },
            "players": {
                "type": "number",
                "required": True,
                "description": {"pt": "Quantos jogadores", "en": "How many players"},
            },
            "day": {"type": "date", "required": True, "description": {"pt": "O dia", "en": "The day"}},
            "time": {"type": "time", "required": True, "description": {"pt": "O horário", "en": "The time"}},
        },
        "capabilities": ["book_escape_room"],
        "examples": [
            ex(
                "reserva a tumba do faraó pra 4 pessoas sexta às 19h",
                room_text="tumba do faraó",
                players="4 pessoas",
                day="sexta",
                time="às 19h",
            ),
            ex(
                "quero jogar o laboratório zumbi com 6 amigos sábado 16h",
                room_text="laboratório zumbi",
                players="6 amigos",
                day="sábado",
                time="16h",
            ),
            ex(
                "agendar assalto ao banco para 3 jogadores amanhã às 20h",
                room_text="assalto ao banco",
                players="3 jogadores",
                day="amanhã",
                time="às 20h",
            ),
            ex(
                "book the haunted mansion for 5 players on Friday at 7pm",
                room_text="haunted mansion",
                players="5 players",
                day="Friday",
                time="at 7pm",
            ),
            ex(
                "can we do the bank heist tomorrow at 6pm, we're 4 people",
                room_text="bank heist",
                day="tomorrow",
                time="at 6pm",
                players="4 people",
            ),
        ],
    }
)
service.add_goal(
    {
        "goal": "CANCEL_ESCAPE_BOOKING",
        "description": {"pt": "Cancelar uma reserva de escape room", "en": "Cancel an escape room booking"},
        "entities_schema": {
            "booking_text": {
                "type": "string",
                "required": True,
                "description": {"pt": "O código da reserva", "en": "The booking code"},
            }
        },
        "capabilities": ["cancel_escape_booking"],
        "examples": [
            ex("cancela a reserva ER3101", booking_text="ER3101"),
            ex("quero cancelar a reserva do escape ER3105", booking_text="ER3105"),
            ex("cancel escape room booking ER3101", booking_text="ER3101"),
            ex("please cancel my room booking ER3105", booking_text="ER3105"),
        ],
    }
)
service.add_goal(
    {
        "goal": "ESCAPE_ROOM_INFO",
        "description": {
            "pt": "As salas de escape room e seus preços",
            "en": "The escape rooms and their prices",
        },
        "entities_schema": {
            "room_text": {
                "type": "string",
                "lookup": table(ROOMS),
                "description": {"pt": "A sala", "en": "The room"},
            }
        },
        "capabilities": ["escape_room_info"],
        "examples": [
            "quais salas de escape vocês têm?",
            ex("quanto custa a mansão assombrada?", room_text="mansão assombrada"),
            "preço das salas de escape room",
            "what escape rooms do you have?",
            ex("how hard is the zombie lab?", room_text="zombie lab"),
            "escape room prices per person",
        ],
    }
)

if __name__ == "__main__":
    serve(service)
