"""A range of days ("de sexta a segunda", "from the 20th to the 23rd") is read as its two ends,
each a date over its own words: a goal with two days (a start and an end) gets both, in the
order said; a goal with one day gets the first, as before. Amounts too: "between $50 and $100"
is two amounts, and a limit ("under $60", "at least $30") is the amount it names."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from intent.entities import GoalEntityExtractor
from intent.typed import RECOGNIZER, Clock
from shared.manifest import Goal

SAO_PAULO = "America/Sao_Paulo"
#: a Tuesday
CLOCK = Clock(now=datetime(2026, 3, 10, 9, 0, tzinfo=ZoneInfo(SAO_PAULO)), time_zone=SAO_PAULO)

#: a made-up domain: a boat hired from one day to another
HIRE_BOAT: dict[str, Any] = {
    "goal": "HIRE_BOAT",
    "description": {"pt": "Alugar um barco", "en": "Hire a boat"},
    "capabilities": ["hire"],
    "entities_schema": {
        "from_day": {"type": "date", "required": True, "description": {"pt": "Início", "en": "First day"}},
        "to_day": {"type": "date", "required": True, "description": {"pt": "Fim", "en": "Last day"}},
    },
    "examples": [
        {
            "text": "aluga um barco de quinta a domingo",
            "entities": {"from_day": "quinta", "to_day": "domingo"},
        },
        {
            "text": "hire a boat from Monday to Wednesday",
            "entities": {"from_day": "Monday", "to_day": "Wednesday"},
        },
    ],
}

#: the same words for a goal with one day
SAIL: dict[str, Any] = {
    "goal": "SAIL",
    "description": {"pt": "Velejar", "en": "Go sailing"},
    "capabilities": ["sail"],
    "entities_schema": {"day": {"type": "date", "description": {"pt": "O dia", "en": "The day"}}},
    "examples": [{"text": "velejar sábado", "entities": {"day": "sábado"}}],
}


@pytest.mark.parametrize(
    ("text", "language", "ends"),
    [
        ("aluga de sexta a segunda", "pt", ("2026-03-13", "2026-03-16")),
        # the end comes first in the week: the range starts on the next of its first day
        ("aluga de sábado a quarta", "pt", ("2026-03-14", "2026-03-18")),
        ("from saturday to wednesday", "en", ("2026-03-14", "2026-03-18")),
        ("from the 20th to the 23rd", "en", ("2026-03-20", "2026-03-23")),
        ("do dia 20 ao dia 23", "pt", ("2026-03-20", "2026-03-23")),
        ("Salvador / 3/21 - 3/24", "en", ("2026-03-21", "2026-03-24")),
        ("between March 21 and March 24", "en", ("2026-03-21", "2026-03-24")),
        ("de amanhã até sexta", "pt", ("2026-03-11", "2026-03-13")),
    ],
)
def test_a_range_of_days_is_its_two_ends_over_their_own_words(
    text: str, language: str, ends: tuple[str, str]
) -> None:
    spans = [
        s for s in RECOGNIZER.spans(text, language, time_zone=SAO_PAULO, now=CLOCK.now) if s.type == "date"
    ]
    assert tuple(s.value for s in spans) == ends
    first, last = spans
    assert first.end <= last.start  # apart: neither covers the other's words


@pytest.mark.parametrize(
    ("text", "language"),
    [("quero um barco de sexta a segunda", "pt"), ("hire me a boat from Friday to Monday", "en")],
)
def test_a_goal_with_two_days_gets_both_ends(text: str, language: str) -> None:
    found = GoalEntityExtractor(Goal.model_validate(HIRE_BOAT)).extract(text, clock=CLOCK, language=language)
    assert (found["from_day"], found["to_day"]) == ("2026-03-13", "2026-03-16")


def test_a_goal_with_one_day_still_takes_the_first() -> None:
    found = GoalEntityExtractor(Goal.model_validate(SAIL)).extract(
        "velejar de sexta a segunda", clock=CLOCK, language="pt"
    )
    assert found["day"] == "2026-03-13"


@pytest.mark.parametrize("text", ["this weekend", "tomorrow morning", "next week"])
def test_parts_of_days_and_weeks_stay_one_day(text: str) -> None:
    spans = RECOGNIZER.spans(text, "en", time_zone=SAO_PAULO, now=CLOCK.now)
    assert [s.type for s in spans] == ["date"]


@pytest.mark.parametrize(
    ("text", "amounts"),
    [
        ("any car under $60 a day?", [60]),
        ("less than 50 dollars", [50]),
        ("at least $30", [30]),
        ("between $50 and $100", [50, 100]),
    ],
)
def test_a_limit_is_the_amount_it_names_and_a_range_its_two_ends(text: str, amounts: list[int]) -> None:
    spans = [s for s in RECOGNIZER.spans(text, "en", time_zone=SAO_PAULO, now=CLOCK.now) if s.type == "money"]
    assert [s.value for s in spans] == [{"amount": a, "currency": "USD"} for a in amounts]
