"""Bowling alley (round-20 bench domain): book lanes for a group on a day and time (shoe rental
optional), cancel a lane booking by its code, quote prices and say the opening hours.

Fake, deterministic, in memory.
Run: ``python -m bench.understanding.round20.domains.bowling --port 8931``.
"""

from __future__ import annotations

from datetime import date

from bench.understanding.round20.domains._common import (
    ex,
    hhmm,
    language,
    norm_code,
    read_day,
    read_number,
    say,
    today,
)
from sdk.service import DomainService, fail, serve
from shared.models import DomainOutput, ExecutionIntent

#: price of a lane per hour (BRL): weekdays, Friday to Sunday
LANE_PRICE = (90.0, 130.0)
#: shoe rental per player (BRL)
SHOES = 12.0
#: players per lane
PER_LANE = 6
#: opening hours per weekday (0 = Monday): (open, close); Monday closed
HOURS: dict[int, tuple[int, int] | None] = {
    0: None,
    1: (14, 23),
    2: (14, 23),
    3: (14, 23),
    4: (14, 26),
    5: (11, 26),
    6: (11, 22),
}
#: bookings (code -> day, time, players, shoes, state)
BOOKINGS: dict[str, tuple[date, str, int, bool, str]] = {
    "BL3101": (date(2026, 3, 13), "20:00", 6, True, "booked"),
    "BL3105": (date(2026, 3, 14), "15:00", 10, False, "booked"),
    "BL3110": (date(2026, 3, 12), "19:00", 4, True, "cancelled"),
    "BL3114": (date(2026, 3, 10), "21:00", 5, False, "booked"),
}
_next = [3200]
WEEKDAYS_PT = ["segunda", "terça", "quarta", "quinta", "sexta", "sábado", "domingo"]
WEEKDAYS_EN = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]

service = DomainService(
    "bowling",
    "0.1.0",
    {
        "pt": "Boliche: reservar pistas, cancelar uma reserva, preços e horário de funcionamento",
        "en": "Bowling alley: book lanes, cancel a booking, prices and opening hours",
    },
)


def _lanes(players: int) -> int:
    return max(1, -(-players // PER_LANE))


def _hours_text(lang: str) -> str:
    parts = []
    for wd, span in HOURS.items():
        name = say(lang, WEEKDAYS_PT[wd], WEEKDAYS_EN[wd])
        if span is None:
            parts.append(say(lang, f"{name} fechado", f"{name} closed"))
        else:
            parts.append(f"{name} {span[0]:02d}h–{span[1] % 24:02d}h")
    return ", ".join(parts)


@service.capability(
    "book_bowling_lane",
    {
        "pt": (
            "Reserva pistas de boliche por 1 hora num dia e horário para um número de jogadores"
            " (até 6 por pista); aluguel de sapatos opcional"
        ),
        "en": (
            "Book bowling lanes for 1 hour on a day and time for a number of players"
            " (up to 6 a lane); shoe rental optional"
        ),
    },
    parameters={
        "type": "object",
        "properties": {
            "day": {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"},
            "time": {"type": "string", "pattern": "^\\d{2}:\\d{2}$"},
            "players": {"type": "number", "exclusiveMinimum": 0},
            "shoes": {"type": "boolean"},
        },
        "required": ["day", "time", "players"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["boliche", "pista de boliche", "bowling", "bowling lane", "jogar boliche"],
            "examples": ["quero reservar uma pista de boliche", "book a bowling lane"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def book_bowling_lane(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    day = read_day(p.get("day"))
    at = hhmm(p.get("time")) if p.get("time") else None
    players = read_number(p.get("players"))
    if day is None or at is None or players is None:
        return fail(
            say(lang, "Faltam dados da reserva.", "Booking details are missing."), "missing_parameter"
        )
    if day < today():
        return fail(say(lang, "Esse dia já passou.", "That day is past."), "past_day")
    n = int(players)
    if n > 30:
        return fail(
            say(lang, "Para mais de 30 jogadores, fale com eventos.", "Over 30 players is an event booking."),
            "too_many_players",
        )
    span = HOURS[day.weekday()]
    if span is None:
        return fail(
            say(lang, "Às segundas estamos fechados.", "We are closed on Mondays."),
            "closed_day",
            recoverable=True,
            suggestions=[{"day": date.fromordinal(day.toordinal() + 1).isoformat()}],
        )
    start = at[0] if at[0] >= 6 else at[0] + 24
    if not (span[0] <= start <= span[1] - 1):
        return fail(
            say(
                lang,
                f"Nesse dia abrimos das {span[0]}h às {span[1] % 24}h.",
                f"That day we open {span[0]}:00 to {span[1] % 24}:00.",
            ),
            "outside_hours",
            recoverable=True,
            suggestions=[
                {"time": f"{span[0]:02d}:00" if start < span[0] else f"{(span[1] - 1) % 24:02d}:00"}
            ],
        )
    shoes = bool(p.get("shoes"))
    lanes = _lanes(n)
    price = LANE_PRICE[1 if day.weekday() >= 4 else 0] * lanes + (SHOES * n if shoes else 0)
    _next[0] += 1
    code = f"BL{_next[0]}"
    when = f"{at[0]:02d}:{at[1]:02d}"
    BOOKINGS[code] = (day, when, n, shoes, "booked")
    return DomainOutput(
        status="success",
        result={
            "code": code,
            "day": day.isoformat(),
            "time": when,
            "players": n,
            "lanes": lanes,
            "shoes": shoes,
            "total": {"amount": price, "currency": "BRL"},
        },
        explanation=say(
            lang,
            f"Reserva {code}: {lanes} pista(s), {day:%d/%m} às {when}, {n} jogadores"
            f"{', com sapatos' if shoes else ''}. Total R$ {price:.2f}.",
            f"Booking {code}: {lanes} lane(s), {day:%b %d} at {when}, {n} players"
            f"{', shoes included' if shoes else ''}. Total R$ {price:.2f}.",
        ),
    )


@service.capability(
    "cancel_bowling_booking",
    {"pt": "Cancela uma reserva de pista de boliche", "en": "Cancel a bowling lane booking"},
    parameters={
        "type": "object",
        "properties": {"booking_text": {"type": "string", "minLength": 1}},
        "required": ["booking_text"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["cancelar boliche", "cancel bowling"],
            "examples": ["quero cancelar a reserva do boliche", "cancel my bowling booking"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def cancel_bowling_booking(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    code = norm_code(intent.parameters.get("booking_text"))
    booking = BOOKINGS.get(code)
    if booking is None:
        return fail(say(lang, f"Não achei a reserva {code}.", f"No booking {code}."), "not_found")
    day, when, n, shoes, state = booking
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
    BOOKINGS[code] = (day, when, n, shoes, "cancelled")
    return DomainOutput(
        status="success",
        result={"code": code, "day": day.isoformat(), "state": "cancelled"},
        explanation=say(
            lang,
            f"Reserva {code} ({day:%d/%m} às {when}) cancelada.",
            f"Booking {code} ({day:%b %d} at {when}) cancelled.",
        ),
    )


@service.capability(
    "bowling_price",
    {
        "pt": "Informa o preço da pista por hora (dia de semana ou fim de semana) e do aluguel de sapatos",
        "en": "Quote the lane price per hour (weekday or weekend) and the shoe rental",
    },
    parameters={
        "type": "object",
        "properties": {
            "players": {"type": "number"},
            "day": {"type": "string"},
            "shoes": {"type": "boolean"},
        },
    },
    metadata={
        "intent_hints": {
            "keywords": ["preço do boliche", "quanto custa o boliche", "bowling prices"],
            "examples": ["quanto custa a pista de boliche?", "how much is a bowling lane?"],
        },
        "policy": {"read_only": True},
    },
)
def bowling_price(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    day = read_day(p.get("day")) if p.get("day") else None
    players = read_number(p.get("players"))
    weekday, weekend = LANE_PRICE
    if players is None:
        return DomainOutput(
            status="success",
            result={"weekday": weekday, "weekend": weekend, "shoes": SHOES},
            explanation=say(
                lang,
                f"Pista por hora: R$ {weekday:.0f} (ter–qui), R$ {weekend:.0f} (sex–dom)."
                f" Sapatos R$ {SHOES:.0f}.",
                f"A lane per hour: R$ {weekday:.0f} (Tue–Thu), R$ {weekend:.0f} (Fri–Sun)."
                f" Shoes R$ {SHOES:.0f}.",
            ),
        )
    n = int(players)
    rate = LANE_PRICE[1 if day is not None and day.weekday() >= 4 else 0]
    total = rate * _lanes(n) + (SHOES * n if p.get("shoes") else 0)
    return DomainOutput(
        status="success",
        result={"players": n, "lanes": _lanes(n), "total": {"amount": total, "currency": "BRL"}},
        explanation=say(
            lang,
            f"{n} jogadores: {_lanes(n)} pista(s), R$ {total:.0f} a hora.",
            f"{n} players: {_lanes(n)} lane(s), R$ {total:.0f} an hour.",
        ),
    )


@service.capability(
    "bowling_hours",
    {"pt": "Informa o horário de funcionamento do boliche", "en": "Say the bowling alley's opening hours"},
    parameters={"type": "object", "properties": {"day": {"type": "string"}}},
    metadata={
        "intent_hints": {
            "keywords": ["horário do boliche", "boliche abre", "bowling hours", "bowling open"],
            "examples": ["que horas abre o boliche?", "when does the bowling alley open?"],
        },
        "policy": {"read_only": True},
    },
)
def bowling_hours(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    day = read_day(intent.parameters.get("day")) if intent.parameters.get("day") else None
    if day is None:
        return DomainOutput(
            status="success",
            result={"hours": {WEEKDAYS_EN[k]: v for k, v in HOURS.items()}},
            explanation=say(lang, f"Horários: {_hours_text(lang)}.", f"Hours: {_hours_text(lang)}."),
        )
    span = HOURS[day.weekday()]
    if span is None:
        text = say(lang, f"{day:%d/%m} é segunda: fechado.", f"{day:%b %d} is a Monday: closed.")
    else:
        text = say(
            lang,
            f"{day:%d/%m}: das {span[0]}h às {span[1] % 24}h.",
            f"{day:%b %d}: {span[0]}:00 to {span[1] % 24}:00.",
        )
    return DomainOutput(status="success", result={"day": day.isoformat(), "hours": span}, explanation=text)


_DAY = {"type": "date", "description": {"pt": "O dia", "en": "The day"}}
_PLAYERS = {"type": "number", "description": {"pt": "Quantos jogadores", "en": "How many players"}}
_SHOES = {
    "type": "boolean",
    "description": {"pt": "Alugar sapatos de boliche", "en": "Rent bowling shoes"},
    "synonyms": {
        "true": [
            "com sapato",
            "com sapatos",
            "aluguel de sapato",
            "alugar sapato",
            "alugar sapatos",
            "with shoes",
            "shoe rental",
            "rent shoes",
            "rental shoes",
        ]
    },
}
service.add_goal(
    {
        "goal": "BOOK_BOWLING_LANE",
        "description": {"pt": "Reservar pista de boliche", "en": "Book a bowling lane"},
        "entities_schema": {
            "day": {**_DAY, "required": True},
            "time": {"type": "time", "required": True, "description": {"pt": "O horário", "en": "The time"}},
            "players": {**_PLAYERS, "required": True},
            "shoes": _SHOES,
        },
        "capabilities": ["book_bowling_lane"],
        "examples": [
            ex(
                "reserva uma pista de boliche sexta às 20h pra 6 pessoas",
                day="sexta",
                time="às 20h",
                players="6 pessoas",
            ),
            ex(
                "quero jogar boliche sábado 15h com 10 amigos, com sapatos",
                day="sábado",
                time="15h",
                players="10 amigos",
                shoes=True,
            ),
            ex("pista de boliche amanhã às 19h pra 4", day="amanhã", time="às 19h", players="4"),
            ex(
                "book a bowling lane for 5 players on friday at 8pm",
                players="5 players",
                day="friday",
                time="at 8pm",
            ),
            ex(
                "we want to bowl tomorrow at 7pm, 8 people, with shoe rental",
                day="tomorrow",
                time="at 7pm",
                players="8 people",
                shoes=True,
            ),
        ],
    }
)
service.add_goal(
    {
        "goal": "CANCEL_BOWLING_BOOKING",
        "description": {"pt": "Cancelar uma reserva de boliche", "en": "Cancel a bowling booking"},
        "entities_schema": {
            "booking_text": {
                "type": "string",
                "required": True,
                "description": {"pt": "O código da reserva", "en": "The booking code"},
            }
        },
        "capabilities": ["cancel_bowling_booking"],
        "examples": [
            ex("cancela a reserva do boliche BL3101", booking_text="BL3101"),
            ex("quero cancelar a pista BL3105", booking_text="BL3105"),
            ex("cancel bowling booking BL3101", booking_text="BL3101"),
            ex("please cancel our bowling lane BL3105", booking_text="BL3105"),
        ],
    }
)
service.add_goal(
    {
        "goal": "BOWLING_PRICE",
        "description": {
            "pt": "Preço da pista de boliche e dos sapatos",
            "en": "Bowling lane and shoe prices",
        },
        "entities_schema": {"players": _PLAYERS, "day": _DAY, "shoes": _SHOES},
        "capabilities": ["bowling_price"],
        "examples": [
            "quanto custa a hora da pista de boliche?",
            ex("qual o preço do boliche pra 8 pessoas no sábado?", players="8 pessoas", day="sábado"),
            "bowling lane prices",
            ex("how much is bowling for 4 players with shoe rental?", players="4 players", shoes=True),
        ],
    }
)
service.add_goal(
    {
        "goal": "BOWLING_HOURS",
        "description": {"pt": "Horário de funcionamento do boliche", "en": "Bowling alley opening hours"},
        "entities_schema": {"day": _DAY},
        "capabilities": ["bowling_hours"],
        "examples": [
            "qual o horário de funcionamento do boliche?",
            ex("o boliche abre domingo?", day="domingo"),
            "what are the bowling alley's opening hours?",
            ex("is the bowling alley open on thursday?", day="thursday"),
        ],
    }
)

if __name__ == "__main__":
    serve(service)
