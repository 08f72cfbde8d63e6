"""A word read as written before it is read as a typo or a value: the verb another goal of the
domain is phrased with ("block") is no typo of a table value ("black"), and a month that is a
modal verb ("may I see …") is no month."""

from __future__ import annotations

import pytest

from intent.embedded import EmbeddedIntentAdapter

CONTEXT = {"now": "2026-03-10T10:00:00-03:00", "time_zone": "America/Sao_Paulo"}


@pytest.fixture(scope="module")
def cards(round8_beside_shipped: EmbeddedIntentAdapter) -> EmbeddedIntentAdapter:
    return round8_beside_shipped


@pytest.mark.parametrize("text", ["I left my card at a restaurant, block it", "block my card"])
def test_another_goal_s_verb_is_no_typo_of_a_card(cards: EmbeddedIntentAdapter, text: str) -> None:
    read = cards.parse_sync(text, context=CONTEXT)
    assert read.goal == "BLOCK_CARD", read.notes
    assert "card_text" not in read.entities
    statement = cards.model.extractors[("bank_cards", "CARD_STATEMENT")] if cards.model else None
    assert statement is not None and "card_text" not in statement.extract(text)


def test_a_typo_of_a_card_is_still_the_card(cards: EmbeddedIntentAdapter) -> None:
    read = cards.parse_sync("bloqueia o blak, roubaram", context=CONTEXT)
    assert read.goal == "BLOCK_CARD", read.notes
    assert read.entities.get("card_text") == "blak"


@pytest.mark.parametrize(("text", "month"), [("may I see my statement", None), ("statement for may", "MAY")])
def test_a_modal_verb_is_no_month(cards: EmbeddedIntentAdapter, text: str, month: str | None) -> None:
    read = cards.parse_sync(text, context=CONTEXT)
    assert read.goal == "CARD_STATEMENT", read.notes
    assert read.entities.get("month") == month


@pytest.mark.parametrize("text", ["oi!", "olá, tudo bem?"])
def test_a_function_word_that_is_no_modal_verb_is_still_the_value(
    cards: EmbeddedIntentAdapter, text: str
) -> None:
    """ "oi" is a function word and the small talk's greeting: only a modal verb is left out."""
    read = cards.parse_sync(text, context=CONTEXT)
    assert read.goal == "SMALL_TALK", read.notes
    assert read.entities == {"kind": "GREETING"}
