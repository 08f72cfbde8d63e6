"""Words that say what kind of thing a name is, not which: the word a table writes its names with
and without ("black" and "black card", "visa" and "cartão visa") says the word beside it is a
name ("fatura do cartão amex"), and is part of a name the table lacks only where the table's own
names have it ("cartão amex" as "Cartão virtual", but "my elo card" names "elo"); a
pointing word ("desse", "naquela") is no object a goal does not know."""

from __future__ import annotations

import pytest

from intent.embedded import EmbeddedIntentAdapter

CONTEXT = {"now": "2026-03-10T10:00:00-03:00", "time_zone": "America/Sao_Paulo"}


@pytest.fixture(scope="module")
def cards(round8_beside_shipped: EmbeddedIntentAdapter) -> EmbeddedIntentAdapter:
    return round8_beside_shipped


@pytest.mark.parametrize(
    ("text", "goal", "card"),
    [
        ("statement for my elo card", "CARD_STATEMENT", "elo"),
        # the table writes names with "cartão" first ("Cartão virtual"): a new one keeps it
        ("fatura do cartão amex", "CARD_STATEMENT", "cartão amex"),
        ("bloqueia meu cartão elo", "BLOCK_CARD", "cartão elo"),
        ("my black card statement", "CARD_STATEMENT", "Mastercard Black"),
    ],
)
def test_a_card_s_kind_word_is_no_part_of_its_name(
    cards: EmbeddedIntentAdapter, text: str, goal: str, card: str
) -> None:
    read = cards.parse_sync(text, context=CONTEXT)
    assert read.goal == goal, read.notes
    assert read.entities.get("card_text") in {card, card.lower(), "black card"}, read.entities


def test_the_kind_word_alone_names_no_card(cards: EmbeddedIntentAdapter) -> None:
    read = cards.parse_sync("fatura do cartão", context=CONTEXT)
    assert read.goal == "CARD_STATEMENT", read.notes
    assert "card_text" not in read.entities


@pytest.mark.parametrize("text", ["qual o status desse pedido?", "e o status daquele pedido?"])
def test_a_pointing_word_is_no_unknown_object(cards: EmbeddedIntentAdapter, text: str) -> None:
    read = cards.parse_sync(text, context=CONTEXT)
    assert read.goal == "LAUNDRY_STATUS", read.notes
