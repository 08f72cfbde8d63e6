""" "The day after" is the day after the day said before it ("amanhã e o dia seguinte", "Friday
and the day after"), which Duckling reads as today; after no day it names none."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from intent.typed import RECOGNIZER

NOW = datetime(2026, 11, 28, 18, 0, tzinfo=UTC)  # Saturday, 15:00 in São Paulo


@pytest.mark.parametrize(
    ("text", "language", "days"),
    [
        (
            "my son will miss school tomorrow and the day after",
            "en",
            [("2026-11-29", None), ("2026-11-30", None)],
        ),
        ("sexta e o dia seguinte", "pt", [("2026-12-04", "2026-11-27"), ("2026-12-05", "2026-11-28")]),
        ("the day after the party", "en", []),  # after no day: no day
        ("no dia seguinte", "pt", [("2026-11-29", None)]),  # alone: tomorrow
    ],
)
def test_the_day_after_is_the_day_after_the_one_said(
    text: str, language: str, days: list[tuple[str, str | None]]
) -> None:
    spans = RECOGNIZER.spans(text, language, time_zone="America/Sao_Paulo", now=NOW)
    assert [(s.value, s.earlier) for s in spans] == days
