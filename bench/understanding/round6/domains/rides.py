"""Rides (round-6 bench domain): book a ride, cancel a ride, estimate a fare.

Fake, deterministic, in memory. Run: ``python -m bench.understanding.round6.domains.rides --port 8162``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import timedelta
from math import hypot
from typing import Any

from bench.understanding.round6.domains._common import (
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

#: the person's saved places and the neighbourhoods served (canonical name <- other ways people write it)
PLACES: dict[str, list[str]] = {
    "Casa": ["casa", "minha casa", "home", "my place", "my house"],
    "Trabalho": ["trabalho", "escritório", "escritorio", "firma", "work", "office", "the office"],
    "Casa da Mãe": ["casa da minha mãe", "casa da mae", "casa da mãe", "mom's place", "my mom's house"],
    "Academia": ["academia", "gym", "the gym"],
    "Aeroporto de Guarulhos": ["aeroporto", "GRU", "Guarulhos", "Cumbica", "airport", "the airport"],
    "Aeroporto de Congonhas": ["Congonhas", "CGH", "aeroporto de congonhas", "Congonhas airport"],
    "Rodoviária Tietê": [
        "rodoviária",
        "rodoviaria",
        "Tietê",
        "terminal Tietê",
        "bus station",
        "bus terminal",
    ],
    "Avenida Paulista": ["Paulista", "av paulista", "avenida paulista", "Paulista Avenue"],
    "Pinheiros": ["Largo da Batata", "Pinheiros SP"],
    "Vila Madalena": ["Vila Madá", "Vila Mada"],
    "Moema": ["Moema SP"],
    "Centro": ["centro", "centro da cidade", "downtown", "city center"],
    "Ibirapuera": ["Parque Ibirapuera", "Ibira", "Ibirapuera park"],
}
#: where each place is, in km on a flat map of the city
WHERE: dict[str, tuple[float, float]] = {
    "Casa": (0.0, 0.0),
    "Trabalho": (6.0, 3.0),
    "Casa da Mãe": (-4.0, 7.0),
    "Academia": (1.0, 1.0),
    "Aeroporto de Guarulhos": (18.0, 22.0),
    "Aeroporto de Congonhas": (4.0, -7.0),
    "Rodoviária Tietê": (8.0, 10.0),
    "Avenida Paulista": (5.0, 2.0),
    "Pinheiros": (-1.0, 2.0),
    "Vila Madalena": (-2.0, 3.0),
    "Moema": (5.0, -4.0),
    "Centro": (8.0, 6.0),
    "Ibirapuera": (4.0, -2.0),
}
RIDE_TYPES = ["ECONOMY", "COMFORT", "XL"]
RIDE_SYNONYMS: dict[str, list[str]] = {
    "ECONOMY": ["econômico", "economico", "o mais barato", "básico", "economy", "cheapest", "standard"],
    "COMFORT": ["comfort", "conforto", "confortável", "executivo", "sedan", "premium", "comfy"],
    "XL": ["xl", "carro grande", "van", "minivan", "big car", "bigger car", "six seater"],
}
#: (base fare, per km, seats) in BRL
FARES: dict[str, tuple[float, float, int]] = {
    "ECONOMY": (5.0, 2.0, 4),
    "COMFORT": (7.0, 2.8, 4),
    "XL": (9.0, 3.4, 6),
}
MAX_DAYS_AHEAD = 7


def _fare(pickup: str, dropoff: str, kind: str) -> float:
    (x1, y1), (x2, y2) = WHERE[pickup], WHERE[dropoff]
    km = round(hypot(x2 - x1, y2 - y1) * 1.3, 1)
    base, per_km, _ = FARES[kind]
    return round(base + per_km * km, 2)


@dataclass
class Ride:
    code: str
    pickup: str
    dropoff: str
    day: str
    time: str
    ride_type: str = "ECONOMY"
    passengers: int = 1
    status: str = "scheduled"  # scheduled, driver_on_the_way, done

    def describe(self, lang: str = "pt") -> str:
        return say(
            lang,
            f"{self.code}: {self.pickup} → {self.dropoff}, {self.day} "
            + (f"às {self.time}" if self.time else "agora")
            + f", {self.ride_type}",
            f"{self.code}: {self.pickup} → {self.dropoff}, {self.day} "
            + (f"at {self.time}" if self.time else "now")
            + f", {self.ride_type}",
        )


RIDES: dict[str, Ride] = {
    r.code: r
    for r in (
        Ride("RD8812", "Casa", "Aeroporto de Guarulhos", "2026-03-11", "05:30", "COMFORT", 2),
        Ride("RD8830", "Trabalho", "Casa", "2026-03-13", "18:00"),
        Ride("RD8845", "Casa", "Trabalho", "2026-03-10", "08:40", status="driver_on_the_way"),
        Ride("RD8790", "Rodoviária Tietê", "Casa", "2026-03-08", "22:10", status="done"),
        Ride("RD8851", "Casa", "Casa da Mãe", "2026-03-15", "11:00", "XL", 5),
    )
}
_next_code = [9000]

service = DomainService(
    "rides",
    "0.1.0",
    {
        "pt": "Corridas de carro: pedir ou agendar uma corrida, cancelar e estimar o preço",
        "en": "Rides: book or schedule a ride, cancel it and estimate the fare",
    },
)


def _place_entity(pt: str, en: str) -> dict[str, Any]:
    return {"type": "string", "description": {"pt": pt, "en": en}, "lookup": lookup_spec(PLACES)}


RIDE_TYPE_ENTITY: dict[str, Any] = {
    "type": "enum",
    "values": RIDE_TYPES,
    "synonyms": RIDE_SYNONYMS,
    "description": {"pt": "A categoria do carro", "en": "The ride category"},
}


def _unknown_place(lang: str, param: str) -> DomainOutput:
    where = (
        say(lang, "de partida", "pickup") if param == "pickup_text" else say(lang, "de destino", "drop-off")
    )
    return clarify(
        say(
            lang,
            f"Não conheço esse local {where}. Qual destes?",
            f"I don't know that {where} place. Which of these?",
        ),
        [option(p, p, aliases=a) for p, a in PLACES.items()],
        param=param,
        metadata={"resolution": "unknown_place"},
    )


def _places(intent: ExecutionIntent, lang: str) -> tuple[str, str] | DomainOutput:
    p = intent.parameters
    pickup = resolve_loose(p.get("pickup_text"), PLACES)
    if pickup is None:
        return _unknown_place(lang, "pickup_text")
    dropoff = resolve_loose(p.get("dropoff_text"), PLACES)
    if dropoff is None:
        return _unknown_place(lang, "dropoff_text")
    if pickup == dropoff:
        return fail(
            say(
                lang,
                "A partida e o destino são o mesmo lugar.",
                "The pickup and the drop-off are the same place.",
            ),
            "same_place",
        )
    return pickup, dropoff


def _ride_type(value: object) -> str:
    text = str(value or "").strip().upper()
    return text if text in RIDE_TYPES else "ECONOMY"


@service.capability(
    "book_ride",
    {"pt": "Chama ou agenda uma corrida", "en": "Book a ride"},
    parameters={
        "type": "object",
        "properties": {
            "pickup_text": {"type": "string", "minLength": 1},
            "dropoff_text": {"type": "string", "minLength": 1},
            "time": {"type": "string", "pattern": "^\\d{2}:\\d{2}$"},
            "day": {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"},
            "passengers": {"type": "number", "minimum": 1},
            "ride_type": {"type": "string", "enum": RIDE_TYPES},
        },
        "required": ["pickup_text", "dropoff_text"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["corrida", "carro", "motorista", "me buscar", "ride", "car", "driver", "pick me up"],
            "examples": ["preciso de um carro", "I need a ride"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def book_ride(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    places = _places(intent, lang)
    if isinstance(places, DomainOutput):
        return places
    pickup, dropoff = places
    day = read_day(p.get("day")) or today()
    time = read_time(p.get("time"))
    if day < today():
        return fail(say(lang, "Esse dia já passou.", "That day has passed."), "past_day")
    if day > today() + timedelta(days=MAX_DAYS_AHEAD):
        last = today() + timedelta(days=MAX_DAYS_AHEAD)
        return fail(
            say(
                lang,
                f"Agendamos corridas com até {MAX_DAYS_AHEAD} dias de antecedência (até {last.isoformat()}).",
                f"Rides can be scheduled up to {MAX_DAYS_AHEAD} days ahead (until {last.isoformat()}).",
            ),
            "too_far_ahead",
        )
    kind = _ride_type(p.get("ride_type"))
    passengers = read_number(p.get("passengers")) or 1
    if passengers > FARES["XL"][2]:
        return fail(
            say(
                lang,
                f"O maior carro leva {FARES['XL'][2]} passageiros; peça duas corridas.",
                f"The biggest car takes {FARES['XL'][2]} passengers; book two rides.",
            ),
            "too_many_passengers",
        )
    if passengers > FARES[kind][2]:
        return fail(
            say(
                lang,
                f"Um carro {kind} leva {FARES[kind][2]} passageiros; o XL leva até {FARES['XL'][2]}.",
                f"A {kind} car takes {FARES[kind][2]} passengers; an XL takes up to {FARES['XL'][2]}.",
            ),
            "too_many_passengers_for_type",
            recoverable=True,
            suggestions=[{"ride_type": "XL"}],
        )
    _next_code[0] += 1
    ride = Ride(f"RD{_next_code[0]}", pickup, dropoff, day.isoformat(), time or "", kind, passengers)
    RIDES[ride.code] = ride
    fare = _fare(pickup, dropoff, kind)
    now = time is None and day == today()
    return DomainOutput(
        status="success",
        result=asdict(ride) | {"fare_brl": fare, "now": now},
        explanation=say(
            lang,
            ("Motorista a caminho, chega em 6 min — " if now else "Corrida agendada — ")
            + f"{ride.describe(lang)}, R$ {fare:.2f}. Código {ride.code}.",
            ("Driver on the way, 6 min out — " if now else "Ride scheduled — ")
            + f"{ride.describe(lang)}, R$ {fare:.2f}. Your code is {ride.code}.",
        ),
    )


@service.capability(
    "cancel_ride",
    {"pt": "Cancela uma corrida", "en": "Cancel a ride"},
    parameters={
        "type": "object",
        "properties": {"ride_code_text": {"type": "string", "minLength": 1}},
        "required": ["ride_code_text"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["cancelar corrida", "cancela o carro", "cancel ride", "cancel my ride"]
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def cancel_ride(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    code = code_of(intent.parameters.get("ride_code_text"), "RD")
    ride = RIDES.get(code)
    if ride is None:
        return fail(say(lang, f"Não achei a corrida {code}.", f"No ride {code}."), "ride_not_found")
    if ride.status == "done":
        return fail(say(lang, f"A corrida {code} já aconteceu.", f"The ride {code} is over."), "ride_over")
    if ride.status == "driver_on_the_way":
        return fail(
            say(
                lang,
                f"O motorista da {code} já está a caminho: cancelar agora custa R$ 7,00. Cancele pelo app.",
                f"The driver of {code} is already on the way: cancelling now costs R$ 7.00. Use the app.",
            ),
            "driver_on_the_way",
        )
    RIDES.pop(code)
    return DomainOutput(
        status="success",
        result={"code": code, "cancelled": True},
        explanation=say(
            lang,
            f"Corrida cancelada, sem taxa — {ride.describe(lang)}.",
            f"Cancelled, no fee — {ride.describe(lang)}.",
        ),
    )


@service.capability(
    "ride_estimate",
    {"pt": "Estima o preço de uma corrida", "en": "Estimate a ride's fare"},
    parameters={
        "type": "object",
        "properties": {
            "pickup_text": {"type": "string", "minLength": 1},
            "dropoff_text": {"type": "string", "minLength": 1},
            "ride_type": {"type": "string", "enum": RIDE_TYPES},
        },
        "required": ["pickup_text", "dropoff_text"],
    },
    metadata={
        "intent_hints": {"keywords": ["quanto fica a corrida", "preço da corrida", "fare", "ride estimate"]},
        "policy": {"read_only": True},
    },
)
def ride_estimate(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    places = _places(intent, lang)
    if isinstance(places, DomainOutput):
        return places
    pickup, dropoff = places
    said = intent.parameters.get("ride_type")
    kinds = [_ride_type(said)] if said else RIDE_TYPES
    fares = {k: _fare(pickup, dropoff, k) for k in kinds}
    text = "; ".join(f"{k} R$ {v:.2f}" for k, v in fares.items())
    return DomainOutput(
        status="success",
        result={
            "pickup": pickup,
            "dropoff": dropoff,
            "fares": {k: {"amount": v, "currency": "BRL"} for k, v in fares.items()},
        },
        explanation=say(
            lang,
            f"{pickup} → {dropoff}, estimativa: {text}.",
            f"{pickup} → {dropoff}, estimated fare: {text}.",
        ),
    )


service.add_goal(
    {
        "goal": "BOOK_RIDE",
        "description": {"pt": "Chamar ou agendar uma corrida de carro", "en": "Book or schedule a car ride"},
        "entities_schema": {
            "pickup_text": _place_entity("O local de partida", "The pickup place") | {"required": True},
            "dropoff_text": _place_entity("O destino", "The drop-off place") | {"required": True},
            "time": {"type": "time", "description": {"pt": "O horário", "en": "The time"}},
            "day": {"type": "date", "description": {"pt": "O dia", "en": "The day"}},
            "passengers": {
                "type": "number",
                "description": {"pt": "Quantos passageiros", "en": "How many passengers"},
            },
            "ride_type": RIDE_TYPE_ENTITY,
        },
        "capabilities": ["book_ride"],
        "examples": [
            ex("chama um carro de casa pro trabalho", pickup_text="casa", dropoff_text="trabalho"),
            ex(
                "agenda uma corrida do trabalho para o aeroporto amanhã às 6h",
                pickup_text="trabalho",
                dropoff_text="aeroporto",
                day="amanhã",
                time="às 6h",
            ),
            ex(
                "preciso de um carro grande da rodoviária pra casa, 5 pessoas",
                pickup_text="rodoviária",
                dropoff_text="casa",
                ride_type="XL",
                passengers="5 pessoas",
            ),
            ex(
                "corrida comfort de Pinheiros para Moema sexta às 20h",
                pickup_text="Pinheiros",
                dropoff_text="Moema",
                ride_type="COMFORT",
                day="sexta",
                time="às 20h",
            ),
            ex(
                "me leva da academia pra casa da minha mãe",
                pickup_text="academia",
                dropoff_text="casa da minha mãe",
            ),
            ex("book a ride from home to the office", pickup_text="home", dropoff_text="the office"),
            ex(
                "schedule a car from work to GRU tomorrow at 5am",
                pickup_text="work",
                dropoff_text="GRU",
                day="tomorrow",
                time="at 5am",
            ),
            ex(
                "get me an XL from the airport to downtown for 6 passengers",
                pickup_text="the airport",
                dropoff_text="downtown",
                ride_type="XL",
                passengers="6 passengers",
            ),
            ex(
                "I need a ride from Vila Madalena to Paulista on Saturday at 9pm",
                pickup_text="Vila Madalena",
                dropoff_text="Paulista",
                day="Saturday",
                time="at 9pm",
            ),
        ],
    }
)
service.add_goal(
    {
        "goal": "CANCEL_RIDE",
        "description": {"pt": "Cancelar uma corrida", "en": "Cancel a ride"},
        "entities_schema": {
            "ride_code_text": {
                "type": "string",
                "required": True,
                "description": {"pt": "O código da corrida", "en": "The ride code"},
            }
        },
        "capabilities": ["cancel_ride"],
        "examples": [
            ex("cancela a corrida RD8812", ride_code_text="RD8812"),
            ex("não preciso mais do carro, cancela a RD8830", ride_code_text="RD8830"),
            ex("quero cancelar a corrida agendada RD8851", ride_code_text="RD8851"),
            ex("cancel ride RD8812", ride_code_text="RD8812"),
            ex("please cancel my scheduled ride RD8830, plans changed", ride_code_text="RD8830"),
        ],
    }
)
service.add_goal(
    {
        "goal": "RIDE_ESTIMATE",
        "description": {"pt": "Quanto custa uma corrida", "en": "How much a ride costs"},
        "entities_schema": {
            "pickup_text": _place_entity("O local de partida", "The pickup place") | {"required": True},
            "dropoff_text": _place_entity("O destino", "The drop-off place") | {"required": True},
            "ride_type": RIDE_TYPE_ENTITY,
        },
        "capabilities": ["ride_estimate"],
        "examples": [
            ex(
                "quanto fica uma corrida de casa até o aeroporto?",
                pickup_text="casa",
                dropoff_text="aeroporto",
            ),
            ex(
                "qual o preço de um comfort do trabalho pra Congonhas?",
                pickup_text="trabalho",
                dropoff_text="Congonhas",
                ride_type="COMFORT",
            ),
            ex(
                "estimativa de corrida da Paulista pra Vila Madalena",
                pickup_text="Paulista",
                dropoff_text="Vila Madalena",
            ),
            ex(
                "how much is a ride from home to the airport?", pickup_text="home", dropoff_text="the airport"
            ),
            ex(
                "fare estimate for an XL from work to the bus station",
                pickup_text="work",
                dropoff_text="the bus station",
                ride_type="XL",
            ),
            ex(
                "what would a ride from Moema to downtown cost?", pickup_text="Moema", dropoff_text="downtown"
            ),
        ],
    }
)

if __name__ == "__main__":
    serve(service)
