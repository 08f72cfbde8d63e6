"""A weekday typed with a slip ("thrusday", "wensday", "firday"; "sexat", "qiunta" with two letters
swapped) is that day, as Duckling reads only names spelt right; a word that is no slip of one
("sundae", "sesta", "quanta") stays a word."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from intent.typed import RECOGNIZER

NOW = datetime(2026, 3, 10, 10, 0, tzinfo=ZoneInfo("America/Sao_Paulo"))  # a Tuesday


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("book a wash thrusday 2pm", [("datetime", "2026-03-12T14:00:00-03:00", "thrusday 2pm")]),
        ("wensday", [("date", "2026-03-11", "wensday")]),
        ("see you firday", [("date", "2026-03-13", "firday")]),
        ("a sundae please", []),
        ("sunny day", []),
    ],
)
def test_a_weekday_with_a_slip(text: str, read: list[tuple[str, str, str]]) -> None:
    spans = RECOGNIZER.spans(text, "en", time_zone="America/Sao_Paulo", now=NOW)
    assert [(s.type, s.value, text[s.start : s.end]) for s in spans] == read


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("lavagem na sexat", [("date", "2026-03-13", "na sexat")]),
        ("pode ser qiunta às 15h?", [("datetime", "2026-03-12T15:00:00-03:00", "qiunta às 15h")]),
        ("sábdao de manhã", [("date", "2026-03-14", "sábdao de manhã")]),
        ("segudna", [("date", "2026-03-16", "segudna")]),
        ("sesta depois do almoço", []),
        ("quanta gente", []),
    ],
)
def test_a_portuguese_weekday_with_two_letters_swapped(text: str, read: list[tuple[str, str, str]]) -> None:
    spans = RECOGNIZER.spans(text, "pt", time_zone="America/Sao_Paulo", now=NOW)
    assert [(s.type, s.value, text[s.start : s.end]) for s in spans] == read
