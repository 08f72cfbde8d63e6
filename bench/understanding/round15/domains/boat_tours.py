"""Boat tours (round-15 bench domain): book a tour for a number of people on a day, price a
tour, cancel a booking.

Fake, deterministic, in memory.
Run: ``python -m bench.understanding.round15.domains.boat_tours --port 8703``.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from bench.understanding.round15.domains._common import (
    ex,
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

#: tours (canonical value <- aliases)
TOURS: dict[str, list[str]] = {
    "Passeio das Ilhas": [
        "ilhas",
        "passeio das ilhas",
        "tour das ilhas",
        "island tour",
        "islands tour",
        "island hopping",
    ],
    "Pôr do Sol na Baía": [
        "pôr do sol",
        "por do sol",
        "passeio do pôr do sol",
        "por do sol na baia",
        "sunset",
        "sunset cruise",
        "sunset tour",
    ],
    "Escuna das Praias": [
        "escuna",
        "passeio de escuna",
        "praias",
        "tour das praias",
        "schooner",
        "schooner tour",
        "beach tour",
    ],
    "Observação de Golfinhos": [
        "golfinhos",
        "observação de golfinhos",
        "passeio dos golfinhos",
        "dolphins",
        "dolphin watching",
        "dolphin tour",
    ],
}
#: price per person, BRL, and departure time
PRICES: dict[str, int] = {
    "Passeio das Ilhas": 150,
    "Pôr do Sol na Baía": 120,
    "Escuna das Praias": 90,
    "Observação de Golfinhos": 180,
}
DEPARTS: dict[str, str] = {
    "Passeio das Ilhas": "09:00",
    "Pôr do Sol na Baía": "17:00",
    "Escuna das Praias": "10:00",
    "Observação de Golfinhos": "08:00",
}
MAX_PEOPLE = 30
#: bookings (code -> tour, day, people, state)
BOOKINGS: dict[str, tuple[str, date, int, str]] = {
    "BT8101": ("Passeio das Ilhas", date(2026, 3, 14), 4, "booked"),
    "BT8105": ("Escuna das Praias", date(2026, 3, 12), 2, "cancelled"),
    "BT8110": ("Pôr do Sol na Baía", date(2026, 3, 10), 6, "booked"),
}
_next = [8200]

service = DomainService(
    "boat_tours",
    "0.1.0",
    {
        "pt": (
            "Passeios de barco: reservar um passeio para N pessoas "
            "num dia, preço do passeio, cancelar uma reserva"
        ),
        "en": "Boat tours: book a tour for N people on a day, tour prices, cancel a booking",
    },
)


def _tour_options(lang: str) -> DomainOutput:
    return clarify(
        say(lang, "Não temos esse passeio. Qual destes?", "We don't run that tour. Which of these?"),
        [option(name, name) for name in TOURS],
        param="tour_text",
    )


@service.capability(
    "book_tour",
    {
        "pt": (
            "Reserva um passeio de barco para um número de pessoas "
            "num dia (até 30 pessoas; saídas em horário fixo)"
        ),
        "en": "Book a boat tour for a number of people on a day (up to 30 people; fixed departure times)",
    },
    parameters={
        "type": "object",
        "properties": {
            "tour_text": {"type": "string", "minLength": 1},
            "people": {"type": "number"},
            "day": {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"},
        },
        "required": ["tour_text", "people", "day"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["passeio de barco", "passeio de lancha", "boat tour", "boat trip"],
            "examples": ["quero reservar um passeio de barco", "book a boat tour"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def book_tour(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    day = read_day(p.get("day"))
    people = read_number(p.get("people"))
    if day is None or not people or not p.get("tour_text"):
        return fail(
            say(lang, "Falta o passeio, as pessoas ou o dia.", "The tour, people or day is missing."),
            "missing_parameter",
        )
    tour = resolve_name(TOURS, p.get("tour_text"))
    if tour is None:
        return _tour_options(lang)
    if day < today():
        return fail(say(lang, "Esse dia já passou.", "That day is past."), "past_day")
    count = int(people)
    if count > MAX_PEOPLE:
        return fail(
            say(lang, "Até 30 pessoas por reserva.", "Up to 30 people per booking."),
            "too_many",
            recoverable=True,
            suggestions=[{"people": MAX_PEOPLE}],
        )
    _next[0] += 1
    code = f"BT{_next[0]}"
    BOOKINGS[code] = (tour, day, count, "booked")
    total = PRICES[tour] * count
    return DomainOutput(
        status="success",
        result={
            "code": code,
            "tour": tour,
            "day": day.isoformat(),
            "departure": DEPARTS[tour],
            "people": count,
            "price": {"amount": total, "currency": "BRL"},
        },
        explanation=say(
            lang,
            f"Reserva {code}: {tour}, {day:%d/%m}, saída {DEPARTS[tour]}, {count} pessoa(s), R$ {total:.2f}.",
            f"Booking {code}: {tour}, {day:%b %d}, departs {DEPARTS[tour]}, {count} people, R$ {total:.2f}.",
        ),
    )


@service.capability(
    "tour_price",
    {
        "pt": "Diz o preço de um passeio (por pessoa, se não disser quantas)",
        "en": "Tell a tour's price (per person, unless said how many)",
    },
    parameters={
        "type": "object",
        "properties": {"tour_text": {"type": "string", "minLength": 1}, "people": {"type": "number"}},
        "required": ["tour_text"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["preço do passeio", "quanto custa o passeio de barco", "tour price"],
            "examples": ["quanto custa o passeio de barco?", "how much is the boat tour?"],
        },
        "policy": {"read_only": True},
    },
)
def tour_price(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    tour = resolve_name(TOURS, p.get("tour_text"))
    if tour is None:
        return _tour_options(lang)
    count = int(read_number(p.get("people")) or 1)
    total = PRICES[tour] * count
    return DomainOutput(
        status="success",
        result={"tour": tour, "people": count, "price": {"amount": total, "currency": "BRL"}},
        explanation=say(
            lang,
            f"{tour}: R$ {PRICES[tour]} por pessoa; {count} pessoa(s) "
            f"R$ {total:.2f}. Saída às {DEPARTS[tour]}.",
            f"{tour}: R$ {PRICES[tour]} per person; {count} people R$ {total:.2f}. Departs {DEPARTS[tour]}.",
        ),
    )


@service.capability(
    "cancel_tour",
    {
        "pt": "Cancela uma reserva de passeio pelo código (até a véspera)",
        "en": "Cancel a tour booking by its code (up to the day before)",
    },
    parameters={
        "type": "object",
        "properties": {"booking_text": {"type": "string", "minLength": 1}},
        "required": ["booking_text"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["cancelar passeio", "cancelar reserva do barco", "cancel boat tour"],
            "examples": ["quero cancelar meu passeio de barco", "cancel my boat tour"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def cancel_tour(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    code = norm_code(intent.parameters.get("booking_text"))
    booking = BOOKINGS.get(code)
    if booking is None:
        return fail(say(lang, f"Não achei a reserva {code}.", f"No booking {code}."), "not_found")
    tour, day, count, state = booking
    if state == "cancelled":
        return fail(
            say(lang, f"{code} já estava cancelada.", f"{code} was already cancelled."), "already_cancelled"
        )
    if day <= today():
        return fail(
            say(
                lang,
                f"{code} é hoje: cancelamento só até a véspera.",
                f"{code} is today: cancel up to the day before.",
            ),
            "too_late",
        )
    BOOKINGS[code] = (tour, day, count, "cancelled")
    return DomainOutput(
        status="success",
        result={"code": code, "tour": tour, "day": day.isoformat(), "people": count, "state": "cancelled"},
        explanation=say(
            lang,
            f"Cancelada {code}: {tour}, {day:%d/%m}, {count} pessoa(s).",
            f"Cancelled {code}: {tour}, {day:%b %d}, {count} people.",
        ),
    )


TOUR_ENTITY: dict[str, Any] = {
    "type": "string",
    "required": True,
    "lookup": table(TOURS),
    "description": {"pt": "O passeio", "en": "The tour"},
}
PEOPLE_DESC = {"pt": "Quantas pessoas", "en": "How many people"}

service.add_goal(
    {
        "goal": "BOOK_TOUR",
        "description": {"pt": "Reservar um passeio de barco", "en": "Book a boat tour"},
        "entities_schema": {
            "tour_text": TOUR_ENTITY,
            "people": {"type": "number", "required": True, "description": PEOPLE_DESC},
            "day": {
                "type": "date",
                "required": True,
                "description": {"pt": "O dia do passeio", "en": "The day of the tour"},
            },
        },
        "capabilities": ["book_tour"],
        "examples": [
            ex(
                "reserva o passeio das ilhas pra 4 pessoas sábado",
                tour_text="passeio das ilhas",
                people="4 pessoas",
                day="sábado",
            ),
            ex(
                "quero o pôr do sol amanhã para 2 pessoas",
                tour_text="pôr do sol",
                day="amanhã",
                people="2 pessoas",
            ),
            ex("passeio de escuna dia 20, somos 6", tour_text="escuna", day="dia 20", people="6"),
            ex(
                "book the sunset cruise for 2 people on Friday",
                tour_text="sunset cruise",
                people="2 people",
                day="Friday",
            ),
            ex(
                "dolphin watching tomorrow for 3 people",
                tour_text="dolphin watching",
                day="tomorrow",
                people="3 people",
            ),
        ],
    }
)
service.add_goal(
    {
        "goal": "TOUR_PRICE",
        "description": {"pt": "Preço de um passeio de barco", "en": "Price of a boat tour"},
        "entities_schema": {
            "tour_text": TOUR_ENTITY,
            "people": {"type": "number", "description": PEOPLE_DESC},
        },
        "capabilities": ["tour_price"],
        "examples": [
            ex("quanto custa o passeio das ilhas?", tour_text="passeio das ilhas"),
            ex("preço da escuna pra 5 pessoas", tour_text="escuna", people="5 pessoas"),
            ex("how much is the sunset cruise?", tour_text="sunset cruise"),
            ex("price of the dolphin tour for 4 people", tour_text="dolphin tour", people="4 people"),
        ],
    }
)
service.add_goal(
    {
        "goal": "CANCEL_TOUR",
        "description": {"pt": "Cancelar uma reserva de passeio", "en": "Cancel a boat tour booking"},
        "entities_schema": {
            "booking_text": {
                "type": "string",
                "required": True,
                "description": {"pt": "O código da reserva", "en": "The booking code"},
            }
        },
        "capabilities": ["cancel_tour"],
        "examples": [
            ex("cancela a reserva BT8101", booking_text="BT8101"),
            ex("quero cancelar o passeio BT8110", booking_text="BT8110"),
            ex("cancel tour booking BT8101", booking_text="BT8101"),
            ex("please cancel boat tour BT8110", booking_text="BT8110"),
        ],
    }
)

if __name__ == "__main__":
    serve(service)
