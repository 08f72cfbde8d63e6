"""A goal the classifier doubts (under the out-of-scope threshold) is read as a clear request
only when it accounts for every word of the message: "rent an apartment on friday" has a car
rental's verb and city, and a thing it does not rent."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from intent.embedded import EmbeddedIntentAdapter
from shared.catalog import Catalog
from shared.manifest import DomainManifest
from tests.intent.test_ties_decided_by_words import CARS

#: the car rental with a city from its table
CITIES: dict[str, Any] = copy.deepcopy(CARS)
CITIES["goals"][0]["entities_schema"] = {
    "city_text": {
        "type": "string",
        "required": True,
        "lookup": [{"value": "Curitiba", "aliases": ["cwb"]}, {"value": "Recife", "aliases": []}],
    },
    "day": {"type": "date"},
}
CITIES["goals"][0]["examples"] = [
    {"text": "quero alugar um carro em Recife sexta", "entities": {"city_text": "Recife"}},
    {"text": "aluga um carro em Curitiba pra amanhã", "entities": {"city_text": "Curitiba"}},
    {"text": "rent me a car in Recife on friday", "entities": {"city_text": "Recife"}},
]

CONTEXT = {"time_zone": "America/Sao_Paulo", "now": "2026-03-10T09:00:00-03:00"}


@pytest.fixture(scope="module")
def doubting() -> EmbeddedIntentAdapter:
    trained = EmbeddedIntentAdapter(Catalog([DomainManifest.model_validate(CITIES)]), use_embeddings=False)
    # every reading is doubted (under the threshold): the rescue, not the classifier, is tested
    doubting = EmbeddedIntentAdapter(use_embeddings=False, oos_threshold=0.999)
    doubting.catalog, doubting.model = trained.catalog, trained.model
    return doubting


@pytest.mark.parametrize(
    "text",
    [
        "rent me a car in Curitiba on friday",
        "aluga um carro em Curitiba pra sexta",
        "grab car in Curitiba on friday",
        "arranja carro em Curitiba pra sexta",
    ],
)
def test_a_doubted_goal_that_explains_every_word_is_read(doubting: EmbeddedIntentAdapter, text: str) -> None:
    out = doubting.parse_sync(text, context=CONTEXT)
    assert out.goal == "RENT_CAR", (text, out)
    assert out.entities == {"city_text": "Curitiba", "day": "2026-03-13"}, out.entities


@pytest.mark.parametrize(
    "lure", ["rent me an apartment in Curitiba on friday", "aluga um apartamento em Curitiba pra sexta"]
)
def test_a_doubted_goal_with_a_word_it_does_not_know_is_not(
    doubting: EmbeddedIntentAdapter, lure: str
) -> None:
    out = doubting.parse_sync(lure, context=CONTEXT)
    assert out.goal is None, (lure, out)
