"""Bike and scooter rental (round-13 bench domain): rent at a station, price, end a rental.

Fake, deterministic, in memory.
Run: ``python -m bench.understanding.round13.domains.bike_rental --port 8501``.
"""

from __future__ import annotations

import re
from typing import Any

from bench.understanding.round13.domains._common import (
    ex,
    language,
    lookup_spec,
    read_day,
    read_time,
    resolve_loose,
    say,
    today,
)
from sdk.service import DomainService, clarify, fail, option, serve
from shared.models import DomainOutput, ExecutionIntent

#: stations (canonical name <- other ways people write it)
STATIONS: dict[str, list[str]] = {
    "Estação Ibirapuera": ["ibirapuera", "parque ibirapuera", "ibira", "ibirapuera park"],
    "Estação Paulista": ["paulista", "av paulista", "avenida paulista", "paulista avenue"],
    "Estação Vila Madalena": ["vila madalena", "vila mada", "vl madalena", "madalena"],
    "Estação Praça da Sé": ["praça da sé", "sé", "praca da se", "marco zero", "se square"],
}
#: vehicles (enum value <- synonyms)
VEHICLES: dict[str, list[str]] = {
    "BIKE": [
        "bike comum",
        "bicicleta",
        "bicicletas",
        "bike",
        "bikes",
        "magrela",
        "bici",
        "bicycle",
        "regular bike",
    ],
    "EBIKE": [
        "bike elétrica",
        "bicicleta elétrica",
        "bikes elétricas",
        "e-bike",
        "ebike",
        "e-bikes",
        "electric bike",
        "electric bicycle",
    ],
    "SCOOTER": [
        "patinete",
        "patinete elétrico",
        "patinetes",
        "patins elétrico",
        "scooter",
        "e-scooter",
        "scooters",
        "kick scooter",
    ],
}
#: price per hour, in BRL
RATES: dict[str, int] = {"BIKE": 8, "EBIKE": 15, "SCOOTER": 20}
MIN_MINUTES, MAX_MINUTES = 30, 480
#: rentals (code -> vehicle, station, still running)
RENTALS: dict[str, tuple[str, str, bool]] = {
    "RB4101": ("BIKE", "Estação Paulista", True),
    "RB4105": ("SCOOTER", "Estação Ibirapuera", True),
    "RB4110": ("EBIKE", "Estação Vila Madalena", False),
}
_next = [4200]

service = DomainService(
    "bike_rental",
    "0.1.0",
    {
        "pt": "Aluguel de bikes e patinetes: alugar numa estação, preço, encerrar o aluguel",
        "en": "Bike and scooter rental: rent at a station, price, end a rental",
    },
)


def _minutes(value: object) -> int | None:
    m = re.fullmatch(r"PT?(?:(\d+)H)?(?:(\d+)M)?", str(value or "").upper())
    if not m or not any(m.groups()):
        return None
    h, mi = (int(g or 0) for g in m.groups())
    return h * 60 + mi


def _code(value: object) -> str:
    return re.sub(r"[\s#-]", "", str(value or "")).upper()


def _station(lang: str, words: object) -> tuple[str | None, DomainOutput | None]:
    station = resolve_loose(words, STATIONS)
    if station is None:
        return None, clarify(
            say(lang, f"Não temos a estação “{words}”. Qual delas?", "Which station?"),
            [option(s, s, aliases=STATIONS[s]) for s in STATIONS],
            param="station_text",
        )
    return station, None


@service.capability(
    "rent_bike",
    {
        "pt": "Aluga uma bike ou patinete numa estação (agora, se não disser o dia)",
        "en": "Rent a bike or scooter at a station (now, unless a day is said)",
    },
    parameters={
        "type": "object",
        "properties": {
            "station_text": {"type": "string", "minLength": 1},
            "vehicle": {"type": "string", "enum": list(VEHICLES)},
            "duration": {"type": "string"},
            "day": {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"},
            "time": {"type": "string", "pattern": "^\\d{2}:\\d{2}$"},
        },
        "required": ["station_text", "vehicle", "duration"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["alugar bike", "alugar patinete", "rent a bike", "rent a scooter"],
            "examples": ["quero alugar uma bike", "rent an e-bike for an hour"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def rent_bike(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    station, question = _station(lang, p.get("station_text"))
    if question is not None:
        return question
    assert station is not None
    vehicle = str(p.get("vehicle") or "").upper()
    minutes = _minutes(p.get("duration"))
    day = read_day(p.get("day")) or today()
    start = read_time(p.get("time"))
    if vehicle not in RATES or minutes is None:
        return fail(
            say(lang, "Falta o veículo ou o tempo.", "The vehicle or duration is missing."),
            "missing_parameter",
        )
    if day < today():
        return fail(say(lang, "Esse dia já passou.", "That day is past."), "past_day")
    if not MIN_MINUTES <= minutes <= MAX_MINUTES:
        fix = "PT30M" if minutes < MIN_MINUTES else "PT8H"
        return fail(
            say(lang, "Um aluguel vai de 30 minutos a 8 horas.", "A rental lasts 30 minutes to 8 hours."),
            "bad_duration",
            recoverable=True,
            suggestions=[{"duration": fix}],
        )
    _next[0] += 1
    code = f"RB{_next[0]}"
    RENTALS[code] = (vehicle, station, True)
    price = RATES[vehicle] * minutes / 60
    when = f"{day:%d/%m}" + (f" {start}" if start else "")
    return DomainOutput(
        status="success",
        result={
            "code": code,
            "station": station,
            "vehicle": vehicle,
            "day": day.isoformat(),
            "time": start,
            "minutes": minutes,
            "price": {"amount": price, "currency": "BRL"},
        },
        explanation=say(
            lang,
            f"Aluguel {code}: {vehicle.lower()} na {station}, {when}, {minutes} min, R$ {price:.2f}.",
            f"Rental {code}: {vehicle.lower()} at {station}, {when}, {minutes} min, R$ {price:.2f}.",
        ),
    )


@service.capability(
    "rental_price",
    {"pt": "Diz o preço do aluguel", "en": "Tell the rental price"},
    parameters={
        "type": "object",
        "properties": {
            "vehicle": {"type": "string", "enum": list(VEHICLES)},
            "duration": {"type": "string"},
        },
        "required": ["vehicle"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["preço do aluguel", "quanto custa a bike", "rental price"],
            "examples": ["quanto custa alugar um patinete?", "how much is a bike per hour?"],
        },
        "policy": {"read_only": True},
    },
)
def rental_price(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    vehicle = str(p.get("vehicle") or "").upper()
    if vehicle not in RATES:
        return fail(say(lang, "Qual veículo?", "Which vehicle?"), "missing_parameter")
    minutes = _minutes(p.get("duration")) or 60
    price = RATES[vehicle] * minutes / 60
    return DomainOutput(
        status="success",
        result={"vehicle": vehicle, "minutes": minutes, "price": {"amount": price, "currency": "BRL"}},
        explanation=say(
            lang,
            f"{vehicle.lower()} por {minutes} min: R$ {price:.2f}.",
            f"{vehicle.lower()} for {minutes} min: R$ {price:.2f}.",
        ),
    )


@service.capability(
    "end_rental",
    {"pt": "Encerra um aluguel", "en": "End a rental"},
    parameters={
        "type": "object",
        "properties": {
            "rental_text": {"type": "string", "minLength": 1},
            "station_text": {"type": "string"},
        },
        "required": ["rental_text"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["encerrar aluguel", "devolver a bike", "end my rental", "return the bike"],
            "examples": ["encerra meu aluguel", "end my scooter rental"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def end_rental(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    code = _code(p.get("rental_text"))
    rental = RENTALS.get(code)
    if rental is None:
        return fail(say(lang, f"Não achei o aluguel {code}.", f"No rental {code}."), "not_found")
    vehicle, station, running = rental
    if not running:
        return fail(
            say(lang, f"O aluguel {code} já foi encerrado.", f"Rental {code} already ended."), "already_ended"
        )
    back = station
    if p.get("station_text"):
        named, question = _station(lang, p.get("station_text"))
        if question is not None:
            return question
        assert named is not None
        back = named
    RENTALS[code] = (vehicle, back, False)
    return DomainOutput(
        status="success",
        result={"code": code, "station": back},
        explanation=say(lang, f"Aluguel {code} encerrado na {back}.", f"Rental {code} ended at {back}."),
    )


STATION_ENTITY: dict[str, Any] = {
    "type": "string",
    "description": {"pt": "A estação", "en": "The station"},
    "lookup": lookup_spec(STATIONS),
}
VEHICLE_ENTITY: dict[str, Any] = {
    "type": "enum",
    "required": True,
    "values": list(VEHICLES),
    "synonyms": VEHICLES,
    "description": {"pt": "Bike, bike elétrica ou patinete", "en": "Bike, e-bike or scooter"},
}
DURATION = {"pt": "Por quanto tempo", "en": "For how long"}

service.add_goal(
    {
        "goal": "RENT_BIKE",
        "description": {"pt": "Alugar uma bike ou patinete", "en": "Rent a bike or scooter"},
        "entities_schema": {
            "station_text": {**STATION_ENTITY, "required": True},
            "vehicle": VEHICLE_ENTITY,
            "duration": {"type": "duration", "required": True, "description": DURATION},
            "day": {"type": "date", "description": {"pt": "O dia", "en": "The day"}},
            "time": {"type": "time", "description": {"pt": "A hora de retirada", "en": "Pick-up time"}},
        },
        "capabilities": ["rent_bike"],
        "examples": [
            ex(
                "aluga uma bike na estação paulista por 2 horas",
                station_text="paulista",
                vehicle="BIKE",
                duration="2 horas",
            ),
            ex(
                "quero um patinete no ibirapuera amanhã às 10h por 1 hora",
                station_text="ibirapuera",
                vehicle="SCOOTER",
                day="amanhã",
                time="às 10h",
                duration="1 hora",
            ),
            ex(
                "bicicleta elétrica na vila madalena por meia hora",
                station_text="vila madalena",
                vehicle="EBIKE",
                duration="meia hora",
            ),
            ex(
                "rent a bike at Paulista station for 3 hours",
                station_text="Paulista",
                vehicle="BIKE",
                duration="3 hours",
            ),
            ex(
                "I need an e-bike at Ibirapuera on Saturday at 9am for 2 hours",
                station_text="Ibirapuera",
                vehicle="EBIKE",
                day="Saturday",
                time="9am",
                duration="2 hours",
            ),
        ],
    }
)
service.add_goal(
    {
        "goal": "RENTAL_PRICE",
        "description": {"pt": "Preço do aluguel de bike ou patinete", "en": "Bike or scooter rental price"},
        "entities_schema": {
            "vehicle": VEHICLE_ENTITY,
            "duration": {"type": "duration", "description": DURATION},
        },
        "capabilities": ["rental_price"],
        "examples": [
            ex("quanto custa a bike elétrica por 2 horas?", vehicle="EBIKE", duration="2 horas"),
            ex("preço do patinete", vehicle="SCOOTER"),
            ex("how much is a regular bike for 1 hour?", vehicle="BIKE", duration="1 hour"),
            ex("scooter rental price", vehicle="SCOOTER"),
        ],
    }
)
service.add_goal(
    {
        "goal": "END_RENTAL",
        "description": {"pt": "Encerrar o aluguel", "en": "End a rental"},
        "entities_schema": {
            "rental_text": {
                "type": "string",
                "required": True,
                "description": {"pt": "O código do aluguel", "en": "The rental code"},
            },
            "station_text": STATION_ENTITY,
        },
        "capabilities": ["end_rental"],
        "examples": [
            ex("encerra o aluguel RB4101", rental_text="RB4101"),
            ex("devolvi a bike RB4105 na estação da sé", rental_text="RB4105", station_text="sé"),
            ex("end rental RB4110", rental_text="RB4110"),
            ex("finish my rental RB4101 at Paulista", rental_text="RB4101", station_text="Paulista"),
        ],
    }
)

if __name__ == "__main__":
    serve(service)
