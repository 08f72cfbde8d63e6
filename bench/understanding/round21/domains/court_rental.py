"""Tennis and padel court rental (round-21 bench domain): book a court at one of the club's
units for a sport, day, time and duration, cancel a booking by its code, say the opening hours
and quote prices. The units are a lookup table.

Fake, deterministic, in memory.
Run: ``python -m bench.understanding.round21.domains.court_rental --port 8943``.
"""

from __future__ import annotations

import re
from datetime import date

from bench.understanding.round21.domains._common import (
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

#: the club's units (canonical -> aliases); Jardins when none is said
UNITS: dict[str, list[str]] = {
    "Jardins": ["unidade jardins", "clube jardins", "jardim paulista", "paulista"],
    "Morumbi": ["unidade morumbi", "clube morumbi", "morumbi"],
    "Alphaville": ["unidade alphaville", "clube alphaville", "alpha"],
    "Moema": ["unidade moema", "clube moema", "ibirapuera"],
}
DEFAULT_UNIT = "Jardins"
#: sports each unit has
SPORTS_AT = {
    "Jardins": {"TENNIS", "PADEL"},
    "Morumbi": {"TENNIS", "PADEL"},
    "Alphaville": {"TENNIS"},
    "Moema": {"PADEL"},
}
#: price per hour (BRL); from 18:00 a court costs 25% more
HOURLY = {"TENNIS": 80.0, "PADEL": 120.0}
PEAK_FROM, PEAK = 18, 1.25
#: opening hours: weekdays and weekends (open, close)
WEEKDAY_HOURS, WEEKEND_HOURS = (7, 23), (8, 20)
SPORT_PT = {"TENNIS": "tênis", "PADEL": "padel"}
SPORT_EN = {"TENNIS": "tennis", "PADEL": "padel"}
#: bookings (code -> unit, sport, day, time, minutes, state)
BOOKINGS: dict[str, tuple[str, str, date, str, int, str]] = {
    "QD5101": ("Jardins", "TENNIS", date(2026, 3, 13), "18:00", 60, "booked"),
    "QD5105": ("Morumbi", "PADEL", date(2026, 3, 14), "10:00", 90, "booked"),
    "QD5110": ("Moema", "PADEL", date(2026, 3, 12), "19:00", 60, "cancelled"),
    "QD5114": ("Jardins", "TENNIS", date(2026, 3, 10), "20:00", 60, "booked"),
}
_next = [5200]

service = DomainService(
    "court_rental",
    "0.1.0",
    {
        "pt": "Aluguel de quadras de tênis e padel do clube: reservar, cancelar, horários e preços",
        "en": "Tennis and padel court rental at the club: book, cancel, opening hours and prices",
    },
)


def _minutes(value: object) -> int | None:
    """An ISO 8601 duration (``PT1H30M``, what a `duration` entity carries) in minutes."""
    m = re.fullmatch(r"P(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+)M)?)", str(value or "").strip().upper())
    if not m or not (m.group(1) or m.group(2)):
        return None
    return int(float(m.group(1) or 0) * 60) + int(m.group(2) or 0)


def _hours(day: date) -> tuple[int, int]:
    return WEEKEND_HOURS if day.weekday() >= 5 else WEEKDAY_HOURS


def _units_clarify(lang: str, said: str) -> DomainOutput:
    return clarify(
        say(
            lang,
            f"Não conheço a unidade '{said}'. Qual delas?",
            f"I don't know the '{said}' unit. Which one?",
        ),
        [option(u, u, aliases=aliases) for u, aliases in UNITS.items()],
        param="club_text",
        metadata={"resolution": "unknown_unit"},
    )


@service.capability(
    "book_court",
    {
        "pt": "Reserva uma quadra de tênis ou padel num dia e horário (1 hora quando a duração não é"
        " dita, na unidade Jardins quando a unidade não é dita)",
        "en": "Book a tennis or padel court on a day and time (1 hour when no duration is said, at the"
        " Jardins unit when no unit is said)",
    },
    parameters={
        "type": "object",
        "properties": {
            "sport": {"type": "string", "enum": ["TENNIS", "PADEL"]},
            "day": {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"},
            "time": {"type": "string", "pattern": "^\\d{2}:\\d{2}$"},
            "duration": {"type": "string"},
            "players": {"type": "number"},
            "club_text": {"type": "string"},
        },
        "required": ["sport", "day", "time"],
    },
    metadata={
        "intent_hints": {
            "keywords": [
                "quadra de tênis",
                "quadra de padel",
                "tennis court",
                "padel court",
                "alugar quadra",
            ],
            "examples": ["quero alugar uma quadra de tênis", "book a padel court"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def book_court(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    sport = str(p.get("sport") or "").upper()
    day = read_day(p.get("day"))
    at = hhmm(p.get("time")) if p.get("time") else None
    if sport not in HOURLY or day is None or at is None:
        return fail(
            say(lang, "Faltam dados da reserva.", "Booking details are missing."), "missing_parameter"
        )
    said = str(p.get("club_text") or "").strip()
    unit = resolve_name(UNITS, said) if said else DEFAULT_UNIT
    if unit is None:
        return _units_clarify(lang, said)
    if sport not in SPORTS_AT[unit]:
        other = next(u for u, s in SPORTS_AT.items() if sport in s)
        return fail(
            say(
                lang,
                f"A unidade {unit} não tem quadra de {SPORT_PT[sport]}.",
                f"{unit} has no {SPORT_EN[sport]} court.",
            ),
            "no_such_court",
            recoverable=True,
            suggestions=[{"club_text": other}],
        )
    if day < today():
        return fail(say(lang, "Esse dia já passou.", "That day is past."), "past_day")
    minutes = _minutes(p.get("duration")) or 60
    if minutes > 180:
        return fail(
            say(lang, "Reservamos no máximo 3 horas seguidas.", "At most 3 hours in a row."),
            "too_long",
            recoverable=True,
            suggestions=[{"duration": "PT3H"}],
        )
    opens, closes = _hours(day)
    start = at[0] * 60 + at[1]
    if start < opens * 60 or start + minutes > closes * 60:
        return fail(
            say(
                lang,
                f"Nesse dia abrimos das {opens}h às {closes}h.",
                f"That day we open {opens}:00 to {closes}:00.",
            ),
            "outside_hours",
            recoverable=True,
            suggestions=[{"time": f"{opens:02d}:00" if start < opens * 60 else f"{closes - 1:02d}:00"}],
        )
    rate = HOURLY[sport] * (PEAK if at[0] >= PEAK_FROM else 1.0)
    price = round(rate * minutes / 60, 2)
    _next[0] += 1
    code = f"QD{_next[0]}"
    when = f"{at[0]:02d}:{at[1]:02d}"
    BOOKINGS[code] = (unit, sport, day, when, minutes, "booked")
    players = read_number(p.get("players"))
    return DomainOutput(
        status="success",
        result={
            "code": code,
            "unit": unit,
            "sport": sport,
            "day": day.isoformat(),
            "time": when,
            "minutes": minutes,
            "players": players,
            "total": {"amount": price, "currency": "BRL"},
        },
        explanation=say(
            lang,
            f"Reserva {code}: quadra de {SPORT_PT[sport]} na unidade {unit}, {day:%d/%m} às {when},"
            f" {minutes} min. Total R$ {price:.2f}.",
            f"Booking {code}: {SPORT_EN[sport]} court at {unit}, {day:%b %d} at {when}, {minutes} min."
            f" Total R$ {price:.2f}.",
        ),
    )


@service.capability(
    "cancel_court_booking",
    {"pt": "Cancela uma reserva de quadra", "en": "Cancel a court booking"},
    parameters={
        "type": "object",
        "properties": {"booking_text": {"type": "string", "minLength": 1}},
        "required": ["booking_text"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["cancelar quadra", "cancel court"],
            "examples": ["quero cancelar a reserva da quadra", "cancel my court booking"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def cancel_court_booking(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    code = norm_code(intent.parameters.get("booking_text"))
    booking = BOOKINGS.get(code)
    if booking is None:
        return fail(say(lang, f"Não achei a reserva {code}.", f"No booking {code}."), "not_found")
    unit, sport, day, when, minutes, state = booking
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
    BOOKINGS[code] = (unit, sport, day, when, minutes, "cancelled")
    return DomainOutput(
        status="success",
        result={"code": code, "day": day.isoformat(), "state": "cancelled"},
        explanation=say(
            lang,
            f"Reserva {code} ({SPORT_PT[sport]}, {unit}, {day:%d/%m} às {when}) cancelada.",
            f"Booking {code} ({SPORT_EN[sport]}, {unit}, {day:%b %d} at {when}) cancelled.",
        ),
    )


@service.capability(
    "court_hours",
    {"pt": "Informa o horário de funcionamento das quadras", "en": "Say the courts' opening hours"},
    parameters={"type": "object", "properties": {"club_text": {"type": "string"}, "day": {"type": "string"}}},
    metadata={
        "intent_hints": {
            "keywords": ["horário das quadras", "clube abre", "court hours", "club open"],
            "examples": ["que horas abre o clube?", "when do the courts open?"],
        },
        "policy": {"read_only": True},
    },
)
def court_hours(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    said = str(p.get("club_text") or "").strip()
    unit = resolve_name(UNITS, said) if said else None
    if said and unit is None:
        return _units_clarify(lang, said)
    day = read_day(p.get("day")) if p.get("day") else None
    if day is None:
        text = say(
            lang,
            f"Seg a sex {WEEKDAY_HOURS[0]}h–{WEEKDAY_HOURS[1]}h;"
            f" sáb e dom {WEEKEND_HOURS[0]}h–{WEEKEND_HOURS[1]}h.",
            f"Mon–Fri {WEEKDAY_HOURS[0]}:00–{WEEKDAY_HOURS[1]}:00;"
            f" Sat–Sun {WEEKEND_HOURS[0]}:00–{WEEKEND_HOURS[1]}:00.",
        )
        return DomainOutput(
            status="success",
            result={"unit": unit, "weekdays": WEEKDAY_HOURS, "weekends": WEEKEND_HOURS},
            explanation=(f"{unit}: " if unit else "") + text,
        )
    opens, closes = _hours(day)
    return DomainOutput(
        status="success",
        result={"unit": unit, "day": day.isoformat(), "hours": [opens, closes]},
        explanation=say(
            lang,
            f"{day:%d/%m}: das {opens}h às {closes}h.",
            f"{day:%b %d}: {opens}:00 to {closes}:00.",
        ),
    )


@service.capability(
    "court_price",
    {
        "pt": "Informa o preço da hora de quadra de tênis e de padel (mais caro a partir das 18h)",
        "en": "Quote the hourly price of a tennis or padel court (more from 6pm)",
    },
    parameters={
        "type": "object",
        "properties": {
            "sport": {"type": "string", "enum": ["TENNIS", "PADEL"]},
            "duration": {"type": "string"},
            "time": {"type": "string"},
        },
    },
    metadata={
        "intent_hints": {
            "keywords": ["preço da quadra", "quanto custa a quadra", "court price"],
            "examples": ["quanto custa a hora da quadra?", "how much is a court per hour?"],
        },
        "policy": {"read_only": True},
    },
)
def court_price(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    sport = str(p.get("sport") or "").upper()
    minutes = _minutes(p.get("duration")) or 60
    at = hhmm(p.get("time")) if p.get("time") else None
    peak = at is not None and at[0] >= PEAK_FROM
    if sport not in HOURLY:
        return DomainOutput(
            status="success",
            result={"hourly": HOURLY, "peak_from": f"{PEAK_FROM}:00", "peak_markup": PEAK},
            explanation=say(
                lang,
                f"Hora de quadra: tênis R$ {HOURLY['TENNIS']:.0f}, padel R$ {HOURLY['PADEL']:.0f};"
                f" a partir das {PEAK_FROM}h, 25% a mais.",
                f"A court per hour: tennis R$ {HOURLY['TENNIS']:.0f}, padel R$ {HOURLY['PADEL']:.0f};"
                f" from {PEAK_FROM}:00, 25% more.",
            ),
        )
    total = round(HOURLY[sport] * (PEAK if peak else 1.0) * minutes / 60, 2)
    return DomainOutput(
        status="success",
        result={"sport": sport, "minutes": minutes, "total": {"amount": total, "currency": "BRL"}},
        explanation=say(
            lang,
            f"Quadra de {SPORT_PT[sport]}, {minutes} min: R$ {total:.2f}.",
            f"A {SPORT_EN[sport]} court, {minutes} min: R$ {total:.2f}.",
        ),
    )


_SPORT = {
    "type": "enum",
    "values": ["TENNIS", "PADEL"],
    "description": {"pt": "O esporte (tênis ou padel)", "en": "The sport (tennis or padel)"},
    "synonyms": {
        "TENNIS": ["tênis", "tenis", "quadra de tênis", "tennis", "tennis court"],
        "PADEL": ["padel", "pádel", "quadra de padel", "padel court", "paddle"],
    },
}
_DAY = {"type": "date", "description": {"pt": "O dia", "en": "The day"}}
_TIME = {"type": "time", "description": {"pt": "O horário", "en": "The time"}}
_DURATION = {"type": "duration", "description": {"pt": "Por quanto tempo", "en": "For how long"}}
_CLUB = {
    "type": "string",
    "description": {"pt": "A unidade do clube", "en": "The club unit"},
    "lookup": table(UNITS),
}
service.add_goal(
    {
        "goal": "BOOK_COURT",
        "description": {"pt": "Reservar uma quadra de tênis ou padel", "en": "Book a tennis or padel court"},
        "entities_schema": {
            "sport": {**_SPORT, "required": True},
            "day": {**_DAY, "required": True},
            "time": {**_TIME, "required": True},
            "duration": _DURATION,
            "players": {
                "type": "number",
                "description": {"pt": "Quantos jogadores", "en": "How many players"},
            },
            "club_text": _CLUB,
        },
        "capabilities": ["book_court"],
        "examples": [
            ex("reserva uma quadra de tênis sexta às 18h", sport="TENNIS", day="sexta", time="às 18h"),
            ex(
                "quero alugar quadra de padel no Morumbi sábado 10h por 2 horas pra 4 pessoas",
                sport="PADEL",
                club_text="Morumbi",
                day="sábado",
                time="10h",
                duration="2 horas",
                players="4 pessoas",
            ),
            ex(
                "quadra de tênis em alphaville amanhã às 7h, 1 hora e meia",
                sport="TENNIS",
                club_text="alphaville",
                day="amanhã",
                time="às 7h",
                duration="1 hora e meia",
            ),
            ex(
                "book a padel court at Moema on friday at 7pm for 4 players",
                sport="PADEL",
                club_text="Moema",
                day="friday",
                time="at 7pm",
                players="4 players",
            ),
            ex(
                "I need a tennis court tomorrow at 8am for 2 hours at jardins",
                sport="TENNIS",
                day="tomorrow",
                time="at 8am",
                duration="2 hours",
                club_text="jardins",
            ),
        ],
    }
)
service.add_goal(
    {
        "goal": "CANCEL_COURT_BOOKING",
        "description": {"pt": "Cancelar uma reserva de quadra", "en": "Cancel a court booking"},
        "entities_schema": {
            "booking_text": {
                "type": "string",
                "required": True,
                "description": {"pt": "O código da reserva", "en": "The booking code"},
            }
        },
        "capabilities": ["cancel_court_booking"],
        "examples": [
            ex("cancela a reserva da quadra QD5101", booking_text="QD5101"),
            ex("quero desmarcar a quadra QD5105", booking_text="QD5105"),
            ex("cancel court booking QD5101", booking_text="QD5101"),
            ex("please cancel my court reservation QD5105", booking_text="QD5105"),
        ],
    }
)
service.add_goal(
    {
        "goal": "COURT_HOURS",
        "description": {"pt": "Horário de funcionamento das quadras", "en": "Court opening hours"},
        "entities_schema": {"club_text": _CLUB, "day": _DAY},
        "capabilities": ["court_hours"],
        "examples": [
            "qual o horário de funcionamento das quadras?",
            ex("o clube do Morumbi abre domingo?", club_text="Morumbi", day="domingo"),
            "what are the club's opening hours?",
            ex("are the courts at Moema open on saturday?", club_text="Moema", day="saturday"),
        ],
    }
)
service.add_goal(
    {
        "goal": "COURT_PRICE",
        "description": {"pt": "Preço do aluguel de quadra", "en": "Court rental prices"},
        "entities_schema": {"sport": _SPORT, "duration": _DURATION, "time": _TIME},
        "capabilities": ["court_price"],
        "examples": [
            "quanto custa alugar uma quadra?",
            ex("qual o preço da quadra de padel por 2 horas?", sport="PADEL", duration="2 horas"),
            "court rental prices",
            ex("how much is a tennis court at 8pm?", sport="TENNIS", time="at 8pm"),
        ],
    }
)

if __name__ == "__main__":
    serve(service)
