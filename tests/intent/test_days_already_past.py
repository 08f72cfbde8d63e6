"""An entity whose days are already past (an incident, a purchase) declares
``prefer_dates_from: past``: a day said without what fixes it ("sexta", "dia 12", "March 1st")
is then its last time up to now, not its next one. Days that fix themselves ("amanhã",
"next Friday", "ontem") are read as said."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from pydantic import ValidationError

from intent.entities import GoalEntityExtractor
from intent.typed import RECOGNIZER, Clock
from shared.manifest import EntitySpec, Goal

NOW = datetime(2026, 11, 28, 18, 0, tzinfo=UTC)  # Saturday, 15:00 in São Paulo
CLOCK = Clock(now=NOW, time_zone="America/Sao_Paulo")


def _goal(kind: str, prefer: str) -> Goal:
    return Goal.model_validate(
        {
            "goal": "REPORT_INCIDENT",
            "description": "report something that happened",
            "entities_schema": {
                "when": {"type": kind, "description": "when it happened", "prefer_dates_from": prefer},
                "code_text": {"type": "string", "description": "the policy"},
            },
            "examples": ["report an incident on SG3307 yesterday", "aconteceu dia 3 de março na SG3307"],
        }
    )


@pytest.mark.parametrize(
    ("text", "language", "ahead", "past"),
    [
        ("foi dia 1 de março", "pt", "2027-03-01", "2026-03-01"),
        ("it happened on march 1st", "en", "2027-03-01", "2026-03-01"),
        ("bati o carro na sexta", "pt", "2026-12-04", "2026-11-27"),
        ("foi dia 12", "pt", "2026-12-12", "2026-11-12"),
        ("on 12/03", "pt", "2027-03-12", "2026-03-12"),
        # a month without the day said is stepped back to one that has it
        ("no dia 31", "pt", "2026-12-31", "2026-10-31"),
    ],
)
def test_a_repeating_day_has_its_last_time(text: str, language: str, ahead: str, past: str) -> None:
    [span] = RECOGNIZER.spans(text, language, time_zone="America/Sao_Paulo", now=NOW)
    assert (span.value, span.earlier) == (ahead, past)
    assert (
        GoalEntityExtractor(_goal("date", "past")).extract(text, clock=CLOCK, language=language)["when"]
        == past
    )
    assert (
        GoalEntityExtractor(_goal("date", "future")).extract(text, clock=CLOCK, language=language)["when"]
        == ahead
    )


@pytest.mark.parametrize(
    ("text", "language", "day"),
    [
        ("foi ontem", "pt", "2026-11-27"),
        ("amanhã", "pt", "2026-11-29"),  # said, however odd for an incident
        ("sexta que vem", "pt", "2026-12-04"),
        ("next friday", "en", "2026-12-04"),
        # a year written after the month is the day's, not a number standing alone
        ("on march 1st 2025", "en", "2025-03-01"),
        ("foi em 1 de março de 2025", "pt", "2025-03-01"),
        # a period wholly past starts where it starts, not today
        ("em março de 2025", "pt", "2025-03-01"),
        ("semana passada", "pt", "2026-11-16"),
    ],
)
def test_a_day_that_fixes_itself_is_read_as_said(text: str, language: str, day: str) -> None:
    found = GoalEntityExtractor(_goal("date", "past")).extract(text, clock=CLOCK, language=language)
    assert found["when"] == day


def test_a_day_and_an_hour_lean_past_together() -> None:
    found = GoalEntityExtractor(_goal("datetime", "past")).extract(
        "friday at 3pm on SG3307", clock=CLOCK, language="en"
    )
    assert found["when"] == "2026-11-27T15:00:00-03:00"


def test_only_days_prefer_the_past() -> None:
    with pytest.raises(ValidationError, match="only date and datetime"):
        EntitySpec.model_validate({"type": "number", "prefer_dates_from": "past"})


def test_the_default_is_left_out_of_a_manifest() -> None:
    assert "prefer_dates_from" not in EntitySpec(type="date").model_dump()
    assert EntitySpec(type="date", prefer_dates_from="past").model_dump()["prefer_dates_from"] == "past"
