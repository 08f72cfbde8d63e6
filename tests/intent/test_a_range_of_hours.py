"""A range of hours ("das 14h às 16h", "tomorrow from 2 to 4pm") is its start and its end: to a
goal that reads a start and how long, the end says how long; to one that reads two times, both
are times. Duckling reads the English range as one interval (it gave a day alone) and the
Portuguese one as two times, "das 9" as the number 9."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from intent.embedded import EmbeddedIntentAdapter
from intent.entities import GoalEntityExtractor
from intent.typed import RECOGNIZER, Clock
from shared.manifest import Goal
from tests.conftest import example

ZONE = "America/Sao_Paulo"
NOW = datetime(2026, 3, 10, 10, 0, tzinfo=ZoneInfo(ZONE))  # a Tuesday
CONTEXT = {"now": NOW.isoformat(), "time_zone": ZONE}


@pytest.mark.parametrize(
    ("text", "language", "read"),
    [
        (
            "amanhã das 14h às 16h",
            "pt",
            [("date", "2026-03-11", None), ("time", "14:00", None), ("time", "16:00", "PT2H")],
        ),
        (
            "sexta das 9 às 11",
            "pt",
            [("date", "2026-03-13", None), ("time", "09:00", None), ("time", "11:00", "PT2H")],
        ),
        ("das 2 às 4 da tarde", "pt", [("time", "14:00", None), ("time", "16:00", "PT2H")]),
        ("das 10h até meio-dia", "pt", [("time", "10:00", None), ("time", "12:00", "PT2H")]),
        (
            "amanhã de 10h até meio-dia",
            "pt",
            [("datetime", "2026-03-11T10:00:00-03:00", None), ("time", "12:00", "PT2H")],
        ),
        (
            "tomorrow from 2 to 4pm",
            "en",
            [("datetime", "2026-03-11T14:00:00-03:00", None), ("time", "16:00", "PT2H")],
        ),
        ("friday 9-11am", "en", [("datetime", "2026-03-13T09:00:00-03:00", None), ("time", "11:00", "PT2H")]),
        ("from 14:00 to 15:30", "en", [("time", "14:00", None), ("time", "15:30", "PT1H30M")]),
        ("between 2 and 4pm", "en", [("time", "14:00", None), ("time", "16:00", "PT2H")]),
        # a part of a day is no range of hours, though Duckling reads it from 18h to midnight
        ("hoje à noite", "pt", [("date", "2026-03-10", None)]),
        # a count before a time is no range
        ("mesa pra 2 às 16h", "pt", [("number", 2, None), ("time", "16:00", None)]),
    ],
)
def test_a_range_is_its_start_and_its_end(
    text: str, language: str, read: list[tuple[str, object, str | None]]
) -> None:
    spans = RECOGNIZER.spans(text, language, time_zone=ZONE, now=NOW)
    assert [(s.type, s.value, s.lasting) for s in spans] == read


@pytest.mark.parametrize(
    ("text", "day", "start", "duration"),
    [
        ("reserva a sala jabuticaba quinta das 14h às 16h pra 10 pessoas", "2026-03-12", "14:00", "PT2H"),
        ("book the ipe room tomorrow from 2 to 4pm", "2026-03-11", "14:00", "PT2H"),
        ("sala ipê sexta das 9 às 11", "2026-03-13", "09:00", "PT2H"),
    ],
)
def test_a_start_and_how_long(
    round11_beside_shipped: EmbeddedIntentAdapter, text: str, day: str, start: str, duration: str
) -> None:
    read = round11_beside_shipped.parse_sync(text, context=CONTEXT)
    assert read.goal == "BOOK_SPACE", read.notes
    assert (read.entities.get("day"), read.entities.get("start"), read.entities.get("duration")) == (
        day,
        start,
        duration,
    )


MEETING = Goal.model_validate(
    {
        "goal": "BOOK_MEETING",
        "description": "Marcar uma reunião (book a meeting)",
        "capabilities": ["book_meeting"],
        "entities_schema": {
            "day": {"type": "date", "required": True},
            "starts": {"type": "time", "required": True},
            "ends": {"type": "time"},
            "duration": {"type": "duration"},
        },
        "examples": [
            example("marca uma reunião amanhã das 10h às 11h", day="amanhã", starts="10h", ends="11h"),
            example("book a meeting on friday from 3pm to 4pm", day="friday", starts="3pm", ends="4pm"),
            example("reunião segunda às 9h por 1 hora", day="segunda", starts="9h", duration="1 hora"),
        ],
    }
)


def test_a_goal_with_two_times_takes_both() -> None:
    found = GoalEntityExtractor(MEETING).extract(
        "marca uma reunião sexta das 14h às 16h", clock=Clock(now=NOW, time_zone=ZONE), language="pt"
    )
    assert (found.get("starts"), found.get("ends"), found.get("duration")) == ("14:00", "16:00", None)
