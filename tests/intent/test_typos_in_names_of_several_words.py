"""A table's name of several words is known with a typo in a long word ("sushi *kenso*" of
"Sushi Kenzo"), as a one-word name already was: the whole name is the value, not its last word."""

from __future__ import annotations

from intent.entities import GoalEntityExtractor
from shared.manifest import Goal
from tests.conftest import example

GOAL = Goal.model_validate(
    {
        "goal": "BOOK_TABLE",
        "description": {"pt": "Reservar uma mesa num restaurante", "en": "Book a table"},
        "entities_schema": {
            "restaurant_text": {
                "type": "string",
                "required": True,
                "lookup": [
                    {"value": "Sushi Kenzo", "aliases": ["Kenzo", "Kenzo Sushi"]},
                    {"value": "Cantina Roma", "aliases": ["Roma"]},
                ],
            },
            "party_size": {"type": "number"},
        },
        "examples": [
            example("reserva uma mesa no Sushi Kenzo pra 2", restaurant_text="Sushi Kenzo", party_size="2"),
            example("book a table at Cantina Roma for 4", restaurant_text="Cantina Roma", party_size="4"),
        ],
    }
)


def test_a_name_of_several_words_with_a_typo_is_the_whole_name() -> None:
    extractor = GoalEntityExtractor(GOAL)
    assert extractor.extract("reserva no sushi kenso pra 2")["restaurant_text"] == "sushi kenso"
    assert extractor.from_table({"restaurant_text": "sushi kenso"})


def test_short_words_are_no_typos() -> None:
    extractor = GoalEntityExtractor(GOAL)
    assert not extractor.from_table({"restaurant_text": "sushi kenz"})
    assert not extractor.from_table({"restaurant_text": "cantina rama"})  # 4 letters: exact
