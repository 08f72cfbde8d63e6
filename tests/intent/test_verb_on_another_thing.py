"""A goal the classifier doubts is not rescued when its own verb acts on a thing it does not know:
"rent an *apartment* in Curitiba" has a car rental's verb and city, and rents no car; "rent an
SUV in Rio" acts on a value of the goal's and is read."""

from __future__ import annotations

from typing import Any

import pytest

from intent.entities import GoalEntityExtractor
from shared.manifest import Goal
from tests.conftest import example

QUOTE: dict[str, Any] = {
    "goal": "QUOTE_PRICE",
    "description": {"pt": "Quanto custa alugar um carro", "en": "How much a car rental costs"},
    "entities_schema": {
        "city_text": {
            "type": "string",
            "lookup": [{"value": "Curitiba"}, {"value": "Rio de Janeiro", "aliases": ["Rio"]}],
        },
        "car_class": {"type": "enum", "values": ["SUV", "VAN"], "synonyms": {"SUV": ["suv"], "VAN": ["van"]}},
    },
    "examples": [
        example("quanto custa alugar um SUV?", car_class="SUV"),
        example("price to rent a van in Curitiba", car_class="VAN", city_text="Curitiba"),
        example("how much is an SUV per day?", car_class="SUV"),
    ],
}


@pytest.mark.parametrize(
    ("text", "thing"),
    [
        ("rent an apartment in Curitiba", "apartment"),
        ("rent me an apartment in Curitiba", "apartment"),
        ("rent an SUV in Rio", None),
        ("rent a van in Curitiba", None),
        ("Curitiba, rent", None),
    ],
)
def test_the_thing_a_goals_verb_acts_on(text: str, thing: str | None) -> None:
    extractor = GoalEntityExtractor(Goal.model_validate(QUOTE))
    assert extractor.unknown_object(text, extractor.extract(text)) == thing, text
