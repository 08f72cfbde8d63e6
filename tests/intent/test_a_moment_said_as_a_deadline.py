"""A moment said as a deadline ("come *by thursday at 11am*", "renova *até sexta*") is that
moment: Duckling reads an interval from now (or from nothing) to it, whose start, now, is no
moment the person chose."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from intent.typed import RECOGNIZER

NOW = datetime(2026, 3, 10, 13, 0, tzinfo=UTC)  # Tuesday, 10:00 in São Paulo


@pytest.mark.parametrize(
    ("text", "language", "read"),
    [
        ("can a plumber come by thursday at 11am?", "en", [("datetime", "2026-03-12T11:00:00-03:00")]),
        ("by friday", "en", [("date", "2026-03-13")]),
        ("until thursday", "en", [("date", "2026-03-12")]),
        ("renova até sexta", "pt", [("date", "2026-03-13")]),
        # a range keeps its two ends
        ("de sexta a domingo", "pt", [("date", "2026-03-13"), ("date", "2026-03-15")]),
    ],
)
def test_the_moment_a_deadline_names(text: str, language: str, read: list[tuple[str, str]]) -> None:
    spans = RECOGNIZER.spans(text, language, time_zone="America/Sao_Paulo", now=NOW)
    assert [(s.type, s.value) for s in spans] == read
