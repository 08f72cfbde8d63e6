"""Hotel (round-5 bench domain): book a stay, cancel a booking, list my bookings.

Fake, deterministic, in memory. Run: ``python -m bench.understanding.round5.domains.hotel --port 8151``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import timedelta
from typing import Any

from bench.understanding.round5.domains._common import (
    code_of,
    ex,
    language,
    lookup_spec,
    read_day,
    read_number,
    resolve_loose,
    say,
    today,
)
from sdk.service import DomainService, clarify, fail, option, serve
from shared.models import DomainOutput, ExecutionIntent

#: the cities with a partner hotel (canonical name <- other ways people write it)
CITIES: dict[str, list[str]] = {
    "São Paulo": ["SP", "Sampa", "Sao Paulo"],
    "Rio de Janeiro": ["Rio", "RJ", "Rio de Janeiro RJ"],
    "Salvador": ["Salvador da Bahia"],
    "Florianópolis": ["Floripa", "Florianopolis"],
    "Gramado": ["Gramado RS"],
    "Belo Horizonte": ["BH", "Beagá", "Belo Horizonte MG"],
    "Recife": ["Recife PE"],
    "Lisboa": ["Lisbon", "Lisboa Portugal"],
    "Buenos Aires": ["Buenos Aires Argentina", "BsAs"],
}
#: the partner hotel of each city and its nightly rate in BRL (one room, up to 4 guests)
HOTELS: dict[str, tuple[str, float]] = {
    "São Paulo": ("Hotel Paulista Plaza", 320.0),
    "Rio de Janeiro": ("Copacabana Mar Hotel", 410.0),
    "Salvador": ("Pousada Pelourinho", 290.0),
    "Florianópolis": ("Hotel Lagoa da Conceição", 350.0),
    "Gramado": ("Hotel Serra Gaúcha", 480.0),
    "Belo Horizonte": ("Savassi Hotel", 260.0),
    "Recife": ("Boa Viagem Suítes", 300.0),
    "Lisboa": ("Hotel Alfama", 650.0),
    "Buenos Aires": ("Hotel Palermo Soho", 420.0),
}
BREAKFAST_BRL = 40.0  # a guest a night
MAX_GUESTS = 4
MAX_NIGHTS = 14
#: (city, night) with no room left: Gramado's weekend is full
FULL = {("Gramado", "2026-03-13"), ("Gramado", "2026-03-14")}


@dataclass
class Booking:
    code: str
    city: str
    check_in: str
    nights: int
    guests: int
    breakfast: bool = False

    def describe(self, lang: str = "pt") -> str:
        hotel = HOTELS[self.city][0]
        return say(
            lang,
            f"{self.code}: {hotel} ({self.city}), entrada {self.check_in}, {self.nights} noite(s), "
            f"{self.guests} hóspede(s)",
            f"{self.code}: {hotel} ({self.city}), check-in {self.check_in}, {self.nights} night(s), "
            f"{self.guests} guest(s)",
        )


BOOKINGS: dict[str, Booking] = {
    b.code: b
    for b in (
        Booking("HT2041", "Rio de Janeiro", "2026-03-13", 2, 2),
        Booking("HT2050", "São Paulo", "2026-03-10", 1, 1),  # check-in today: no longer cancellable
        Booking("HT2077", "Gramado", "2026-03-20", 3, 2, True),
        Booking("HT2102", "Lisboa", "2026-04-02", 5, 1),
        Booking("HT1985", "Salvador", "2026-03-05", 2, 3),  # already over
    )
}
_next_code = [3000]

service = DomainService(
    "hotel",
    "0.1.0",
    {
        "pt": "Hotéis: reserva de hospedagem, cancelamento e minhas reservas",
        "en": "Hotels: booking a stay, cancelling it and listing your bookings",
    },
)

CITY_ENTITY: dict[str, Any] = {
    "type": "string",
    "description": {"pt": "A cidade", "en": "The city"},
    "lookup": lookup_spec(CITIES),
}


def _total(booking: Booking) -> float:
    nightly = HOTELS[booking.city][1] + (BREAKFAST_BRL * booking.guests if booking.breakfast else 0.0)
    return nightly * booking.nights


@service.capability(
    "book_stay",
    {"pt": "Reserva um quarto de hotel", "en": "Book a hotel room"},
    parameters={
        "type": "object",
        "properties": {
            "city_text": {"type": "string", "minLength": 1},
            "check_in": {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"},
            "nights": {"type": "number", "minimum": 1},
            "guests": {"type": "number", "minimum": 1},
            "breakfast": {"type": "boolean"},
        },
        "required": ["city_text", "check_in", "nights"],
    },
    metadata={
        "intent_hints": {
            "keywords": [
                "hotel",
                "hospedagem",
                "diária",
                "quarto",
                "pousada",
                "hotel room",
                "stay",
                "check-in",
            ],
            "examples": ["preciso de um hotel", "I need a hotel room"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def book_stay(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    city = resolve_loose(p.get("city_text"), CITIES)
    if city is None:
        return clarify(
            say(
                lang,
                "Não temos hotel parceiro nessa cidade. Qual destas?",
                "We have no partner hotel in that city. Which of these?",
            ),
            [option(c, f"{c} — {HOTELS[c][0]}", aliases=a) for c, a in CITIES.items()],
            param="city_text",
            metadata={"resolution": "unknown_city"},
        )
    day = read_day(p.get("check_in"))
    nights = read_number(p.get("nights"))
    if day is None or nights is None:
        return fail(
            say(
                lang, "Faltam a data de entrada ou as noites.", "The check-in day or the nights are missing."
            ),
            "missing_parameter",
        )
    if day < today():
        return fail(say(lang, "Essa data já passou.", "That day has passed."), "past_day")
    if nights < 1 or nights > MAX_NIGHTS:
        return fail(
            say(lang, f"Reservamos de 1 a {MAX_NIGHTS} noites.", f"We book 1 to {MAX_NIGHTS} nights."),
            "too_many_nights",
            recoverable=True,
            suggestions=[{"nights": MAX_NIGHTS}],
        )
    guests = read_number(p.get("guests")) or 1
    if guests > MAX_GUESTS:
        return fail(
            say(
                lang,
                f"Um quarto recebe no máximo {MAX_GUESTS} hóspedes; faça duas reservas.",
                f"A room takes at most {MAX_GUESTS} guests; make two bookings.",
            ),
            "too_many_guests",
        )
    nights_said = [(day + timedelta(days=i)).isoformat() for i in range(nights)]
    if any((city, night) in FULL for night in nights_said):
        free = day + timedelta(days=1)
        while any((city, (free + timedelta(days=i)).isoformat()) in FULL for i in range(nights)):
            free += timedelta(days=1)
        return fail(
            say(
                lang,
                f"{HOTELS[city][0]} está lotado nessas datas; a partir de {free.isoformat()} há quarto.",
                f"{HOTELS[city][0]} is full on those nights; there is a room from {free.isoformat()}.",
            ),
            "fully_booked",
            recoverable=True,
            suggestions=[{"check_in": free.isoformat()}],
        )
    _next_code[0] += 1
    booking = Booking(f"HT{_next_code[0]}", city, day.isoformat(), nights, guests, bool(p.get("breakfast")))
    BOOKINGS[booking.code] = booking
    total = _total(booking)
    return DomainOutput(
        status="success",
        result=asdict(booking) | {"hotel": HOTELS[city][0], "total_brl": total},
        explanation=say(
            lang,
            f"Reserva feita — {booking.describe(lang)}, R$ {total:.2f}. Código {booking.code}.",
            f"Booked — {booking.describe(lang)}, R$ {total:.2f}. Your code is {booking.code}.",
        ),
    )


@service.capability(
    "cancel_booking",
    {"pt": "Cancela uma reserva de hotel", "en": "Cancel a hotel booking"},
    parameters={
        "type": "object",
        "properties": {"booking_code_text": {"type": "string", "minLength": 1}},
        "required": ["booking_code_text"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["cancelar reserva", "cancelar hotel", "cancel booking", "cancel my reservation"]
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def cancel_booking(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    code = code_of(intent.parameters.get("booking_code_text"), "HT")
    booking = BOOKINGS.get(code)
    if booking is None:
        return fail(say(lang, f"Não achei a reserva {code}.", f"No booking {code}."), "booking_not_found")
    check_in = read_day(booking.check_in) or today()
    if check_in < today():
        return fail(say(lang, f"A estadia {code} já passou.", f"The stay {code} is over."), "stay_over")
    if check_in == today():
        return fail(
            say(
                lang,
                f"A entrada de {code} é hoje: não dá mais para cancelar sem cobrança.",
                f"{code} checks in today: it can no longer be cancelled free of charge.",
            ),
            "too_late_to_cancel",
        )
    BOOKINGS.pop(code)
    return DomainOutput(
        status="success",
        result={"code": code, "cancelled": True, "refund_brl": _total(booking)},
        explanation=say(
            lang,
            f"Reserva cancelada — {booking.describe(lang)}. R$ {_total(booking):.2f} estornados.",
            f"Cancelled — {booking.describe(lang)}. R$ {_total(booking):.2f} refunded.",
        ),
    )


@service.capability(
    "list_bookings",
    {"pt": "Lista as suas reservas de hotel", "en": "List your hotel bookings"},
    parameters={"type": "object", "properties": {"city_text": {"type": "string"}}},
    metadata={
        "intent_hints": {
            "keywords": ["minhas reservas", "my bookings", "my reservations", "reservas de hotel"]
        },
        "policy": {"read_only": True},
    },
)
def list_bookings(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    said = intent.parameters.get("city_text")
    city = resolve_loose(said, CITIES) if said else None
    items = sorted(
        (
            b
            for b in BOOKINGS.values()
            if (read_day(b.check_in) or today()) >= today() and (city is None or b.city == city)
        ),
        key=lambda b: b.check_in,
    )
    text = "\n".join(b.describe(lang) for b in items) or say(
        lang, "Nenhuma reserva por vir.", "No upcoming bookings."
    )
    return DomainOutput(status="success", result={"bookings": [asdict(b) for b in items]}, explanation=text)


service.add_goal(
    {
        "goal": "BOOK_STAY",
        "description": {"pt": "Reservar uma hospedagem em hotel", "en": "Book a hotel stay"},
        "entities_schema": {
            "city_text": CITY_ENTITY | {"required": True},
            "check_in": {
                "type": "date",
                "required": True,
                "description": {"pt": "O dia da entrada", "en": "The check-in day"},
            },
            "nights": {
                "type": "number",
                "required": True,
                "description": {"pt": "Quantas noites", "en": "How many nights"},
            },
            "guests": {"type": "number", "description": {"pt": "Quantos hóspedes", "en": "How many guests"}},
            "breakfast": {
                "type": "boolean",
                "description": {"pt": "Com café da manhã", "en": "With breakfast"},
                "synonyms": {"true": ["café da manhã", "com café", "breakfast", "breakfast included"]},
            },
        },
        "capabilities": ["book_stay"],
        "examples": [
            ex(
                "reserva um hotel em Salvador pra sexta, 2 noites",
                city_text="Salvador",
                check_in="sexta",
                nights="2 noites",
            ),
            ex(
                "quero um quarto no Rio a partir de amanhã por 3 noites para 2 pessoas",
                city_text="Rio",
                check_in="amanhã",
                nights="3 noites",
                guests="2 pessoas",
            ),
            ex(
                "hospedagem em Gramado dia 20, quatro noites, com café da manhã",
                city_text="Gramado",
                check_in="dia 20",
                nights="quatro noites",
                breakfast=True,
            ),
            ex(
                "me arruma uma pousada em Floripa sábado, uma noite só",
                city_text="Floripa",
                check_in="sábado",
                nights="uma noite",
            ),
            ex(
                "book a hotel in Lisbon from Friday for 2 nights",
                city_text="Lisbon",
                check_in="Friday",
                nights="2 nights",
            ),
            ex(
                "I need a room in São Paulo tomorrow, 1 night, 3 guests",
                city_text="São Paulo",
                check_in="tomorrow",
                nights="1 night",
                guests="3 guests",
            ),
            ex(
                "reserve a stay in Recife on the 20th for five nights with breakfast",
                city_text="Recife",
                check_in="the 20th",
                nights="five nights",
                breakfast=True,
            ),
        ],
    }
)
service.add_goal(
    {
        "goal": "CANCEL_BOOKING",
        "description": {"pt": "Cancelar uma reserva de hotel", "en": "Cancel a hotel booking"},
        "entities_schema": {
            "booking_code_text": {
                "type": "string",
                "required": True,
                "description": {"pt": "O código da reserva", "en": "The booking code"},
            }
        },
        "capabilities": ["cancel_booking"],
        "examples": [
            ex("cancela a reserva HT2041", booking_code_text="HT2041"),
            ex("não vou mais viajar, cancela o hotel HT2077", booking_code_text="HT2077"),
            ex("quero cancelar minha hospedagem HT2102", booking_code_text="HT2102"),
            ex("cancel booking HT2041", booking_code_text="HT2041"),
            ex("please cancel my hotel reservation HT2077, plans changed", booking_code_text="HT2077"),
        ],
    }
)
service.add_goal(
    {
        "goal": "LIST_BOOKINGS",
        "description": {"pt": "As suas reservas de hotel", "en": "Your hotel bookings"},
        "entities_schema": {"city_text": CITY_ENTITY},
        "capabilities": ["list_bookings"],
        "examples": [
            ex("quais reservas de hotel eu tenho?"),
            ex("minhas reservas de hotel"),
            ex("tenho hotel reservado no Rio?", city_text="Rio"),
            ex("what hotel bookings do I have?"),
            ex("show my reservations"),
            ex("do I have a hotel booked in Gramado?", city_text="Gramado"),
        ],
    }
)

if __name__ == "__main__":
    serve(service)
