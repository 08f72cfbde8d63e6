"""Restaurant reservations (round-2 bench domain): book a table, cancel a reservation, list them.

Fake, deterministic, in memory. Run: ``python -m bench.understanding.round2.domains.restaurant --port 8121``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bench.understanding.round2.domains._common import (
    language,
    lookup_entries,
    read_day,
    read_number,
    read_time,
    resolve,
)
from sdk.service import DomainService, clarify, fail, option, serve
from shared.models import DomainOutput, ExecutionIntent

RESTAURANTS: dict[str, list[str]] = {
    "Cantina Bella Napoli": ["Bella Napoli", "Cantina Napoli", "a cantina", "Napoli"],
    "Sushi Kenzo": ["Kenzo", "Sushi do Kenzo", "Kenzo Sushi"],
    "Churrascaria Fogo Alto": ["Fogo Alto", "Churrascaria Fogo", "the steakhouse", "churrascaria"],
    "Bistrô Le Petit": ["Le Petit", "Le Petit Bistro", "Bistro Le Petit", "o bistrô"],
    "Taqueria El Sol": ["El Sol", "Taqueria", "the taqueria", "tacos El Sol"],
    "Green Bowl": ["Green Bowl Vegan", "the Green Bowl", "o vegano", "Greenbowl"],
}
MAX_PARTY = 12


@dataclass
class Reservation:
    code: str
    restaurant: str
    day: str
    time: str
    party_size: int

    def describe(self, lang: str) -> str:
        people = "pessoas" if lang == "pt" else "people"
        return f"{self.code}: {self.restaurant}, {self.day} {self.time}, {self.party_size} {people}"


RESERVATIONS: dict[str, Reservation] = {
    r.code: r
    for r in (
        Reservation("BK4821", "Sushi Kenzo", "2026-03-13", "20:00", 2),
        Reservation("BK5530", "Cantina Bella Napoli", "2026-03-14", "13:00", 4),
        Reservation("BK6107", "Churrascaria Fogo Alto", "2026-03-20", "19:30", 6),
    )
}
_next_code = [7000]

service = DomainService(
    "restaurant",
    "0.1.0",
    {"pt": "Reservas de mesa em restaurantes", "en": "Restaurant table reservations"},
)

BOOK_PARAMETERS: dict[str, Any] = {
    "type": "object",
    "properties": {
        "restaurant_text": {"type": "string", "minLength": 1},
        "party_size": {"type": "integer", "minimum": 1},
        "day": {"type": "string"},
        "time": {"type": "string"},
    },
    "required": ["restaurant_text", "party_size", "day", "time"],
}


@service.capability(
    "book_table",
    {"pt": "Reserva uma mesa num restaurante", "en": "Book a table at a restaurant"},
    parameters=BOOK_PARAMETERS,
    metadata={
        "intent_hints": {
            "keywords": ["reserva", "reservar", "mesa", "book a table", "reservation", "table for"],
            "examples": ["quero reservar uma mesa", "I'd like to book a table"],
        },
        # a booking is a side effect the person must agree to first
        "policy": {"confirm": True, "idempotent": False},
    },
)
def book_table(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    name = resolve(p.get("restaurant_text"), RESTAURANTS)
    if name is None:
        return clarify(
            "Não conheço esse restaurante. Qual destes?"
            if lang == "pt"
            else "I don't know that restaurant. Which one?",
            [option(n, n, aliases=a) for n, a in RESTAURANTS.items()],
            param="restaurant_text",
            metadata={"resolution": "unknown_restaurant"},
        )
    size = read_number(p.get("party_size"))
    day = read_day(p.get("day"))
    time = read_time(p.get("time"))
    if size is None or day is None or time is None:
        return fail(
            "Faltam dados da reserva (pessoas, dia ou horário)."
            if lang == "pt"
            else "The booking needs people, day and time.",
            "missing_parameter",
        )
    if size > MAX_PARTY:
        return fail(
            f"Mesas para no máximo {MAX_PARTY} pessoas."
            if lang == "pt"
            else f"Tables seat at most {MAX_PARTY} people.",
            "party_too_large",
            recoverable=True,
            suggestions=[{"party_size": MAX_PARTY}],
        )
    if name == "Churrascaria Fogo Alto" and day.weekday() == 0:
        return fail(
            "A Fogo Alto não abre às segundas." if lang == "pt" else "Fogo Alto is closed on Mondays.",
            "closed_that_day",
        )
    _next_code[0] += 1
    res = Reservation(f"BK{_next_code[0]}", name, day.isoformat(), time, size)
    RESERVATIONS[res.code] = res
    text = f"Reserva feita — {res.describe('pt')}." if lang == "pt" else f"Booked — {res.describe('en')}."
    return DomainOutput(status="success", result=res.__dict__, explanation=text)


@service.capability(
    "cancel_reservation",
    {"pt": "Cancela uma reserva de restaurante", "en": "Cancel a restaurant reservation"},
    parameters={
        "type": "object",
        "properties": {"reservation_code_text": {"type": "string", "minLength": 1}},
        "required": ["reservation_code_text"],
    },
    metadata={
        "intent_hints": {"keywords": ["cancelar reserva", "cancel reservation", "cancel my booking"]},
        "policy": {"confirm": True, "idempotent": False},
    },
)
def cancel_reservation(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    code = "".join(
        ch for ch in str(intent.parameters.get("reservation_code_text", "")).upper() if ch.isalnum()
    )
    if code.isdigit():
        code = f"BK{code}"
    res = RESERVATIONS.pop(code, None)
    if res is None:
        return fail(
            f"Não achei a reserva {code}." if lang == "pt" else f"No reservation {code}.",
            "reservation_not_found",
        )
    text = (
        f"Reserva cancelada — {res.describe('pt')}." if lang == "pt" else f"Cancelled — {res.describe('en')}."
    )
    return DomainOutput(status="success", result={"code": code, "cancelled": True}, explanation=text)


@service.capability(
    "list_reservations",
    {"pt": "Lista as suas reservas", "en": "List your reservations"},
    parameters={"type": "object", "properties": {"day": {"type": "string"}}},
    metadata={"intent_hints": {"keywords": ["minhas reservas", "my reservations", "my bookings"]}},
)
def list_reservations(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    day = read_day(intent.parameters.get("day"))
    items = [r for r in RESERVATIONS.values() if day is None or r.day == day.isoformat()]
    if not items:
        text = "Nenhuma reserva." if lang == "pt" else "No reservations."
    else:
        text = "\n".join(r.describe(lang) for r in sorted(items, key=lambda r: (r.day, r.time)))
    return DomainOutput(
        status="success", result={"reservations": [r.__dict__ for r in items]}, explanation=text
    )


def _ex(text: str, **entities: Any) -> dict[str, Any]:
    return {"text": text, "entities": entities}


service.add_goal(
    {
        "goal": "BOOK_TABLE",
        "description": {"pt": "Reservar uma mesa num restaurante", "en": "Book a table at a restaurant"},
        "entities_schema": {
            "restaurant_text": {
                "type": "string",
                "required": True,
                "description": {"pt": "O restaurante", "en": "The restaurant"},
                "lookup": [e.model_dump() for e in lookup_entries(RESTAURANTS)],
            },
            "party_size": {
                "type": "number",
                "required": True,
                "description": {"pt": "Quantas pessoas", "en": "How many people"},
            },
            "day": {"type": "date", "required": True, "description": {"pt": "O dia", "en": "The day"}},
            "time": {"type": "time", "required": True, "description": {"pt": "O horário", "en": "The time"}},
        },
        "capabilities": ["book_table"],
        "examples": [
            _ex(
                "reserva uma mesa no Sushi Kenzo pra 2 pessoas sexta às 20h",
                restaurant_text="Sushi Kenzo",
                party_size="2 pessoas",
                day="sexta",
                time="às 20h",
            ),
            _ex(
                "quero reservar na Cantina Bella Napoli amanhã às 13h para 4 pessoas",
                restaurant_text="Cantina Bella Napoli",
                day="amanhã",
                time="às 13h",
                party_size="4 pessoas",
            ),
            _ex(
                "mesa para 6 na Fogo Alto sábado 19h30",
                party_size="6",
                restaurant_text="Fogo Alto",
                day="sábado",
                time="19h30",
            ),
            _ex(
                "consegue uma reserva no Le Petit dia 20 às 21h pra duas pessoas?",
                restaurant_text="Le Petit",
                day="dia 20",
                time="às 21h",
                party_size="duas pessoas",
            ),
            _ex(
                "book a table for 2 at Sushi Kenzo on Friday at 8pm",
                party_size="2",
                restaurant_text="Sushi Kenzo",
                day="Friday",
                time="8pm",
            ),
            _ex(
                "reserve a table at Green Bowl tomorrow at 12:30 for three people",
                restaurant_text="Green Bowl",
                day="tomorrow",
                time="12:30",
                party_size="three people",
            ),
            _ex(
                "can I get a table for 5 at El Sol on Saturday at 7pm?",
                party_size="5",
                restaurant_text="El Sol",
                day="Saturday",
                time="7pm",
            ),
        ],
    }
)
service.add_goal(
    {
        "goal": "CANCEL_RESERVATION",
        "description": {"pt": "Cancelar uma reserva de restaurante", "en": "Cancel a restaurant reservation"},
        "entities_schema": {
            "reservation_code_text": {
                "type": "string",
                "required": True,
                "description": {"pt": "O código da reserva", "en": "The reservation code"},
            }
        },
        "capabilities": ["cancel_reservation"],
        "examples": [
            _ex("cancela a reserva BK4821", reservation_code_text="BK4821"),
            _ex("quero cancelar minha reserva de código BK5530", reservation_code_text="BK5530"),
            _ex("desmarca a reserva BK6107 por favor", reservation_code_text="BK6107"),
            _ex("cancel reservation BK4821", reservation_code_text="BK4821"),
            _ex("please cancel my booking BK5530", reservation_code_text="BK5530"),
        ],
    }
)
service.add_goal(
    {
        "goal": "LIST_RESERVATIONS",
        "description": {"pt": "As suas reservas de restaurante", "en": "Your restaurant reservations"},
        "entities_schema": {
            "day": {"type": "date", "description": {"pt": "O dia", "en": "The day"}},
        },
        "capabilities": ["list_reservations"],
        "examples": [
            _ex("quais são minhas reservas?"),
            _ex("tenho alguma reserva sexta?", day="sexta"),
            _ex("mostra as minhas reservas de restaurante"),
            _ex("what reservations do I have?"),
            _ex("show my restaurant bookings"),
            _ex("do I have a table booked on Saturday?", day="Saturday"),
        ],
    }
)

if __name__ == "__main__":
    serve(service)
