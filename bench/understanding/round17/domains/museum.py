"""Museum visits (round-17 bench domain): buy tickets of a type for a day, the opening hours,
book a guided tour in a language.

Fake, deterministic, in memory.
Run: ``python -m bench.understanding.round17.domains.museum --port 8903``.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from bench.understanding.round17.domains._common import (
    ex,
    hhmm,
    language,
    read_day,
    read_number,
    resolve_name,
    say,
    table,
    today,
)
from sdk.service import DomainService, clarify, fail, option, serve
from shared.models import DomainOutput, ExecutionIntent

#: ticket types (canonical value <- aliases)
TICKET_TYPES: dict[str, list[str]] = {
    "Inteira": [
        "inteira",
        "inteiras",
        "entrada inteira",
        "adulto",
        "adultos",
        "full price",
        "adult",
        "adults",
    ],
    "Meia-entrada": [
        "meia-entrada",
        "meia entrada",
        "meia",
        "meias",
        "estudante",
        "estudantes",
        "student",
        "students",
        "half price",
    ],
    "Sênior": ["sênior", "senior", "idoso", "idosos", "seniors", "60+"],
    "Infantil": ["infantil", "criança", "crianças", "child", "children", "kid", "kids"],
    "Família": ["família", "familia", "ingresso família", "family", "family ticket", "family pass"],
}
PRICES: dict[str, float] = {"Inteira": 40, "Meia-entrada": 20, "Sênior": 20, "Infantil": 10, "Família": 90}
MAX_TICKETS = 10
#: hours by weekday (Monday closed; Thursday until 20:00)
HOURS: dict[int, tuple[str, str] | None] = {
    0: None,
    1: ("10:00", "18:00"),
    2: ("10:00", "18:00"),
    3: ("10:00", "20:00"),
    4: ("10:00", "18:00"),
    5: ("10:00", "18:00"),
    6: ("10:00", "18:00"),
}
WEEKDAYS = (
    ("segunda", "Monday"),
    ("terça", "Tuesday"),
    ("quarta", "Wednesday"),
    ("quinta", "Thursday"),
    ("sexta", "Friday"),
    ("sábado", "Saturday"),
    ("domingo", "Sunday"),
)
#: tour language (enum value <- synonyms; the first of each language is the label)
TOUR_LANGUAGES: dict[str, list[str]] = {
    "PORTUGUESE": ["em português", "em portugues", "português", "portugues", "in portuguese", "portuguese"],
    "ENGLISH": ["em inglês", "em ingles", "inglês", "ingles", "in english", "english"],
    "SPANISH": ["em espanhol", "espanhol", "in spanish", "spanish"],
    "LIBRAS": ["em libras", "libras", "língua de sinais", "sign language", "in sign language"],
}
LANG_LABEL = {
    "PORTUGUESE": ("português", "Portuguese"),
    "ENGLISH": ("inglês", "English"),
    "SPANISH": ("espanhol", "Spanish"),
    "LIBRAS": ("Libras", "Brazilian Sign Language"),
}
#: tour slots, and the weekdays each language runs
TOUR_SLOTS = ("10:00", "14:00", "16:00")
TOUR_DAYS: dict[str, set[int]] = {
    "PORTUGUESE": {1, 2, 3, 4, 5, 6},
    "ENGLISH": {1, 3, 5},
    "SPANISH": {5},
    "LIBRAS": {6},
}
TOUR_PRICE = 30.0
MAX_GROUP = 15
_next = [[6200], [7200]]

service = DomainService(
    "museum",
    "0.1.0",
    {
        "pt": "Museu: comprar ingressos por tipo e dia, horário de funcionamento, visita guiada num idioma",
        "en": "Museum: buy tickets by type and day, opening hours, a guided tour in a language",
    },
)


def _next_open(day: date) -> date:
    day = day + timedelta(days=1)
    while HOURS[day.weekday()] is None:
        day += timedelta(days=1)
    return day


@service.capability(
    "buy_museum_tickets",
    {
        "pt": "Compra ingressos do museu de um tipo para um dia (fechado às segundas; até 10 por compra)",
        "en": "Buy museum tickets of one type for a day (closed on Mondays; up to 10 per purchase)",
    },
    parameters={
        "type": "object",
        "properties": {
            "tickets": {"type": "number", "exclusiveMinimum": 0},
            "ticket_type_text": {"type": "string", "minLength": 1},
            "visit_day": {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"},
            "entry_time": {"type": "string", "pattern": "^\\d{2}:\\d{2}$"},
        },
        "required": ["tickets", "ticket_type_text", "visit_day"],
    },
    metadata={
        "intent_hints": {
            "keywords": [
                "ingresso do museu",
                "comprar ingresso museu",
                "museum tickets",
                "buy museum tickets",
            ],
            "examples": ["quero ingressos pro museu", "buy tickets for the museum"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def buy_museum_tickets(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    kind = resolve_name(TICKET_TYPES, p.get("ticket_type_text"))
    if kind is None:
        return clarify(
            say(lang, "Qual tipo de ingresso?", "Which ticket type?"),
            [option(name, f"{name} (R$ {PRICES[name]:.2f})") for name in TICKET_TYPES],
            param="ticket_type_text",
        )
    n = read_number(p.get("tickets"))
    day = read_day(p.get("visit_day"))
    if n is None or day is None:
        return fail(
            say(lang, "Falta a quantidade ou o dia.", "The number or the day is missing."),
            "missing_parameter",
        )
    count = int(n)
    if count > MAX_TICKETS:
        return fail(
            say(
                lang,
                "No máximo 10 ingressos por compra; grupos pelo educativo.",
                "At most 10 tickets per purchase.",
            ),
            "too_many_tickets",
        )
    if day < today():
        return fail(say(lang, "Esse dia já passou.", "That day is past."), "past_day")
    if HOURS[day.weekday()] is None:
        return fail(
            say(lang, "O museu fecha às segundas.", "The museum is closed on Mondays."),
            "closed",
            recoverable=True,
            suggestions=[{"visit_day": _next_open(day).isoformat()}],
        )
    at = hhmm(p.get("entry_time")) if p.get("entry_time") else None
    hours = HOURS[day.weekday()]
    assert hours is not None
    close = int(hours[1][:2])
    if at is not None and not (10 <= at[0] < close):
        return fail(
            say(lang, f"Entrada das 10h às {close - 1}h.", f"Entry from 10am to {close - 13}pm."),
            "outside_hours",
            recoverable=True,
            suggestions=[{"entry_time": "10:00" if at[0] < 10 else f"{close - 1:02d}:00"}],
        )
    total = PRICES[kind] * count
    _next[0][0] += 1
    code = f"MV{_next[0][0]}"
    return DomainOutput(
        status="success",
        result={
            "code": code,
            "ticket_type": kind,
            "tickets": count,
            "visit_day": day.isoformat(),
            "total": {"amount": total, "currency": "BRL"},
        },
        explanation=say(
            lang,
            f"Compra {code}: {count} × {kind} para {day:%d/%m}, R$ {total:.2f}.",
            f"Purchase {code}: {count} × {kind} for {day:%b %d}, R$ {total:.2f}.",
        ),
    )


@service.capability(
    "museum_hours",
    {
        "pt": "Diz o horário de funcionamento do museu (da semana, ou de um dia)",
        "en": "Tell the museum's opening hours (for the week, or for a day)",
    },
    parameters={
        "type": "object",
        "properties": {"day": {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"}},
    },
    metadata={
        "intent_hints": {
            "keywords": ["horário do museu", "que horas o museu abre", "museum hours", "opening hours"],
            "examples": ["o museu abre que horas?", "when does the museum open?"],
        },
        "policy": {"read_only": True},
    },
)
def museum_hours(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    day = read_day(intent.parameters.get("day"))
    if day is None:
        return DomainOutput(
            status="success",
            result={"hours": {WEEKDAYS[d][1]: HOURS[d] for d in range(7)}},
            explanation=say(
                lang,
                "Terça a domingo, 10h às 18h (quinta até 20h); fechado às segundas.",
                "Tuesday to Sunday, 10am to 6pm (Thursday until 8pm); closed on Mondays.",
            ),
        )
    hours = HOURS[day.weekday()]
    pt_day, en_day = WEEKDAYS[day.weekday()]
    if hours is None:
        return DomainOutput(
            status="success",
            result={"day": day.isoformat(), "open": False},
            explanation=say(
                lang, f"{pt_day.capitalize()}, {day:%d/%m}: fechado.", f"{en_day}, {day:%b %d}: closed."
            ),
        )
    return DomainOutput(
        status="success",
        result={"day": day.isoformat(), "open": True, "from": hours[0], "to": hours[1]},
        explanation=say(
            lang,
            f"{pt_day.capitalize()}, {day:%d/%m}: das {hours[0]} às {hours[1]}.",
            f"{en_day}, {day:%b %d}: {hours[0]} to {hours[1]}.",
        ),
    )


@service.capability(
    "book_guided_tour",
    {
        "pt": "Reserva uma visita guiada num idioma e dia (às 10h, 14h ou 16h; 1 pessoa se não disser)",
        "en": "Book a guided tour in a language on a day (10am, 2pm or 4pm; 1 person unless said)",
    },
    parameters={
        "type": "object",
        "properties": {
            "tour_language": {"type": "string", "enum": list(TOUR_LANGUAGES)},
            "tour_day": {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"},
            "tour_time": {"type": "string", "pattern": "^\\d{2}:\\d{2}$"},
            "people": {"type": "number", "exclusiveMinimum": 0},
        },
        "required": ["tour_language", "tour_day"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["visita guiada", "visita monitorada", "guided tour", "museum tour"],
            "examples": ["tem visita guiada?", "can I book a guided tour?"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def book_guided_tour(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    tongue = str(p.get("tour_language") or "").upper()
    day = read_day(p.get("tour_day"))
    if tongue not in TOUR_LANGUAGES or day is None:
        return fail(
            say(lang, "Falta o idioma ou o dia.", "The language or the day is missing."), "missing_parameter"
        )
    people = int(read_number(p.get("people")) or 1)
    if people > MAX_GROUP:
        return fail(say(lang, "Grupos de até 15 pessoas.", "Groups of up to 15 people."), "group_too_large")
    if day < today():
        return fail(say(lang, "Esse dia já passou.", "That day is past."), "past_day")
    if day.weekday() not in TOUR_DAYS[tongue]:
        later = day + timedelta(days=1)
        while later.weekday() not in TOUR_DAYS[tongue]:
            later += timedelta(days=1)
        return fail(
            say(
                lang,
                f"Não há visita em {LANG_LABEL[tongue][0]} nesse dia.",
                f"There's no {LANG_LABEL[tongue][1]} tour that day.",
            ),
            "no_tour",
            recoverable=True,
            suggestions=[{"tour_day": later.isoformat()}],
        )
    at = hhmm(p.get("tour_time")) if p.get("tour_time") else None
    slot = TOUR_SLOTS[0]
    if at is not None:
        asked = f"{at[0]:02d}:{at[1]:02d}"
        if asked not in TOUR_SLOTS:
            nearest = min(TOUR_SLOTS, key=lambda s: abs(int(s[:2]) * 60 + int(s[3:]) - at[0] * 60 - at[1]))
            return fail(
                say(lang, "Visitas às 10h, 14h e 16h.", "Tours at 10am, 2pm and 4pm."),
                "no_slot",
                recoverable=True,
                suggestions=[{"tour_time": nearest}],
            )
        slot = asked
    total = TOUR_PRICE * people
    _next[1][0] += 1
    code = f"GT{_next[1][0]}"
    return DomainOutput(
        status="success",
        result={
            "code": code,
            "language": tongue,
            "day": day.isoformat(),
            "time": slot,
            "people": people,
            "total": {"amount": total, "currency": "BRL"},
        },
        explanation=say(
            lang,
            f"Visita guiada {code} em {LANG_LABEL[tongue][0]}, {day:%d/%m} às {slot}, "
            f"{people} pessoa(s), R$ {total:.2f}.",
            f"Guided tour {code} in {LANG_LABEL[tongue][1]}, {day:%b %d} at {slot}, "
            f"{people} people, R$ {total:.2f}.",
        ),
    )


DESCRIBED: dict[str, Any] = {"pt": "O dia da visita", "en": "The visit day"}

service.add_goal(
    {
        "goal": "BUY_MUSEUM_TICKETS",
        "description": {"pt": "Comprar ingressos do museu", "en": "Buy museum tickets"},
        "entities_schema": {
            "tickets": {
                "type": "number",
                "required": True,
                "description": {"pt": "Quantos ingressos", "en": "How many tickets"},
            },
            "ticket_type_text": {
                "type": "string",
                "required": True,
                "lookup": table(TICKET_TYPES),
                "description": {"pt": "O tipo de ingresso", "en": "The ticket type"},
            },
            "visit_day": {"type": "date", "required": True, "description": DESCRIBED},
            "entry_time": {
                "type": "time",
                "description": {"pt": "O horário de entrada", "en": "The entry time"},
            },
        },
        "capabilities": ["buy_museum_tickets"],
        "examples": [
            ex(
                "quero 2 ingressos inteira pro museu no sábado",
                tickets="2 ingressos",
                ticket_type_text="inteira",
                visit_day="sábado",
            ),
            ex(
                "compra 3 ingressos de estudante pra quinta às 14h",
                tickets="3 ingressos",
                ticket_type_text="estudante",
                visit_day="quinta",
                entry_time="às 14h",
            ),
            ex(
                "4 ingressos meia-entrada pro dia 20",
                tickets="4 ingressos",
                ticket_type_text="meia-entrada",
                visit_day="dia 20",
            ),
            ex(
                "buy 2 adult tickets for the museum on Friday",
                tickets="2",
                ticket_type_text="adult",
                visit_day="Friday",
            ),
            ex(
                "I'd like 3 student tickets for Sunday at 11am",
                tickets="3",
                ticket_type_text="student",
                visit_day="Sunday",
                entry_time="at 11am",
            ),
        ],
    }
)
service.add_goal(
    {
        "goal": "MUSEUM_HOURS",
        "description": {"pt": "Horário de funcionamento do museu", "en": "The museum's opening hours"},
        "entities_schema": {"day": {"type": "date", "description": {"pt": "O dia", "en": "The day"}}},
        "capabilities": ["museum_hours"],
        "examples": [
            ex("qual o horário do museu?"),
            ex("o museu abre no domingo?", day="domingo"),
            ex("até que horas o museu fica aberto na quinta?", day="quinta"),
            ex("museum opening hours"),
            ex("is the museum open on Monday?", day="Monday"),
        ],
    }
)
service.add_goal(
    {
        "goal": "BOOK_GUIDED_TOUR",
        "description": {
            "pt": "Reservar uma visita guiada no museu",
            "en": "Book a guided tour of the museum",
        },
        "entities_schema": {
            "tour_language": {
                "type": "enum",
                "required": True,
                "values": list(TOUR_LANGUAGES),
                "synonyms": TOUR_LANGUAGES,
                "description": {"pt": "O idioma da visita", "en": "The tour language"},
            },
            "tour_day": {
                "type": "date",
                "required": True,
                "description": {"pt": "O dia da visita guiada", "en": "The tour day"},
            },
            "tour_time": {
                "type": "time",
                "description": {"pt": "O horário da visita guiada", "en": "The tour time"},
            },
            "people": {"type": "number", "description": {"pt": "Quantas pessoas", "en": "How many people"}},
        },
        "capabilities": ["book_guided_tour"],
        "examples": [
            ex(
                "reserva uma visita guiada em inglês no sábado às 14h pra 3 pessoas",
                tour_language="ENGLISH",
                tour_day="sábado",
                tour_time="às 14h",
                people="3 pessoas",
            ),
            ex("quero visita guiada em português na quinta", tour_language="PORTUGUESE", tour_day="quinta"),
            ex(
                "agenda visita monitorada em espanhol sábado às 10h",
                tour_language="SPANISH",
                tour_day="sábado",
                tour_time="às 10h",
            ),
            ex(
                "book a guided tour in English on Friday for 2 people",
                tour_language="ENGLISH",
                tour_day="Friday",
                people="2 people",
            ),
            ex(
                "can we do a museum tour in Spanish on Saturday at 4pm",
                tour_language="SPANISH",
                tour_day="Saturday",
                tour_time="at 4pm",
            ),
        ],
    }
)

if __name__ == "__main__":
    serve(service)
