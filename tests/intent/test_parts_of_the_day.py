"""A part of the day said alone ("de manhã", "in the evening") names no day, and beside a day
("sexta *à tarde*") it is still there for an enum of the goal's (a delivery window): the day
and the window are both read."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from intent.entities import GoalEntityExtractor
from intent.typed import RECOGNIZER, Clock
from shared.manifest import Goal
from tests.conftest import example

NOW = datetime(2026, 3, 10, 13, 0, tzinfo=UTC)  # a Tuesday, 10:00 in São Paulo
CLOCK = Clock(now=NOW, time_zone="America/Sao_Paulo")
RESCHEDULE = Goal.model_validate(
    {
        "goal": "RESCHEDULE_DELIVERY",
        "description": {"pt": "Reagendar uma entrega", "en": "Reschedule a delivery"},
        "entities_schema": {
            "day": {"type": "date", "required": True},
            "period": {
                "type": "enum",
                "values": ["MORNING", "AFTERNOON", "EVENING"],
                "synonyms": {
                    "MORNING": ["manhã", "de manhã", "morning"],
                    "AFTERNOON": ["tarde", "à tarde", "afternoon"],
                    "EVENING": ["noite", "à noite", "evening"],
                },
            },
            "time": {"type": "time"},
        },
        "required_one_of": [["period", "time"]],
        "examples": [
            example("reagenda a entrega pra sexta de manhã", day="sexta", period="MORNING"),
            example("muda a entrega pra sábado às 19h", day="sábado", time="às 19h"),
            example("reschedule my delivery to Monday afternoon", day="Monday", period="AFTERNOON"),
        ],
    }
)


def _dates(text: str, language: str) -> list[object]:
    spans = RECOGNIZER.spans(text, language, time_zone="America/Sao_Paulo", now=NOW)
    return [s.value for s in spans if s.type == "date"]


@pytest.mark.parametrize(
    ("text", "language", "dates"),
    [
        ("pode ser de manhã", "pt", []),
        ("à tarde", "pt", []),
        ("in the evening", "en", []),
        ("tonight", "en", ["2026-03-10"]),
        ("hoje à noite", "pt", ["2026-03-10"]),
        ("amanhã de manhã", "pt", ["2026-03-11"]),
        ("sexta à tarde", "pt", ["2026-03-13"]),
    ],
)
def test_a_part_of_the_day_names_a_day_only_with_one(text: str, language: str, dates: list[object]) -> None:
    assert _dates(text, language) == dates


@pytest.mark.parametrize(
    ("text", "language", "entities"),
    [
        ("muda pra quinta à tarde", "pt", {"day": "2026-03-12", "period": "AFTERNOON"}),
        ("move it to friday morning", "en", {"day": "2026-03-13", "period": "MORNING"}),
        ("pode ser de manhã", "pt", {"period": "MORNING"}),
        # an hour of the afternoon is a time, not a window as well
        ("muda pra sexta às 3 da tarde", "pt", {"day": "2026-03-13", "time": "15:00"}),
    ],
)
def test_the_day_and_its_window(text: str, language: str, entities: dict[str, str]) -> None:
    found = GoalEntityExtractor(RESCHEDULE).extract(text, clock=CLOCK, language=language)
    assert found == entities, found


def test_a_weekday_with_a_part_of_the_day_is_the_weekday_alone() -> None:
    friday_evening = datetime(2026, 11, 27, 23, 0, tzinfo=UTC)  # 20:00 in São Paulo

    def dates(text: str, language: str) -> list[object]:
        spans = RECOGNIZER.spans(text, language, time_zone="America/Sao_Paulo", now=friday_evening)
        return [s.value for s in spans if s.type == "date"]

    # "sexta" said on a Friday is next week's, with a part of the day too
    assert dates("sexta", "pt") == dates("sexta de manhã", "pt") == ["2026-12-04"]
    assert dates("friday morning", "en") == ["2026-12-04"]
    assert dates("hoje à noite", "pt") == dates("tonight", "en") == ["2026-11-27"]
    assert dates("amanhã de manhã", "pt") == ["2026-11-28"]
