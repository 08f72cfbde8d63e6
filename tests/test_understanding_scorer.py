"""The held-out understanding scorer (bench/understanding_eval.py) compares durations by how long
they last: the platform's "PT1H30M" is the case file's "PT90M"."""

from __future__ import annotations

import pytest

from bench.understanding_eval import same


@pytest.mark.parametrize(
    ("predicted", "expected", "equal"),
    [("pt1h30m", "pt90m", True), ("PT2H", "pt120m", True), ("p1d", "pt24h", True), ("pt1h", "pt90m", False)],
)
def test_durations_are_the_same_when_they_last_as_long(predicted: str, expected: str, equal: bool) -> None:
    assert same("duration", predicted, expected) is equal


def test_words_that_look_like_an_empty_duration_are_compared_as_words() -> None:
    assert same("language", "pt", "pt")
    assert not same("language", "pt", "p")
