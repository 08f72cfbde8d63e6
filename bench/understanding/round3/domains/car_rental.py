"""Car rental (round-3 bench domain): book a car, cancel a booking, quote a price.

Fake, deterministic, in memory. Run: ``python -m bench.understanding.round3.domains.car_rental --port 8132``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from bench.understanding.round3.domains._common import (
    ex,
    language,
    lookup_spec,
    read_day,
    read_money,
    resolve,
    say,
    today,
)
from sdk.service import DomainService, clarify, fail, option, serve
from shared.models import DomainOutput, ExecutionIntent

CITIES: dict[str, list[str]] = {
    "São Paulo": ["Sao Paulo", "SP", "Sampa", "São Paulo capital"],
    "Rio de Janeiro": ["Rio", "RJ", "Rio de Janeiro capital"],
    "Belo Horizonte": ["BH", "Beagá", "Belo Horizonte MG"],
    "Florianópolis": ["Florianopolis", "Floripa", "Florianópolis SC"],
    "Curitiba": ["CWB", "Curitiba PR"],
    "Salvador": ["Salvador BA", "Salvador da Bahia"],
    "Recife": ["Recife PE"],
}
CLASSES = ["ECONOMY", "SUV", "VAN"]
CLASS_SYNONYMS: dict[str, list[str]] = {
    "ECONOMY": [
        "econômico",
        "economico",
        "compacto",
        "popular",
        "hatch",
        "carro pequeno",
        "economy",
        "compact",
        "small car",
        "cheapest",
    ],
    "SUV": ["suv", "utilitário", "utilitario", "4x4", "jipe", "sport utility"],
    "VAN": ["van", "minivan", "7 lugares", "sete lugares", "people carrier", "7 seater", "seven-seater"],
}
#: daily rate in BRL
DAILY_RATE = {"ECONOMY": 129.0, "SUV": 239.0, "VAN": 319.0}
#: no vans at the smaller branches
NO_VANS = {"Florianópolis", "Recife"}


@dataclass
class Booking:
    code: str
    city: str
    pickup_day: str
    return_day: str
    car_class: str

    def describe(self) -> str:
        return f"{self.code}: {self.car_class}, {self.city}, {self.pickup_day} → {self.return_day}"


BOOKINGS: dict[str, Booking] = {
    b.code: b
    for b in (
        Booking("CR7781", "Rio de Janeiro", "2026-03-13", "2026-03-15", "SUV"),
        Booking("CR8020", "São Paulo", "2026-03-20", "2026-03-22", "ECONOMY"),
        Booking("CR9133", "Curitiba", "2026-04-02", "2026-04-05", "VAN"),
    )
}
_next_code = [9500]

service = DomainService(
    "car_rental",
    "0.1.0",
    {
        "pt": "Aluguel de carros: reservas, cancelamentos e preços",
        "en": "Car rental: bookings, cancellations and prices",
    },
)

CITY_ENTITY: dict[str, Any] = {
    "type": "string",
    "description": {"pt": "A cidade de retirada", "en": "The pickup city"},
    "lookup": lookup_spec(CITIES),
}
CLASS_ENTITY: dict[str, Any] = {
    "type": "enum",
    "values": CLASSES,
    "synonyms": CLASS_SYNONYMS,
    "description": {"pt": "A categoria do carro", "en": "The car class"},
}


def _days(p: dict[str, Any], lang: str) -> tuple[Any, Any, DomainOutput | None]:
    start, end = read_day(p.get("pickup_day")), read_day(p.get("return_day"))
    if start is not None and start < today():
        return start, end, fail(say(lang, "A retirada já passou.", "That pickup day has passed."), "past_day")
    if start is not None and end is not None and end <= start:
        return (
            start,
            end,
            fail(
                say(
                    lang,
                    "A devolução precisa ser depois da retirada.",
                    "The return must be after the pickup.",
                ),
                "return_before_pickup",
            ),
        )
    return start, end, None


@service.capability(
    "book_car",
    {"pt": "Reserva um carro de aluguel", "en": "Book a rental car"},
    parameters={
        "type": "object",
        "properties": {
            "pickup_city_text": {"type": "string", "minLength": 1},
            "pickup_day": {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"},
            "return_day": {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"},
            "car_class": {"type": "string", "enum": CLASSES},
        },
        "required": ["pickup_city_text", "pickup_day", "return_day", "car_class"],
    },
    metadata={
        "intent_hints": {
            "keywords": [
                "alugar carro",
                "aluguel de carro",
                "locação",
                "rent a car",
                "car rental",
                "rental car",
            ],
            "examples": ["quero alugar um carro", "I want to rent a car"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def book_car(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    city = resolve(p.get("pickup_city_text"), CITIES)
    if city is None:
        return clarify(
            say(
                lang,
                "Não temos loja nessa cidade. Em qual destas?",
                "We have no branch there. Which of these?",
            ),
            [option(n, n, aliases=a) for n, a in CITIES.items()],
            param="pickup_city_text",
            metadata={"resolution": "unknown_city"},
        )
    start, end, problem = _days(p, lang)
    if problem is not None:
        return problem
    if start is None or end is None:
        return fail(say(lang, "Faltam as datas.", "The dates are missing."), "missing_parameter")
    car_class = str(p.get("car_class", "")).upper()
    if car_class == "VAN" and city in NO_VANS:
        return fail(
            say(lang, f"Não há vans em {city}.", f"No vans in {city}."),
            "class_unavailable",
            recoverable=True,
            suggestions=[{"car_class": "SUV"}],
        )
    _next_code[0] += 1
    booking = Booking(f"CR{_next_code[0]}", city, start.isoformat(), end.isoformat(), car_class)
    BOOKINGS[booking.code] = booking
    total = DAILY_RATE[car_class] * (end - start).days
    return DomainOutput(
        status="success",
        result=asdict(booking) | {"total_brl": total},
        explanation=say(
            lang,
            f"Reservado — {booking.describe()}, R$ {total:.2f}.",
            f"Booked — {booking.describe()}, R$ {total:.2f}.",
        ),
    )


@service.capability(
    "cancel_booking",
    {"pt": "Cancela uma reserva de carro", "en": "Cancel a car booking"},
    parameters={
        "type": "object",
        "properties": {"booking_code_text": {"type": "string", "minLength": 1}},
        "required": ["booking_code_text"],
    },
    metadata={
        "intent_hints": {"keywords": ["cancelar reserva do carro", "cancel car booking", "cancel rental"]},
        "policy": {"confirm": True, "idempotent": False},
    },
)
def cancel_booking(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    code = "".join(ch for ch in str(intent.parameters.get("booking_code_text", "")).upper() if ch.isalnum())
    if code.isdigit():
        code = f"CR{code}"
    booking = BOOKINGS.pop(code, None)
    if booking is None:
        return fail(say(lang, f"Não achei a reserva {code}.", f"No booking {code}."), "booking_not_found")
    return DomainOutput(
        status="success",
        result={"code": code, "cancelled": True},
        explanation=say(
            lang, f"Reserva cancelada — {booking.describe()}.", f"Cancelled — {booking.describe()}."
        ),
    )


@service.capability(
    "quote_price",
    {"pt": "Calcula o preço de um aluguel", "en": "Quote a rental price"},
    parameters={
        "type": "object",
        "properties": {
            "pickup_city_text": {"type": "string"},
            "pickup_day": {"type": "string"},
            "return_day": {"type": "string"},
            "car_class": {"type": "string", "enum": CLASSES},
            "budget": {"type": "object"},
        },
    },
    metadata={
        "intent_hints": {"keywords": ["quanto custa alugar", "diária", "how much to rent", "daily rate"]}
    },
)
def quote_price(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    start, end, problem = _days(p, lang)
    if problem is not None:
        return problem
    days = (end - start).days if start and end else 1
    wanted = str(p.get("car_class", "")).upper()
    classes = [wanted] if wanted in DAILY_RATE else CLASSES
    budget = read_money(p.get("budget"))
    if budget is not None:
        classes = [c for c in classes if DAILY_RATE[c] <= budget[0]]
    quotes = {c: DAILY_RATE[c] * days for c in classes}
    unit = say(lang, f"{days} diária(s)", f"{days} day(s)")
    text = "\n".join(f"{c}: R$ {v:.2f} ({unit})" for c, v in quotes.items()) or say(
        lang, "Nenhuma categoria cabe nesse valor.", "No class fits that budget."
    )
    return DomainOutput(status="success", result={"days": days, "quotes_brl": quotes}, explanation=text)


service.add_goal(
    {
        "goal": "BOOK_CAR",
        "description": {"pt": "Alugar um carro", "en": "Rent a car"},
        "entities_schema": {
            "pickup_city_text": CITY_ENTITY | {"required": True},
            "pickup_day": {
                "type": "date",
                "required": True,
                "description": {"pt": "O dia da retirada", "en": "The pickup day"},
            },
            "return_day": {
                "type": "date",
                "required": True,
                "description": {"pt": "O dia da devolução", "en": "The return day"},
            },
            "car_class": CLASS_ENTITY | {"required": True},
        },
        "capabilities": ["book_car"],
        "examples": [
            ex(
                "quero alugar um SUV em Floripa de sexta a domingo",
                car_class="SUV",
                pickup_city_text="Floripa",
                pickup_day="sexta",
                return_day="domingo",
            ),
            ex(
                "aluga um carro econômico no Rio, retiro amanhã e devolvo sábado",
                car_class="ECONOMY",
                pickup_city_text="Rio",
                pickup_day="amanhã",
                return_day="sábado",
            ),
            ex(
                "reserva uma van em Curitiba do dia 20 ao dia 23",
                car_class="VAN",
                pickup_city_text="Curitiba",
                pickup_day="dia 20",
                return_day="dia 23",
            ),
            ex(
                "preciso de um carro compacto em BH, pego quinta e entrego segunda",
                car_class="ECONOMY",
                pickup_city_text="BH",
                pickup_day="quinta",
                return_day="segunda",
            ),
            ex(
                "rent an SUV in São Paulo from Friday to Monday",
                car_class="SUV",
                pickup_city_text="São Paulo",
                pickup_day="Friday",
                return_day="Monday",
            ),
            ex(
                "book an economy car in Salvador, pick up tomorrow, return on the 15th",
                car_class="ECONOMY",
                pickup_city_text="Salvador",
                pickup_day="tomorrow",
                return_day="the 15th",
            ),
            ex(
                "I need a minivan in Recife from March 18 to March 21",
                car_class="VAN",
                pickup_city_text="Recife",
                pickup_day="March 18",
                return_day="March 21",
            ),
        ],
    }
)
service.add_goal(
    {
        "goal": "CANCEL_BOOKING",
        "description": {"pt": "Cancelar uma reserva de carro", "en": "Cancel a car rental booking"},
        "entities_schema": {
            "booking_code_text": {
                "type": "string",
                "required": True,
                "description": {"pt": "O código da reserva do carro", "en": "The car booking code"},
            }
        },
        "capabilities": ["cancel_booking"],
        "examples": [
            ex("cancela a reserva do carro CR7781", booking_code_text="CR7781"),
            ex("quero cancelar o aluguel CR8020", booking_code_text="CR8020"),
            ex("desisti do carro, cancela a CR9133", booking_code_text="CR9133"),
            ex("cancel my car rental CR7781", booking_code_text="CR7781"),
            ex("please cancel rental booking CR8020", booking_code_text="CR8020"),
        ],
    }
)
service.add_goal(
    {
        "goal": "QUOTE_PRICE",
        "description": {"pt": "Quanto custa alugar um carro", "en": "How much a car rental costs"},
        "entities_schema": {
            "pickup_city_text": CITY_ENTITY,
            "pickup_day": {
                "type": "date",
                "description": {"pt": "O dia da retirada", "en": "The pickup day"},
            },
            "return_day": {
                "type": "date",
                "description": {"pt": "O dia da devolução", "en": "The return day"},
            },
            "car_class": CLASS_ENTITY,
            "budget": {
                "type": "money",
                "description": {"pt": "Quanto quer gastar por dia", "en": "Your budget per day"},
            },
        },
        "capabilities": ["quote_price"],
        "examples": [
            ex("quanto custa alugar um SUV?", car_class="SUV"),
            ex("qual a diária de uma van em Salvador?", car_class="VAN", pickup_city_text="Salvador"),
            ex(
                "quanto fica um carro econômico de sexta a domingo no Rio?",
                car_class="ECONOMY",
                pickup_day="sexta",
                return_day="domingo",
                pickup_city_text="Rio",
            ),
            ex("tem carro até R$ 150 a diária?", budget="R$ 150"),
            ex("how much is an SUV per day?", car_class="SUV"),
            ex(
                "price to rent a van in Curitiba from Friday to Sunday",
                car_class="VAN",
                pickup_city_text="Curitiba",
                pickup_day="Friday",
                return_day="Sunday",
            ),
            ex("what's the daily rate for a compact car?", car_class="ECONOMY"),
        ],
    }
)

if __name__ == "__main__":
    serve(service)
