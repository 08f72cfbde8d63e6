"""The minutes of a time said in words ("às 9 e 45 da noite") are no year: read alone, "45 da
noite" is a night of 2045, which once made the time 09:00 on 2045-01-01."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from intent.typed import RECOGNIZER

NOW = datetime(2026, 3, 10, 13, 0, tzinfo=UTC)  # Tuesday, 10:00 in São Paulo


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("às 9 e 45 da noite", [("time", "21:45")]),
        ("as 9 e 45 da noite", [("time", "21:45")]),
        ("amanhã às 8 e 30", [("datetime", "2026-03-11T08:30:00-03:00")]),
        ("em 2027 às 10h", [("datetime", "2027-01-01T10:00:00-03:00")]),  # a year written whole
    ],
)
def test_minutes_in_words(text: str, read: list[tuple[str, str]]) -> None:
    spans = RECOGNIZER.spans(text, "pt", time_zone="America/Sao_Paulo", now=NOW)
    assert [(s.type, s.value) for s in spans] == read
