"""Parking (round-9 bench domain): reserve a spot, pay by licence plate, a reservation's status.

Fake, deterministic, in memory.
Run: ``python -m bench.understanding.round9.domains.parking --port 8192``.
"""

from __future__ import annotations

import re
from typing import Any

from bench.understanding.round9.domains._common import (
    code_of,
    ex,
    language,
    lookup_spec,
    read_day,
    read_time,
    resolve_loose,
    say,
)
from sdk.service import DomainService, clarify, fail, option, serve
from shared.models import DomainOutput, ExecutionIntent

#: garages (canonical name <- other ways people write it)
GARAGES: dict[str, list[str]] = {
    "Garagem Paulista": ["paulista", "av paulista", "avenida paulista", "paulista garage"],
    "Garagem Shopping Eldorado": ["eldorado", "shopping eldorado", "eldorado mall"],
    "Garagem Aeroporto Congonhas": ["congonhas", "aeroporto", "airport", "cgh"],
    "Garagem Centro": ["centro", "sé", "downtown", "city centre", "city center"],
}
HOURLY_BRL = {
    "Garagem Paulista": 15,
    "Garagem Shopping Eldorado": 12,
    "Garagem Aeroporto Congonhas": 20,
    "Garagem Centro": 10,
}
OPEN, CLOSE = 6, 23
#: known reservations
RESERVATIONS: dict[str, dict[str, Any]] = {
    "PK1042": {
        "garage": "Garagem Paulista",
        "day": "2026-03-11",
        "time": "09:00",
        "hours": 3,
        "status": "confirmed",
    },
    "PK2210": {
        "garage": "Garagem Centro",
        "day": "2026-03-09",
        "time": "14:00",
        "hours": 2,
        "status": "finished",
    },
    "PK3307": {
        "garage": "Garagem Aeroporto Congonhas",
        "day": "2026-03-13",
        "time": "06:30",
        "hours": 48,
        "status": "cancelled",
    },
}
#: plates parked now with what they owe
PARKED: dict[str, float] = {"ABC1D23": 27.5, "FGH4J56": 12.0, "BRA2E19": 45.0}
PLATE = re.compile(r"^[A-Z]{3}\d[A-Z0-9]\d{2}$")
_next = [4000]

service = DomainService(
    "parking",
    "0.1.0",
    {
        "pt": "Estacionamentos: reservar vaga, pagar pela placa e ver o status da reserva",
        "en": "Parking: reserve a spot, pay by plate and see a reservation's status",
    },
)


def _hours(value: object) -> float | None:
    m = re.fullmatch(r"P(?:T)?(?:(\d+)D)?T?(?:(\d+)H)?(?:(\d+)M)?", str(value or "").upper())
    if not m or not any(m.groups()):
        return None
    d, h, mi = (int(g or 0) for g in m.groups())
    return d * 24 + h + mi / 60


@service.capability(
    "reserve_spot",
    {"pt": "Reserva uma vaga numa garagem", "en": "Reserve a spot at a garage"},
    parameters={
        "type": "object",
        "properties": {
            "garage_text": {"type": "string", "minLength": 1},
            "day": {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"},
            "start": {"type": "string", "pattern": "^\\d{2}:\\d{2}$"},
            "duration": {"type": "string"},
        },
        "required": ["garage_text", "day", "start", "duration"],
    },
    metadata={
        "intent_hints": {
            "keywords": [
                "reservar vaga",
                "vaga",
                "estacionamento",
                "garagem",
                "parking spot",
                "reserve parking",
            ],
            "examples": ["quero reservar uma vaga", "reserve a parking spot"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def reserve_spot(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    garage = resolve_loose(p.get("garage_text"), GARAGES)
    if garage is None:
        return clarify(
            say(
                lang, f"Não achei a garagem “{p.get('garage_text')}”. Qual destas?", "Which of these garages?"
            ),
            [option(g, g, aliases=GARAGES[g]) for g in GARAGES],
            param="garage_text",
        )
    day, start, hours = read_day(p.get("day")), read_time(p.get("start")), _hours(p.get("duration"))
    if day is None or start is None or hours is None:
        return fail(
            say(lang, "Falta o dia, a hora ou a duração.", "The day, time or duration is missing."),
            "missing_parameter",
        )
    hour = int(start[:2])
    if hour < OPEN or hour >= CLOSE:
        return fail(
            say(
                lang,
                f"A {garage} abre das {OPEN}h às {CLOSE}h.",
                f"{garage} is open {OPEN}:00 to {CLOSE}:00.",
            ),
            "closed",
            recoverable=True,
            suggestions=[{"start": f"{OPEN:02d}:00" if hour < OPEN else "22:00"}],
        )
    if garage == "Garagem Paulista" and day.isoformat() == "2026-03-13" and 8 <= hour < 18:
        return fail(
            say(
                lang,
                "A Garagem Paulista está lotada na sexta de dia.",
                "Garagem Paulista is full on Friday daytime.",
            ),
            "full",
            recoverable=True,
            suggestions=[{"start": "18:00"}],
        )
    _next[0] += 1
    code = f"PK{_next[0]}"
    price = HOURLY_BRL[garage] * hours
    return DomainOutput(
        status="success",
        result={
            "code": code,
            "garage": garage,
            "day": day.isoformat(),
            "start": start,
            "hours": hours,
            "price_brl": price,
        },
        explanation=say(
            lang,
            f"Vaga reservada na {garage}, {day:%d/%m} às {start}, {hours:g}h, R$ {price:.2f}. Código {code}.",
            f"Spot reserved at {garage}, {day:%b %d} at {start}, {hours:g}h, R$ {price:.2f}. Code {code}.",
        ),
    )


@service.capability(
    "pay_parking",
    {"pt": "Paga o estacionamento pela placa", "en": "Pay for parking by licence plate"},
    parameters={
        "type": "object",
        "properties": {"plate_text": {"type": "string", "minLength": 1}},
        "required": ["plate_text"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["pagar estacionamento", "placa", "pay parking", "licence plate", "license plate"],
            "examples": ["quero pagar o estacionamento", "pay my parking"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def pay_parking(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    plate = re.sub(r"[^A-Z0-9]", "", str(intent.parameters.get("plate_text") or "").upper())
    if not PLATE.match(plate):
        return fail(say(lang, f"“{plate}” não parece uma placa.", f"“{plate}” is not a plate."), "bad_plate")
    owed = PARKED.get(plate)
    if owed is None:
        return fail(
            say(
                lang,
                f"Nenhum carro com a placa {plate} está estacionado.",
                f"No car with plate {plate} is parked.",
            ),
            "not_parked",
        )
    return DomainOutput(
        status="success",
        result={"plate": plate, "paid_brl": owed},
        explanation=say(
            lang,
            f"Pago: R$ {owed:.2f} pela placa {plate}. Saída liberada por 15 minutos.",
            f"Paid R$ {owed:.2f} for plate {plate}. You have 15 minutes to leave.",
        ),
    )


@service.capability(
    "reservation_status",
    {"pt": "Status de uma reserva", "en": "A reservation's status"},
    parameters={
        "type": "object",
        "properties": {"code_text": {"type": "string", "minLength": 1}},
        "required": ["code_text"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["status da reserva", "minha reserva", "reservation status", "booking status"],
            "examples": ["como está minha reserva?", "what's the status of my reservation?"],
        },
        "policy": {"read_only": True},
    },
)
def reservation_status(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    code = code_of(intent.parameters.get("code_text"), "PK")
    r = RESERVATIONS.get(code)
    if r is None:
        return fail(
            say(lang, f"Não achei a reserva {code}.", f"I couldn't find reservation {code}."), "not_found"
        )
    names = {
        "confirmed": ("confirmada", "confirmed"),
        "finished": ("encerrada", "finished"),
        "cancelled": ("cancelada", "cancelled"),
    }
    state = names[r["status"]][0 if lang == "pt" else 1]
    return DomainOutput(
        status="success",
        result={"code": code} | r,
        explanation=say(
            lang,
            f"Reserva {code}: {state} — {r['garage']}, {r['day']} às {r['time']}, {r['hours']}h.",
            f"Reservation {code}: {state} — {r['garage']}, {r['day']} at {r['time']}, {r['hours']}h.",
        ),
    )


service.add_goal(
    {
        "goal": "RESERVE_SPOT",
        "description": {"pt": "Reservar uma vaga de estacionamento", "en": "Reserve a parking spot"},
        "entities_schema": {
            "garage_text": {
                "type": "string",
                "required": True,
                "description": {"pt": "A garagem", "en": "The garage"},
                "lookup": lookup_spec(GARAGES),
            },
            "day": {"type": "date", "required": True, "description": {"pt": "O dia", "en": "The day"}},
            "start": {
                "type": "time",
                "required": True,
                "description": {"pt": "A hora de entrada", "en": "Start time"},
            },
            "duration": {
                "type": "duration",
                "required": True,
                "description": {"pt": "Por quanto tempo", "en": "How long"},
            },
        },
        "capabilities": ["reserve_spot"],
        "examples": [
            ex(
                "reserva vaga na Paulista amanhã às 9h por 3 horas",
                garage_text="Paulista",
                day="amanhã",
                start="9h",
                duration="3 horas",
            ),
            ex(
                "quero uma vaga no Eldorado sábado às 15h, 2 horas",
                garage_text="Eldorado",
                day="sábado",
                start="15h",
                duration="2 horas",
            ),
            ex(
                "vaga em Congonhas dia 20 às 6h por 48 horas",
                garage_text="Congonhas",
                day="dia 20",
                start="6h",
                duration="48 horas",
            ),
            ex(
                "book a spot at the airport garage Friday at 7am for 5 hours",
                garage_text="airport",
                day="Friday",
                start="7am",
                duration="5 hours",
            ),
            ex(
                "reserve parking downtown tomorrow 2pm for 1 hour",
                garage_text="downtown",
                day="tomorrow",
                start="2pm",
                duration="1 hour",
            ),
        ],
    }
)
service.add_goal(
    {
        "goal": "PAY_PARKING",
        "description": {"pt": "Pagar o estacionamento pela placa", "en": "Pay for parking by plate"},
        "entities_schema": {
            "plate_text": {
                "type": "string",
                "required": True,
                "description": {"pt": "A placa do carro", "en": "The licence plate"},
            }
        },
        "capabilities": ["pay_parking"],
        "examples": [
            ex("paga o estacionamento da placa FGH4J56", plate_text="FGH4J56"),
            ex("quero pagar a vaga do carro BRA2E19", plate_text="BRA2E19"),
            ex("pay parking for plate FGH4J56", plate_text="FGH4J56"),
            ex("pay for my car, plate BRA2E19", plate_text="BRA2E19"),
        ],
    }
)
service.add_goal(
    {
        "goal": "RESERVATION_STATUS",
        "description": {"pt": "Ver o status de uma reserva", "en": "See a reservation's status"},
        "entities_schema": {
            "code_text": {
                "type": "string",
                "required": True,
                "description": {"pt": "O código da reserva", "en": "The reservation code"},
            }
        },
        "capabilities": ["reservation_status"],
        "examples": [
            ex("status da reserva PK1042", code_text="PK1042"),
            ex("minha reserva PK2210 tá confirmada?", code_text="PK2210"),
            ex("status of reservation PK3307", code_text="PK3307"),
            ex("is booking PK1042 still on?", code_text="PK1042"),
        ],
    }
)

if __name__ == "__main__":
    serve(service)
