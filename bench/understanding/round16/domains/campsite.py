"""Campsite (round-16 bench domain): reserve a tent pitch, an RV site or a cabin for some
people from a day for some nights, the price of a stay, cancel a reservation by its code.

Fake, deterministic, in memory.
Run: ``python -m bench.understanding.round16.domains.campsite --port 8803``.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from bench.understanding.round16.domains._common import (
    amount_of,
    ex,
    language,
    norm_code,
    read_day,
    read_number,
    say,
    today,
)
from sdk.service import DomainService, fail, serve
from shared.models import DomainOutput, ExecutionIntent

#: accommodation (enum value <- synonyms; the first of each language is the label)
KINDS: dict[str, list[str]] = {
    "PITCH": [
        "área de barraca",
        "lugar pra barraca",
        "barraca",
        "barracas",
        "área para barraca",
        "tent pitch",
        "tent site",
        "pitch",
        "tent",
        "tents",
    ],
    "RV": [
        "vaga de motorhome",
        "motorhome",
        "motor home",
        "trailer",
        "motorhomes",
        "rv site",
        "rv",
        "campervan",
        "camper van",
        "camper",
    ],
    "CABIN": ["chalé", "chale", "chalés", "cabana", "cabanas", "cabin", "cabins", "chalet", "chalets"],
}
LABEL = {
    "PITCH": ("área de barraca", "tent pitch"),
    "RV": ("vaga de motorhome", "RV site"),
    "CABIN": ("chalé", "cabin"),
}
#: prices, BRL: a pitch per person per night; an RV site per night plus per person; a cabin per night
PITCH_PER_PERSON = 40
RV_PER_NIGHT, RV_PER_PERSON = 120, 20
CABIN_PER_NIGHT = 280
MAX_PEOPLE = {"PITCH": 6, "RV": 6, "CABIN": 5}
#: reservations (code -> kind, arrival, nights, people, state)
STAYS: dict[str, tuple[str, date, int, int, str]] = {
    "CP7101": ("CABIN", date(2026, 3, 13), 2, 4, "booked"),
    "CP7105": ("PITCH", date(2026, 3, 20), 3, 2, "booked"),
    "CP7110": ("RV", date(2026, 3, 14), 1, 3, "cancelled"),
    "CP7114": ("CABIN", date(2026, 3, 10), 2, 2, "booked"),
}
_next = [7200]

service = DomainService(
    "campsite",
    "0.1.0",
    {
        "pt": (
            "Camping: reservar área de barraca, vaga de motorhome ou "
            "chalé, preço da estadia, cancelar reserva"
        ),
        "en": "Campsite: reserve a tent pitch, RV site or cabin, price of a stay, cancel a reservation",
    },
)


def _kind(p: dict[str, Any]) -> str | None:
    kind = str(p.get("accommodation") or "").upper()
    return kind if kind in KINDS else None


def _price(kind: str, nights: int, people: int) -> float:
    if kind == "PITCH":
        return PITCH_PER_PERSON * people * nights
    if kind == "RV":
        return (RV_PER_NIGHT + RV_PER_PERSON * people) * nights
    return CABIN_PER_NIGHT * nights


def _nights(p: dict[str, Any], arrival: date | None) -> int | None:
    nights = read_number(p.get("nights"))
    if nights is not None:
        return int(nights)
    departure = read_day(p.get("departure"))
    if departure is not None and arrival is not None:
        return (departure - arrival).days
    return None


@service.capability(
    "book_campsite",
    {
        "pt": (
            "Reserva área de barraca, vaga de motorhome ou chalé para algumas pessoas a partir de um "
            "dia, por algumas noites (2 noites no mínimo chegando sexta ou sábado)"
        ),
        "en": (
            "Reserve a tent pitch, RV site or cabin for some people from a day, for "
            "some nights (2 nights at least arriving Friday or Saturday)"
        ),
    },
    parameters={
        "type": "object",
        "properties": {
            "accommodation": {"type": "string", "enum": list(KINDS)},
            "arrival": {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"},
            "departure": {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"},
            "nights": {"type": "number"},
            "people": {"type": "number"},
        },
        "required": ["accommodation", "arrival", "people"],
        "anyOf": [{"required": ["nights"]}, {"required": ["departure"]}],
    },
    metadata={
        "intent_hints": {
            "keywords": ["camping", "acampar", "reservar no camping", "campsite", "campground"],
            "examples": ["quero reservar no camping", "book a spot at the campsite"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def book_campsite(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    kind = _kind(p)
    arrival = read_day(p.get("arrival"))
    people = read_number(p.get("people"))
    nights = _nights(p, arrival)
    if kind is None or arrival is None or people is None or nights is None:
        return fail(
            say(lang, "Faltam dados da reserva.", "The reservation is missing details."), "missing_parameter"
        )
    people = int(people)
    if nights < 1:
        return fail(
            say(lang, "A saída tem que ser depois da chegada.", "Departure must be after arrival."),
            "bad_range",
        )
    if arrival < today():
        return fail(say(lang, "Esse dia já passou.", "That day is past."), "past_day")
    if people > MAX_PEOPLE[kind]:
        pt, en = LABEL[kind]
        return fail(
            say(
                lang,
                f"{pt.capitalize()} é para até {MAX_PEOPLE[kind]} pessoas.",
                f"A {en} takes up to {MAX_PEOPLE[kind]} people.",
            ),
            "too_many_people",
        )
    if arrival.weekday() in (4, 5) and nights < 2:
        return fail(
            say(
                lang,
                "Chegando sexta ou sábado, mínimo de 2 noites.",
                "Arriving Friday or Saturday, 2 nights minimum.",
            ),
            "min_nights",
            recoverable=True,
            suggestions=[{"nights": 2}],
        )
    total = _price(kind, nights, people)
    _next[0] += 1
    code = f"CP{_next[0]}"
    STAYS[code] = (kind, arrival, nights, people, "booked")
    pt, en = LABEL[kind]
    leave = arrival + timedelta(days=nights)
    return DomainOutput(
        status="success",
        result={
            "code": code,
            "accommodation": kind,
            "arrival": arrival.isoformat(),
            "departure": leave.isoformat(),
            "nights": nights,
            "people": people,
            "total": {"amount": total, "currency": "BRL"},
        },
        explanation=say(
            lang,
            (
                f"Reserva {code}: {pt}, {people} pessoa(s), de {arrival:%d/%m} a "
                f"{leave:%d/%m} ({nights} noite(s)), R$ {total:.2f}."
            ),
            (
                f"Reservation {code}: {en}, {people} people, {arrival:%b %d} to "
                f"{leave:%b %d} ({nights} night(s)), R$ {total:.2f}."
            ),
        ),
    )


@service.capability(
    "campsite_price",
    {
        "pt": (
            "Diz o preço de uma estadia no camping (uma noite e uma pessoa, se "
            "não disser; compara com o orçamento, se disser)"
        ),
        "en": (
            "Tell the price of a stay at the campsite (one night and one "
            "person unless said; checks a budget if said)"
        ),
    },
    parameters={
        "type": "object",
        "properties": {
            "accommodation": {"type": "string", "enum": list(KINDS)},
            "nights": {"type": "number"},
            "people": {"type": "number"},
            "budget": {"type": "object"},
        },
        "required": ["accommodation"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["diária do camping", "preço do chalé", "campsite price", "cabin price"],
            "examples": ["quanto custa a diária no camping?", "how much is a night at the campsite?"],
        },
        "policy": {"read_only": True},
    },
)
def campsite_price(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    kind = _kind(p)
    if kind is None:
        return fail(say(lang, "Qual acomodação?", "Which accommodation?"), "missing_parameter")
    nights = int(read_number(p.get("nights")) or 1)
    people = int(read_number(p.get("people")) or 1)
    total = _price(kind, nights, people)
    pt, en = LABEL[kind]
    fits_pt = fits_en = ""
    budget = amount_of(p.get("budget"))
    if budget is not None:
        ok = total <= budget[0]
        fits_pt = " Cabe no orçamento." if ok else f" Passa do orçamento de {budget[0]:.2f}."
        fits_en = " Within budget." if ok else f" Over the budget of {budget[0]:.2f}."
    return DomainOutput(
        status="success",
        result={
            "accommodation": kind,
            "nights": nights,
            "people": people,
            "total": {"amount": total, "currency": "BRL"},
        },
        explanation=say(
            lang,
            f"{pt.capitalize()}, {nights} noite(s), {people} pessoa(s): R$ {total:.2f}.{fits_pt}",
            f"{en.capitalize()}, {nights} night(s), {people} people: R$ {total:.2f}.{fits_en}",
        ),
    )


@service.capability(
    "cancel_campsite",
    {
        "pt": "Cancela uma reserva do camping pelo código (até a véspera da chegada)",
        "en": "Cancel a campsite reservation by its code (up to the day before arrival)",
    },
    parameters={
        "type": "object",
        "properties": {"reservation_text": {"type": "string", "minLength": 1}},
        "required": ["reservation_text"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["cancelar reserva do camping", "cancel campsite reservation"],
            "examples": ["quero cancelar minha reserva no camping", "cancel my campsite booking"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def cancel_campsite(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    code = norm_code(intent.parameters.get("reservation_text"))
    stay = STAYS.get(code)
    if stay is None:
        return fail(say(lang, f"Não achei a reserva {code}.", f"No reservation {code}."), "not_found")
    kind, arrival, nights, people, state = stay
    if state == "cancelled":
        return fail(
            say(lang, f"{code} já estava cancelada.", f"{code} was already cancelled."), "already_cancelled"
        )
    if arrival <= today():
        return fail(
            say(
                lang,
                f"{code} chega hoje: cancelamento só até a véspera.",
                f"{code} arrives today: cancel up to the day before.",
            ),
            "too_late",
        )
    STAYS[code] = (kind, arrival, nights, people, "cancelled")
    pt, en = LABEL[kind]
    return DomainOutput(
        status="success",
        result={"code": code, "accommodation": kind, "arrival": arrival.isoformat(), "state": "cancelled"},
        explanation=say(
            lang,
            f"Cancelada {code}: {pt}, chegada {arrival:%d/%m}, {nights} noite(s).",
            f"Cancelled {code}: {en}, arrival {arrival:%b %d}, {nights} night(s).",
        ),
    )


KIND_ENTITY: dict[str, Any] = {
    "type": "enum",
    "values": list(KINDS),
    "synonyms": KINDS,
    "description": {"pt": "Barraca, motorhome ou chalé", "en": "Tent pitch, RV site or cabin"},
}
NIGHTS: dict[str, Any] = {"type": "number", "description": {"pt": "Quantas noites", "en": "How many nights"}}
PEOPLE: dict[str, Any] = {"type": "number", "description": {"pt": "Quantas pessoas", "en": "How many people"}}

service.add_goal(
    {
        "goal": "BOOK_CAMPSITE",
        "description": {"pt": "Reservar no camping", "en": "Reserve at the campsite"},
        "entities_schema": {
            "accommodation": {**KIND_ENTITY, "required": True},
            "arrival": {
                "type": "date",
                "required": True,
                "description": {"pt": "O dia da chegada", "en": "The arrival day"},
            },
            "departure": {"type": "date", "description": {"pt": "O dia da saída", "en": "The departure day"}},
            "nights": NIGHTS,
            "people": {**PEOPLE, "required": True},
        },
        "required_one_of": [["nights", "departure"]],
        "capabilities": ["book_campsite"],
        "examples": [
            ex(
                "reserva um chalé no camping a partir de sexta por 2 noites para 4 pessoas",
                accommodation="CABIN",
                arrival="sexta",
                nights="2 noites",
                people="4 pessoas",
            ),
            ex(
                "quero reservar área de barraca de sábado a segunda pra 3 pessoas",
                accommodation="PITCH",
                arrival="sábado",
                departure="segunda",
                people="3 pessoas",
            ),
            ex(
                "vaga de motorhome dia 20, 3 noites, 2 pessoas",
                accommodation="RV",
                arrival="dia 20",
                nights="3 noites",
                people="2 pessoas",
            ),
            ex(
                "book a cabin at the campsite from Friday for 2 nights, 4 people",
                accommodation="CABIN",
                arrival="Friday",
                nights="2 nights",
                people="4 people",
            ),
            ex(
                "reserve a tent pitch from Saturday to Monday for 3 guests",
                accommodation="PITCH",
                arrival="Saturday",
                departure="Monday",
                people="3 guests",
            ),
        ],
    }
)
service.add_goal(
    {
        "goal": "CAMPSITE_PRICE",
        "description": {"pt": "Preço de uma estadia no camping", "en": "Price of a stay at the campsite"},
        "entities_schema": {
            "accommodation": {**KIND_ENTITY, "required": True},
            "nights": NIGHTS,
            "people": PEOPLE,
            "budget": {
                "type": "money",
                "description": {"pt": "Quanto quer gastar no total", "en": "Your total budget"},
            },
        },
        "capabilities": ["campsite_price"],
        "examples": [
            ex("quanto custa o chalé por 3 noites?", accommodation="CABIN", nights="3 noites"),
            ex(
                "qual o preço da área de barraca pra 4 pessoas, 2 noites?",
                accommodation="PITCH",
                people="4 pessoas",
                nights="2 noites",
            ),
            ex("how much is an RV site for 2 nights?", accommodation="RV", nights="2 nights"),
            ex(
                "price of a cabin for 3 nights, under R$ 1000?",
                accommodation="CABIN",
                nights="3 nights",
                budget="under R$ 1000",
            ),
        ],
    }
)
service.add_goal(
    {
        "goal": "CANCEL_CAMPSITE",
        "description": {"pt": "Cancelar uma reserva do camping", "en": "Cancel a campsite reservation"},
        "entities_schema": {
            "reservation_text": {
                "type": "string",
                "required": True,
                "description": {"pt": "O código da reserva", "en": "The reservation code"},
            }
        },
        "capabilities": ["cancel_campsite"],
        "examples": [
            ex("cancela a reserva CP7101", reservation_text="CP7101"),
            ex("quero cancelar a reserva do camping CP7105", reservation_text="CP7105"),
            ex("cancel campsite reservation CP7105", reservation_text="CP7105"),
            ex("please cancel booking CP7101", reservation_text="CP7101"),
        ],
    }
)

if __name__ == "__main__":
    serve(service)
