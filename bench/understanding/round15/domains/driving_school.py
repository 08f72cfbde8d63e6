"""Driving school (round-15 bench domain): book a driving lesson, price a package of lessons,
cancel a lesson.

Fake, deterministic, in memory.
Run: ``python -m bench.understanding.round15.domains.driving_school --port 8701``.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from bench.understanding.round15.domains._common import (
    ex,
    hhmm,
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

#: vehicle (enum value <- synonyms; the first of each language is the label)
VEHICLES: dict[str, list[str]] = {
    "CAR": ["de carro", "carro", "categoria b", "aula de carro", "car", "by car", "car lesson"],
    "MOTORCYCLE": [
        "de moto",
        "moto",
        "motocicleta",
        "categoria a",
        "aula de moto",
        "motorcycle",
        "motorbike",
        "motorcycle lesson",
    ],
}
LABEL = {"CAR": ("carro", "car"), "MOTORCYCLE": ("moto", "motorcycle")}
#: instructors (canonical value <- aliases)
INSTRUCTORS: dict[str, list[str]] = {
    "Marcos Oliveira": ["marcos", "instrutor marcos", "prof marcos"],
    "Carla Souza": ["carla", "instrutora carla"],
    "João Pereira": ["joão", "joao", "instrutor joão", "instrutor joao"],
    "Fernanda Lima": ["fernanda", "instrutora fernanda", "fe lima"],
}
#: price per lesson, BRL
PRICES: dict[str, int] = {"CAR": 95, "MOTORCYCLE": 80}
FIRST_START, LAST_START = 7, 19
#: lessons (code -> vehicle, day, time, state)
LESSONS: dict[str, tuple[str, date, str, str]] = {
    "AE5101": ("CAR", date(2026, 3, 12), "08:00", "booked"),
    "AE5107": ("MOTORCYCLE", date(2026, 3, 13), "14:00", "booked"),
    "AE5112": ("CAR", date(2026, 3, 16), "10:00", "cancelled"),
    "AE5118": ("CAR", date(2026, 3, 10), "17:00", "booked"),
}
_next = [5200]

service = DomainService(
    "driving_school",
    "0.1.0",
    {
        "pt": "Autoescola: marcar aula de direção, preço de pacote de aulas, cancelar uma aula",
        "en": "Driving school: book a driving lesson, price of a lesson package, cancel a lesson",
    },
)


def _discount(lessons: int) -> float:
    if lessons >= 20:
        return 0.15
    if lessons >= 10:
        return 0.10
    return 0.0


def _vehicle(p: dict[str, Any]) -> str:
    kind = str(p.get("vehicle") or "").upper()
    return kind if kind in VEHICLES else "CAR"


@service.capability(
    "book_lesson",
    {
        "pt": "Marca uma aula de direção num dia e hora (de carro, se não disser; seg a sáb, 7h às 19h)",
        "en": "Book a driving lesson on a day and time (by car unless said; Mon to Sat, 7am to 7pm)",
    },
    parameters={
        "type": "object",
        "properties": {
            "vehicle": {"type": "string", "enum": list(VEHICLES)},
            "day": {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"},
            "time": {"type": "string", "pattern": "^\\d{2}:\\d{2}$"},
            "instructor_text": {"type": "string"},
        },
        "required": ["day", "time"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["aula de direção", "aula prática", "autoescola", "driving lesson"],
            "examples": ["quero marcar uma aula de direção", "book a driving lesson"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def book_lesson(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    day = read_day(p.get("day"))
    at = hhmm(p.get("time"))
    if day is None or at is None:
        return fail(say(lang, "Falta o dia ou a hora.", "The day or time is missing."), "missing_parameter")
    kind = _vehicle(p)
    instructor = None
    if p.get("instructor_text"):
        instructor = resolve_name(INSTRUCTORS, p.get("instructor_text"))
        if instructor is None:
            return clarify(
                say(
                    lang,
                    "Não conheço esse instrutor. Qual deles?",
                    "I don't know that instructor. Which one?",
                ),
                [option(name, name) for name in INSTRUCTORS],
                param="instructor_text",
            )
    if day < today():
        return fail(say(lang, "Esse dia já passou.", "That day is past."), "past_day")
    if day.weekday() == 6:
        return fail(
            say(lang, "Não há aulas no domingo.", "There are no lessons on Sundays."),
            "closed",
            recoverable=True,
            suggestions=[{"day": (day + timedelta(days=1)).isoformat()}],
        )
    if at[0] < FIRST_START or (at[0], at[1]) > (LAST_START, 0):
        hour = FIRST_START if at[0] < FIRST_START else LAST_START
        return fail(
            say(lang, "As aulas começam entre 7h e 19h.", "Lessons start between 7am and 7pm."),
            "outside_hours",
            recoverable=True,
            suggestions=[{"time": f"{hour:02d}:00"}],
        )
    _next[0] += 1
    code = f"AE{_next[0]}"
    when = f"{at[0]:02d}:{at[1]:02d}"
    LESSONS[code] = (kind, day, when, "booked")
    pt, en = LABEL[kind]
    who = instructor or "Marcos Oliveira"
    return DomainOutput(
        status="success",
        result={
            "code": code,
            "vehicle": kind,
            "day": day.isoformat(),
            "time": when,
            "instructor": who,
            "price": {"amount": PRICES[kind], "currency": "BRL"},
        },
        explanation=say(
            lang,
            f"Aula marcada {code}: {pt}, {day:%d/%m} às {when}, com {who}, R$ {PRICES[kind]:.2f}.",
            f"Lesson booked {code}: {en}, {day:%b %d} at {when}, with {who}, R$ {PRICES[kind]:.2f}.",
        ),
    )


@service.capability(
    "package_price",
    {
        "pt": "Diz o preço de um pacote de aulas de direção (uma aula de carro, se não disser)",
        "en": "Tell the price of a package of driving lessons (one car lesson, unless said)",
    },
    parameters={
        "type": "object",
        "properties": {
            "lessons": {"type": "number"},
            "vehicle": {"type": "string", "enum": list(VEHICLES)},
        },
    },
    metadata={
        "intent_hints": {
            "keywords": ["pacote de aulas", "preço da aula", "lesson package", "lesson price"],
            "examples": ["quanto custa o pacote de aulas?", "how much is a lesson package?"],
        },
        "policy": {"read_only": True},
    },
)
def package_price(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    kind = _vehicle(p)
    lessons = int(read_number(p.get("lessons")) or 1)
    off = _discount(lessons)
    total = round(PRICES[kind] * lessons * (1 - off), 2)
    pt, en = LABEL[kind]
    return DomainOutput(
        status="success",
        result={
            "vehicle": kind,
            "lessons": lessons,
            "discount": off,
            "price": {"amount": total, "currency": "BRL"},
        },
        explanation=say(
            lang,
            f"{lessons} aula(s) de {pt}: R$ {total:.2f} (R$ {PRICES[kind]} "
            f"a aula; 10% off a partir de 10, 15% a partir de 20).",
            f"{lessons} {en} lesson(s): R$ {total:.2f} (R$ {PRICES[kind]} "
            f"each; 10% off from 10, 15% from 20).",
        ),
    )


@service.capability(
    "cancel_lesson",
    {
        "pt": "Cancela uma aula marcada pelo código (até a véspera)",
        "en": "Cancel a booked lesson by its code (up to the day before)",
    },
    parameters={
        "type": "object",
        "properties": {"booking_text": {"type": "string", "minLength": 1}},
        "required": ["booking_text"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["cancelar aula", "desmarcar aula de direção", "cancel driving lesson"],
            "examples": ["quero cancelar minha aula de direção", "cancel my driving lesson"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def cancel_lesson(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    code = norm_code(intent.parameters.get("booking_text"))
    lesson = LESSONS.get(code)
    if lesson is None:
        return fail(say(lang, f"Não achei a aula {code}.", f"No lesson {code}."), "not_found")
    kind, day, when, state = lesson
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
    LESSONS[code] = (kind, day, when, "cancelled")
    pt, en = LABEL[kind]
    return DomainOutput(
        status="success",
        result={"code": code, "vehicle": kind, "day": day.isoformat(), "time": when, "state": "cancelled"},
        explanation=say(
            lang,
            f"Cancelada {code}: aula de {pt}, {day:%d/%m} às {when}.",
            f"Cancelled {code}: {en} lesson, {day:%b %d} at {when}.",
        ),
    )


VEHICLE_ENTITY: dict[str, Any] = {
    "type": "enum",
    "values": list(VEHICLES),
    "synonyms": VEHICLES,
    "description": {"pt": "Carro ou moto", "en": "Car or motorcycle"},
}

service.add_goal(
    {
        "goal": "BOOK_LESSON",
        "description": {"pt": "Marcar uma aula de direção", "en": "Book a driving lesson"},
        "entities_schema": {
            "vehicle": VEHICLE_ENTITY,
            "day": {
                "type": "date",
                "required": True,
                "description": {"pt": "O dia da aula", "en": "The day of the lesson"},
            },
            "time": {"type": "time", "required": True, "description": {"pt": "O horário", "en": "The time"}},
            "instructor_text": {
                "type": "string",
                "lookup": table(INSTRUCTORS),
                "description": {"pt": "O instrutor", "en": "The instructor"},
            },
        },
        "capabilities": ["book_lesson"],
        "examples": [
            ex("marca uma aula de direção amanhã às 8h", day="amanhã", time="às 8h"),
            ex(
                "quero uma aula de moto sexta às 15h com o Marcos",
                vehicle="MOTORCYCLE",
                day="sexta",
                time="às 15h",
                instructor_text="Marcos",
            ),
            ex("agendar aula prática de carro dia 20 às 10h", vehicle="CAR", day="dia 20", time="às 10h"),
            ex(
                "book a driving lesson on Friday at 9am with Carla",
                day="Friday",
                time="at 9am",
                instructor_text="Carla",
            ),
            ex(
                "schedule a motorcycle lesson tomorrow at 4pm",
                vehicle="MOTORCYCLE",
                day="tomorrow",
                time="at 4pm",
            ),
        ],
    }
)
service.add_goal(
    {
        "goal": "PACKAGE_PRICE",
        "description": {
            "pt": "Preço de um pacote de aulas de direção",
            "en": "Price of a package of driving lessons",
        },
        "entities_schema": {
            "lessons": {"type": "number", "description": {"pt": "Quantas aulas", "en": "How many lessons"}},
            "vehicle": VEHICLE_ENTITY,
        },
        "capabilities": ["package_price"],
        "examples": [
            ex("quanto custa o pacote de 10 aulas?", lessons="10 aulas"),
            ex("preço de 20 aulas de moto", lessons="20 aulas", vehicle="MOTORCYCLE"),
            ex("how much is a package of 10 lessons?", lessons="10 lessons"),
            ex("price for 5 car lessons", lessons="5", vehicle="CAR"),
        ],
    }
)
service.add_goal(
    {
        "goal": "CANCEL_LESSON",
        "description": {"pt": "Cancelar uma aula de direção marcada", "en": "Cancel a booked driving lesson"},
        "entities_schema": {
            "booking_text": {
                "type": "string",
                "required": True,
                "description": {"pt": "O código da aula", "en": "The lesson code"},
            }
        },
        "capabilities": ["cancel_lesson"],
        "examples": [
            ex("cancela a aula AE5101", booking_text="AE5101"),
            ex("quero cancelar a aula de direção AE5107", booking_text="AE5107"),
            ex("cancel driving lesson AE5107", booking_text="AE5107"),
            ex("please cancel lesson AE5101", booking_text="AE5101"),
        ],
    }
)

if __name__ == "__main__":
    serve(service)
