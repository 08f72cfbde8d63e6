"""Photo studio (round-14 bench domain): book a photo session, price a session, cancel a
booking.

Fake, deterministic, in memory.
Run: ``python -m bench.understanding.round14.domains.photo_studio --port 8602``.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from bench.understanding.round14.domains._common import (
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

#: session types (enum value <- synonyms; the first of each language is the label)
SESSIONS: dict[str, list[str]] = {
    "PORTRAIT": [
        "ensaio individual",
        "retrato",
        "retratos",
        "ensaio pessoal",
        "portrait",
        "portraits",
        "solo shoot",
    ],
    "FAMILY": [
        "ensaio de família",
        "ensaio em família",
        "fotos de família",
        "família",
        "familia",
        "family photos",
        "family shoot",
        "family",
    ],
    "MATERNITY": [
        "ensaio gestante",
        "gestante",
        "grávida",
        "gravida",
        "maternity",
        "pregnancy shoot",
        "maternity shoot",
    ],
    "NEWBORN": [
        "ensaio newborn",
        "recém-nascido",
        "recem nascido",
        "newborn",
        "newborn shoot",
        "newborn photos",
    ],
    "PRODUCT": [
        "fotos de produto",
        "foto de produto",
        "produtos",
        "product photos",
        "product shoot",
        "product photography",
    ],
    "HEADSHOT": [
        "foto corporativa",
        "fotos corporativas",
        "foto pro linkedin",
        "corporativo",
        "headshot",
        "headshots",
        "corporate headshot",
    ],
}
#: price per session, BRL (up to 4 people; R$ 50 per extra person)
PRICES: dict[str, int] = {
    "PORTRAIT": 250,
    "FAMILY": 400,
    "MATERNITY": 350,
    "NEWBORN": 450,
    "PRODUCT": 300,
    "HEADSHOT": 200,
}
LABEL = {
    "PORTRAIT": ("ensaio individual", "portrait session"),
    "FAMILY": ("ensaio de família", "family session"),
    "MATERNITY": ("ensaio gestante", "maternity session"),
    "NEWBORN": ("ensaio newborn", "newborn session"),
    "PRODUCT": ("fotos de produto", "product shoot"),
    "HEADSHOT": ("foto corporativa", "headshot session"),
}
INCLUDED_PEOPLE, EXTRA_PERSON, MAX_PEOPLE = 4, 50, 10
OPEN_HOUR, LAST_START = 9, 17
#: bookings (code -> session type, day, time, state)
BOOKINGS: dict[str, tuple[str, date, str, str]] = {
    "FS3101": ("FAMILY", date(2026, 3, 12), "10:00", "booked"),
    "FS3107": ("PORTRAIT", date(2026, 3, 14), "15:00", "booked"),
    "FS3112": ("NEWBORN", date(2026, 3, 16), "09:00", "cancelled"),
    "FS3118": ("HEADSHOT", date(2026, 3, 10), "16:00", "booked"),
}
_next = [3200]

service = DomainService(
    "photo_studio",
    "0.1.0",
    {
        "pt": "Estúdio de fotografia: agendar um ensaio, preço do ensaio, cancelar um agendamento",
        "en": "Photo studio: book a photo session, session prices, cancel a booking",
    },
)


def _price(kind: str, people: int) -> int:
    return PRICES[kind] + EXTRA_PERSON * max(0, people - INCLUDED_PEOPLE)


def _kind(p: dict[str, Any]) -> str | None:
    kind = str(p.get("session_type") or "").upper()
    return kind if kind in SESSIONS else None


@service.capability(
    "book_session",
    {
        "pt": "Agenda um ensaio fotográfico num dia e hora (de segunda a sábado, das 9h às 17h)",
        "en": "Book a photo session on a day and time (Monday to Saturday, 9am to 5pm)",
    },
    parameters={
        "type": "object",
        "properties": {
            "session_type": {"type": "string", "enum": list(SESSIONS)},
            "day": {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"},
            "time": {"type": "string", "pattern": "^\\d{2}:\\d{2}$"},
            "people": {"type": "number"},
        },
        "required": ["session_type", "day", "time"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["ensaio fotográfico", "sessão de fotos", "photo session", "photoshoot"],
            "examples": ["quero marcar um ensaio de fotos", "book a photoshoot"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def book_session(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    kind = _kind(p)
    day = read_day(p.get("day"))
    at = hhmm(p.get("time"))
    if kind is None or day is None or at is None:
        return fail(
            say(lang, "Falta o tipo, o dia ou a hora.", "The kind, day or time is missing."),
            "missing_parameter",
        )
    people = int(read_number(p.get("people")) or 1)
    if day < today():
        return fail(say(lang, "Esse dia já passou.", "That day is past."), "past_day")
    if day.weekday() == 6:
        return fail(
            say(lang, "O estúdio não abre no domingo.", "The studio is closed on Sundays."),
            "closed",
            recoverable=True,
            suggestions=[{"day": (day + timedelta(days=1)).isoformat()}],
        )
    if at[0] < OPEN_HOUR or (at[0], at[1]) > (LAST_START, 0):
        hour = OPEN_HOUR if at[0] < OPEN_HOUR else LAST_START
        return fail(
            say(lang, "Ensaios começam entre 9h e 17h.", "Sessions start between 9am and 5pm."),
            "outside_hours",
            recoverable=True,
            suggestions=[{"time": f"{hour:02d}:00"}],
        )
    if people > MAX_PEOPLE:
        return fail(
            say(lang, "Até 10 pessoas por ensaio.", "Up to 10 people per session."),
            "too_many",
            recoverable=True,
            suggestions=[{"people": MAX_PEOPLE}],
        )
    _next[0] += 1
    code = f"FS{_next[0]}"
    when = f"{at[0]:02d}:{at[1]:02d}"
    BOOKINGS[code] = (kind, day, when, "booked")
    price = _price(kind, people)
    pt, en = LABEL[kind]
    return DomainOutput(
        status="success",
        result={
            "code": code,
            "session_type": kind,
            "day": day.isoformat(),
            "time": when,
            "people": people,
            "price": {"amount": price, "currency": "BRL"},
        },
        explanation=say(
            lang,
            f"Agendado {code}: {pt}, {day:%d/%m} às {when}, {people} pessoa(s), R$ {price:.2f}.",
            f"Booked {code}: {en}, {day:%b %d} at {when}, {people} people, R$ {price:.2f}.",
        ),
    )


@service.capability(
    "session_price",
    {
        "pt": "Diz o preço de um tipo de ensaio (até 4 pessoas, se não disser)",
        "en": "Tell a session's price (up to 4 people, unless said)",
    },
    parameters={
        "type": "object",
        "properties": {
            "session_type": {"type": "string", "enum": list(SESSIONS)},
            "people": {"type": "number"},
        },
        "required": ["session_type"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["preço do ensaio", "quanto custa o ensaio", "session price"],
            "examples": ["quanto custa um ensaio?", "how much is a photo session?"],
        },
        "policy": {"read_only": True},
    },
)
def session_price(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    kind = _kind(intent.parameters)
    if kind is None:
        return fail(say(lang, "Qual tipo de ensaio?", "Which kind of session?"), "missing_parameter")
    people = int(read_number(intent.parameters.get("people")) or INCLUDED_PEOPLE)
    price = _price(kind, people)
    pt, en = LABEL[kind]
    return DomainOutput(
        status="success",
        result={"session_type": kind, "people": people, "price": {"amount": price, "currency": "BRL"}},
        explanation=say(
            lang,
            f"{pt.capitalize()} até {people} pessoas: R$ {price:.2f} (R$ 50 por pessoa a mais que 4).",
            f"{en.capitalize()} for up to {people} people: R$ {price:.2f} (R$ 50 per person over 4).",
        ),
    )


@service.capability(
    "cancel_session",
    {
        "pt": "Cancela um ensaio agendado (até 24h antes)",
        "en": "Cancel a booked session (up to 24 hours before)",
    },
    parameters={
        "type": "object",
        "properties": {"booking_text": {"type": "string", "minLength": 1}},
        "required": ["booking_text"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["cancelar ensaio", "desmarcar sessão de fotos", "cancel photo session"],
            "examples": ["quero cancelar meu ensaio", "cancel my photo session"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def cancel_session(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    code = norm_code(intent.parameters.get("booking_text"))
    booking = BOOKINGS.get(code)
    if booking is None:
        return fail(say(lang, f"Não achei o agendamento {code}.", f"No booking {code}."), "not_found")
    kind, day, when, state = booking
    if state == "cancelled":
        return fail(
            say(lang, f"{code} já estava cancelado.", f"{code} was already cancelled."), "already_cancelled"
        )
    if day <= today():
        return fail(
            say(
                lang,
                f"{code} é hoje: cancelamento só até 24h antes.",
                f"{code} is today: cancel up to 24 hours before.",
            ),
            "too_late",
        )
    BOOKINGS[code] = (kind, day, when, "cancelled")
    pt, en = LABEL[kind]
    return DomainOutput(
        status="success",
        result={
            "code": code,
            "session_type": kind,
            "day": day.isoformat(),
            "time": when,
            "state": "cancelled",
        },
        explanation=say(
            lang,
            f"Cancelado {code}: {pt}, {day:%d/%m} às {when}.",
            f"Cancelled {code}: {en}, {day:%b %d} at {when}.",
        ),
    )


SESSION_ENTITY: dict[str, Any] = {
    "type": "enum",
    "required": True,
    "values": list(SESSIONS),
    "synonyms": SESSIONS,
    "description": {"pt": "O tipo de ensaio", "en": "The kind of session"},
}
PEOPLE_ENTITY: dict[str, Any] = {
    "type": "number",
    "description": {"pt": "Quantas pessoas", "en": "How many people"},
}

service.add_goal(
    {
        "goal": "BOOK_SESSION",
        "description": {"pt": "Agendar um ensaio fotográfico", "en": "Book a photo session"},
        "entities_schema": {
            "session_type": SESSION_ENTITY,
            "day": {
                "type": "date",
                "required": True,
                "description": {"pt": "O dia do ensaio", "en": "The day of the session"},
            },
            "time": {"type": "time", "required": True, "description": {"pt": "O horário", "en": "The time"}},
            "people": PEOPLE_ENTITY,
        },
        "capabilities": ["book_session"],
        "examples": [
            ex(
                "agenda um ensaio de família sábado às 10h para 5 pessoas",
                session_type="FAMILY",
                day="sábado",
                time="às 10h",
                people="5 pessoas",
            ),
            ex(
                "quero marcar ensaio gestante dia 20 às 15h",
                session_type="MATERNITY",
                day="dia 20",
                time="às 15h",
            ),
            ex("marca foto corporativa amanhã 14h", session_type="HEADSHOT", day="amanhã", time="14h"),
            ex(
                "book a family shoot on Friday at 11am for 3 people",
                session_type="FAMILY",
                day="Friday",
                time="at 11am",
                people="3 people",
            ),
            ex(
                "schedule a newborn session next monday at 9am",
                session_type="NEWBORN",
                day="next monday",
                time="at 9am",
            ),
        ],
    }
)
service.add_goal(
    {
        "goal": "SESSION_PRICE",
        "description": {"pt": "Preço de um ensaio fotográfico", "en": "Price of a photo session"},
        "entities_schema": {"session_type": SESSION_ENTITY, "people": PEOPLE_ENTITY},
        "capabilities": ["session_price"],
        "examples": [
            ex("quanto custa o ensaio newborn?", session_type="NEWBORN"),
            ex("preço de ensaio de família pra 6 pessoas", session_type="FAMILY", people="6 pessoas"),
            ex("how much are product photos?", session_type="PRODUCT"),
            ex("price of a maternity shoot", session_type="MATERNITY"),
        ],
    }
)
service.add_goal(
    {
        "goal": "CANCEL_SESSION",
        "description": {"pt": "Cancelar um ensaio agendado", "en": "Cancel a booked photo session"},
        "entities_schema": {
            "booking_text": {
                "type": "string",
                "required": True,
                "description": {"pt": "O código do agendamento", "en": "The booking code"},
            }
        },
        "capabilities": ["cancel_session"],
        "examples": [
            ex("cancela o ensaio FS3101", booking_text="FS3101"),
            ex("quero cancelar o agendamento FS3107", booking_text="FS3107"),
            ex("cancel photo session FS3107", booking_text="FS3107"),
            ex("please cancel booking FS3101", booking_text="FS3101"),
        ],
    }
)

if __name__ == "__main__":
    serve(service)
