"""A required value that is in no table of its goal and has a word another domain's goals are
phrased with is that domain's thing, not a name the goal has yet to learn: "price of a car rental"
beside a car rental domain is no quote of a company called "car rental"; a company the served
table lacks ("Nubank") is still a quote."""

from __future__ import annotations

from typing import Any

import pytest

from intent.embedded import EmbeddedIntentAdapter
from shared.catalog import Catalog
from shared.manifest import DomainManifest
from tests.conftest import example
from tests.intent.test_ties_decided_by_words import CARS

CONTEXT = {"time_zone": "America/Sao_Paulo", "now": "2026-03-10T09:00:00-03:00"}

STOCKS: dict[str, Any] = {
    "domain": "stocks",
    "version": "1",
    "description": "Stock quotes",
    "capabilities": [{"name": "quote", "description": "q"}],
    "goals": [
        {
            "goal": "GET_QUOTE",
            "description": {"pt": "O preço de uma ação", "en": "The price of a stock"},
            "capabilities": ["quote"],
            "entities_schema": {
                "symbol_text": {
                    "type": "string",
                    "required": True,
                    # served by the domain: large and changing, so a name it lacks may still be one
                    "lookup_path": "/companies",
                    "lookup": [
                        {"value": "Vale", "aliases": ["VALE3"]},
                        {"value": "Petrobras", "aliases": ["PETR4"]},
                    ],
                }
            },
            "examples": [
                example("quanto está a Vale?", symbol_text="Vale"),
                example("cotação da Petrobras", symbol_text="Petrobras"),
                example("quanto custa uma ação da Vale?", symbol_text="Vale"),
                example("price of Petrobras", symbol_text="Petrobras"),
                example("how much is Vale stock", symbol_text="Vale"),
            ],
        }
    ],
}


@pytest.fixture(scope="module")
def adapter() -> EmbeddedIntentAdapter:
    trained = EmbeddedIntentAdapter(
        Catalog([DomainManifest.model_validate(m) for m in (STOCKS, CARS)]), use_embeddings=False
    )
    # read at a low threshold: the rule, not the classifier's doubt, is what is tested
    eager = EmbeddedIntentAdapter(use_embeddings=False, oos_threshold=0.05)
    eager.catalog, eager.model = trained.catalog, trained.model
    return eager


@pytest.mark.parametrize(
    "lure", ["how much is a car rental company", "price of a car rental", "quanto custa a locação de carro"]
)
def test_a_value_with_another_domains_word_is_out_of_scope(adapter: EmbeddedIntentAdapter, lure: str) -> None:
    out = adapter.parse_sync(lure, context=CONTEXT)
    assert out.goal is None, (lure, out)
    assert any("another domain's word" in note for note in out.notes), out.notes


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("quanto custa a Nubank?", "Nubank"),
        ("price of Embraer", "Embraer"),
        # written capitalised inside the sentence: a name, though car rentals use its words
        ("quanto custa uma ação da Locação Brasil?", "Locação Brasil"),
        ("price of Car Rental Corp", "Car Rental Corp"),
    ],
)
def test_a_name_the_served_table_lacks_is_still_read(
    adapter: EmbeddedIntentAdapter, text: str, value: str
) -> None:
    out = adapter.parse_sync(text, context=CONTEXT)
    assert out.goal == "GET_QUOTE", (text, out)
    assert out.entities.get("symbol_text") == value, out.entities
