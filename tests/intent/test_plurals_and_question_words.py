"""A goal's own words in their plural ("cotações" of "cotação") are still its words, and a
question word ("quem", "who") is nobody's phrasing: "quem descobriu o Brasil?" says nothing of
top movers although "quem mais subiu?" is one of their examples."""

from __future__ import annotations

from typing import Any

import pytest

from intent.entities import FuzzyVocabulary, GoalEntityExtractor
from shared.manifest import DomainManifest

MOVERS: dict[str, Any] = {
    "domain": "market",
    "version": "1",
    "description": "Stock market",
    "capabilities": [{"name": "movers", "description": "m"}],
    "goals": [
        {
            "goal": "TOP_MOVERS",
            "description": {"pt": "As ações que mais subiram", "en": "The day's top movers"},
            "capabilities": ["movers"],
            "entities_schema": {
                "market_text": {
                    "type": "string",
                    "lookup": [{"value": "Brasil", "aliases": ["Brazil", "bolsa brasileira"]}],
                }
            },
            "examples": [
                {"text": "quem mais subiu hoje no Brasil", "entities": {"market_text": "Brasil"}},
                {"text": "who gained the most in Brazil today", "entities": {"market_text": "Brazil"}},
                "cotação das maiores altas",
            ],
        }
    ],
}


PLURALS = [
    ("cotacoes", "cotacao"),
    ("acoes", "acao"),
    ("paes", "pao"),
    ("quotes", "quote"),
    ("shoes", "shoe"),
    ("potatoes", "potato"),
    ("garrafas", "garrafa"),
]


@pytest.mark.parametrize(("plural", "singular"), PLURALS)
def test_a_plural_is_a_word_of_its_singulars_vocabulary(plural: str, singular: str) -> None:
    assert FuzzyVocabulary([singular]).knows(plural)


def test_words_that_only_look_alike_are_not() -> None:
    assert not FuzzyVocabulary(["cotacao"]).knows("cotas")
    assert not FuzzyVocabulary(["shoe"]).knows("shao")


@pytest.fixture(scope="module")
def movers() -> GoalEntityExtractor:
    return GoalEntityExtractor(DomainManifest.model_validate(MOVERS).goals[0])


@pytest.mark.parametrize("text", ["quem descobriu o Brasil?", "who discovered Brazil?"])
def test_a_question_word_is_no_phrasing_of_the_goal(movers: GoalEntityExtractor, text: str) -> None:
    assert movers.phrasing_words(text) == []
    assert movers.unexplained_words(text, {"market_text": text.split()[-1].rstrip("?")})


@pytest.mark.parametrize("text", ["quem mais subiu no Brasil?", "who gained the most in Brazil?", "cotações"])
def test_the_goals_own_words_still_are(movers: GoalEntityExtractor, text: str) -> None:
    assert movers.phrasing_words(text)
