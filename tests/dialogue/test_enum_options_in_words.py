"""A question for an enum lists its values in the person's words, as the approval names them: the
entity's first synonym written in their language, else the value in lower case; the reply may
still name any of them by value, synonym or position."""

from __future__ import annotations

import pytest

from dialogue.choice import choose
from dialogue.slots import enum_options
from shared.manifest import EntitySpec

PERIOD = EntitySpec(
    type="enum",
    values=["MORNING", "AFTERNOON", "EVENING_CLASS"],
    synonyms={"MORNING": ["de manhã", "in the morning"], "AFTERNOON": ["à tarde", "in the afternoon"]},
)


@pytest.mark.parametrize(
    ("language", "labels"),
    [
        ("pt", ["de manhã", "à tarde", "evening class"]),
        ("en", ["in the morning", "in the afternoon", "evening class"]),
    ],
)
def test_labels_are_the_persons_words(language: str, labels: list[str]) -> None:
    assert [o.label for o in enum_options(PERIOD, language)] == labels


def test_without_a_language_the_values_stay() -> None:
    assert [o.label for o in enum_options(PERIOD)] == ["MORNING", "AFTERNOON", "EVENING_CLASS"]


@pytest.mark.parametrize("reply", ["AFTERNOON", "à tarde", "in the afternoon", "2"])
def test_any_name_of_a_value_picks_it(reply: str) -> None:
    options = enum_options(PERIOD, "pt")
    picked = choose(reply, options)
    assert picked is not None and options[picked].value == "AFTERNOON"
