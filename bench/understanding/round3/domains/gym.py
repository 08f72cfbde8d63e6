"""Gym (round-3 bench domain): book a class, cancel a booked class, list my classes.

Fake, deterministic, in memory. Run: ``python -m bench.understanding.round3.domains.gym --port 8133``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from bench.understanding.round3.domains._common import (
    ex,
    language,
    lookup_spec,
    read_day,
    read_time,
    resolve,
    say,
    today,
)
from sdk.service import DomainService, clarify, fail, option, serve
from shared.models import DomainOutput, ExecutionIntent

CLASSES: dict[str, list[str]] = {
    "Spinning": ["spin", "bike", "indoor cycling", "cycling", "aula de bike"],
    "Yoga": ["ioga", "yoga flow", "hatha"],
    "Pilates": ["pilates solo", "mat pilates"],
    "Crossfit": ["cross", "crossfit wod", "wod"],
    "Zumba": ["zumba fitness", "dança", "dance class"],
    "Funcional": ["treino funcional", "functional", "functional training", "hiit"],
    "Natação": ["natacao", "swimming", "swim", "aula de natação", "piscina"],
}
_ALL_WEEK = range(6)  # Monday to Saturday; the gym is closed on Sundays
#: class -> weekday (0 = Monday) -> start times
TIMETABLE: dict[str, dict[int, list[str]]] = {
    "Spinning": {d: ["07:00", "19:00"] for d in _ALL_WEEK},
    "Yoga": {1: ["18:30"], 3: ["18:30"], 5: ["10:00"]},
    "Pilates": {0: ["08:00"], 2: ["08:00"], 4: ["08:00"], 5: ["09:00"]},
    "Crossfit": {d: ["06:00", "12:00", "18:00"] for d in _ALL_WEEK},
    "Zumba": {2: ["20:00"], 4: ["20:00"]},
    "Funcional": {d: ["12:30"] for d in range(5)},
    "Natação": {d: ["07:00", "17:00"] for d in _ALL_WEEK},
}


@dataclass
class Booked:
    id: str
    gym_class: str
    day: str
    time: str

    def describe(self) -> str:
        return f"{self.gym_class}, {self.day} {self.time}"


MY_CLASSES: dict[str, Booked] = {
    b.id: b
    for b in (
        Booked("G101", "Spinning", "2026-03-11", "07:00"),
        Booked("G102", "Yoga", "2026-03-12", "18:30"),
        Booked("G103", "Pilates", "2026-03-14", "09:00"),
        Booked("G104", "Spinning", "2026-03-17", "07:00"),
    )
}
_next_id = [200]

service = DomainService(
    "gym",
    "0.1.0",
    {"pt": "Academia: aulas coletivas", "en": "Gym: group classes"},
)

CLASS_ENTITY: dict[str, Any] = {
    "type": "string",
    "description": {"pt": "A aula", "en": "The class"},
    "lookup": lookup_spec(CLASSES),
}


@service.capability(
    "book_class",
    {"pt": "Reserva uma vaga numa aula da academia", "en": "Book a spot in a gym class"},
    parameters={
        "type": "object",
        "properties": {
            "class_text": {"type": "string", "minLength": 1},
            "day": {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"},
            "time": {"type": "string", "pattern": "^\\d{2}:\\d{2}$"},
        },
        "required": ["class_text", "day", "time"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["aula", "academia", "agendar aula", "class", "gym", "book a class"],
            "examples": ["quero fazer uma aula na academia", "book me a gym class"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def book_class(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    name = resolve(p.get("class_text"), CLASSES)
    if name is None:
        return clarify(
            say(lang, "Não temos essa aula. Qual destas?", "We don't have that class. Which of these?"),
            [option(n, n, aliases=a) for n, a in CLASSES.items()],
            param="class_text",
            metadata={"resolution": "unknown_class"},
        )
    day, time = read_day(p.get("day")), read_time(p.get("time"))
    if day is None or time is None:
        return fail(
            say(lang, "Faltam o dia ou o horário.", "The day or time is missing."), "missing_parameter"
        )
    if day < today():
        return fail(say(lang, "Esse dia já passou.", "That day has passed."), "past_day")
    times = TIMETABLE[name].get(day.weekday(), [])
    if time not in times:
        listed = ", ".join(times) or say(lang, "nenhum horário", "no times")
        return fail(
            say(
                lang,
                f"Não há {name} nesse horário; nesse dia: {listed}.",
                f"No {name} at that time; that day: {listed}.",
            ),
            "no_class_at_that_time",
            recoverable=bool(times),
            suggestions=[{"time": t} for t in times],
        )
    _next_id[0] += 1
    booked = Booked(f"G{_next_id[0]}", name, day.isoformat(), time)
    MY_CLASSES[booked.id] = booked
    return DomainOutput(
        status="success",
        result=asdict(booked),
        explanation=say(lang, f"Vaga reservada — {booked.describe()}.", f"Booked — {booked.describe()}."),
    )


@service.capability(
    "cancel_class",
    {"pt": "Cancela uma aula reservada", "en": "Cancel a booked class"},
    parameters={
        "type": "object",
        "properties": {"class_text": {"type": "string", "minLength": 1}, "day": {"type": "string"}},
        "required": ["class_text"],
    },
    metadata={
        "intent_hints": {"keywords": ["cancelar aula", "desmarcar aula", "cancel class", "drop class"]},
        "policy": {"confirm": True, "idempotent": False},
    },
)
def cancel_class(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    name = resolve(p.get("class_text"), CLASSES)
    day = read_day(p.get("day"))
    found = [
        b
        for b in MY_CLASSES.values()
        if (name is None or b.gym_class == name) and (day is None or b.day == day.isoformat())
    ]
    if not found:
        return fail(
            say(lang, "Você não tem essa aula reservada.", "You have no such class booked."),
            "class_not_booked",
        )
    if len(found) > 1:
        return clarify(
            say(lang, "Qual delas?", "Which one?"),
            [option(b.day, b.describe()) for b in found],
            param="day",
            metadata={"resolution": "several_booked"},
        )
    MY_CLASSES.pop(found[0].id)
    return DomainOutput(
        status="success",
        result={"id": found[0].id, "cancelled": True},
        explanation=say(
            lang, f"Aula cancelada — {found[0].describe()}.", f"Cancelled — {found[0].describe()}."
        ),
    )


@service.capability(
    "list_my_classes",
    {"pt": "Lista as suas aulas reservadas", "en": "List your booked classes"},
    parameters={"type": "object", "properties": {"day": {"type": "string"}}},
    metadata={"intent_hints": {"keywords": ["minhas aulas", "my classes", "my schedule"]}},
)
def list_my_classes(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    day = read_day(intent.parameters.get("day"))
    items = sorted(
        (b for b in MY_CLASSES.values() if day is None or b.day == day.isoformat()),
        key=lambda b: (b.day, b.time),
    )
    text = "\n".join(b.describe() for b in items) or say(
        lang, "Nenhuma aula reservada.", "No classes booked."
    )
    return DomainOutput(status="success", result={"classes": [asdict(b) for b in items]}, explanation=text)


service.add_goal(
    {
        "goal": "BOOK_CLASS",
        "description": {"pt": "Reservar uma aula na academia", "en": "Book a gym class"},
        "entities_schema": {
            "class_text": CLASS_ENTITY | {"required": True},
            "day": {"type": "date", "required": True, "description": {"pt": "O dia", "en": "The day"}},
            "time": {"type": "time", "required": True, "description": {"pt": "O horário", "en": "The time"}},
        },
        "capabilities": ["book_class"],
        "examples": [
            ex("me inscreve no Spinning de amanhã às 7h", class_text="Spinning", day="amanhã", time="às 7h"),
            ex("quero reservar Yoga quinta 18h30", class_text="Yoga", day="quinta", time="18h30"),
            ex(
                "agenda Pilates pra sexta às 8 da manhã",
                class_text="Pilates",
                day="sexta",
                time="às 8 da manhã",
            ),
            ex(
                "tem vaga no Crossfit sábado ao meio-dia? reserva pra mim",
                class_text="Crossfit",
                day="sábado",
                time="ao meio-dia",
            ),
            ex("book me into Zumba on Wednesday at 8pm", class_text="Zumba", day="Wednesday", time="8pm"),
            ex(
                "sign me up for functional training tomorrow at 12:30",
                class_text="functional training",
                day="tomorrow",
                time="12:30",
            ),
            ex(
                "reserve a spot in the 7am swimming class on Friday",
                time="7am",
                class_text="swimming",
                day="Friday",
            ),
        ],
    }
)
service.add_goal(
    {
        "goal": "CANCEL_CLASS",
        "description": {"pt": "Cancelar uma aula reservada na academia", "en": "Cancel a booked gym class"},
        "entities_schema": {
            "class_text": CLASS_ENTITY | {"required": True},
            "day": {"type": "date", "description": {"pt": "O dia", "en": "The day"}},
        },
        "capabilities": ["cancel_class"],
        "examples": [
            ex("cancela minha aula de Yoga de quinta", class_text="Yoga", day="quinta"),
            ex("desmarca o Pilates de sábado", class_text="Pilates", day="sábado"),
            ex("não vou mais no spinning amanhã, cancela", class_text="spinning", day="amanhã"),
            ex("cancel my yoga class on Thursday", class_text="yoga", day="Thursday"),
            ex("drop me from Saturday's Pilates", day="Saturday", class_text="Pilates"),
        ],
    }
)
service.add_goal(
    {
        "goal": "LIST_MY_CLASSES",
        "description": {"pt": "As suas aulas reservadas na academia", "en": "Your booked gym classes"},
        "entities_schema": {"day": {"type": "date", "description": {"pt": "O dia", "en": "The day"}}},
        "capabilities": ["list_my_classes"],
        "examples": [
            ex("quais aulas eu tenho essa semana?"),
            ex("tenho aula amanhã?", day="amanhã"),
            ex("mostra minhas aulas da academia"),
            ex("what classes am I booked into?"),
            ex("do I have a class on Saturday?", day="Saturday"),
        ],
    }
)

if __name__ == "__main__":
    serve(service)
