"""The one number of a request whose goal reads no count, no other amount and no span of time is
the amount it requires, though no currency and none of the examples' words are beside it ("quero
10 mil de limite no visa"); a number that is part of a name ("final 4417") or as long as a code
is no amount."""

from __future__ import annotations

import pytest

from intent.embedded import EmbeddedIntentAdapter

CONTEXT = {"now": "2026-03-10T10:00:00-03:00", "time_zone": "America/Sao_Paulo"}


@pytest.fixture(scope="module")
def cards(round8_beside_shipped: EmbeddedIntentAdapter) -> EmbeddedIntentAdapter:
    return round8_beside_shipped


@pytest.mark.parametrize(
    ("text", "amount"),
    [("quero 10 mil de limite no visa", 10000), ("raise my visa limit, 15000 would be good", 15000)],
)
def test_the_one_number_is_the_limit(cards: EmbeddedIntentAdapter, text: str, amount: int) -> None:
    read = cards.parse_sync(text, context=CONTEXT)
    assert read.goal == "RAISE_LIMIT", read.notes
    assert read.entities.get("new_limit") == {"amount": amount, "currency": None}


def test_a_card_s_final_digits_are_no_limit(cards: EmbeddedIntentAdapter) -> None:
    read = cards.parse_sync("aumenta o limite do cartão final 4417", context=CONTEXT)
    assert read.goal == "RAISE_LIMIT", read.notes
    assert "new_limit" not in read.entities
    assert read.entities.get("card_text") == "final 4417"


def test_a_code_long_number_is_no_limit(cards: EmbeddedIntentAdapter) -> None:
    read = cards.parse_sync("aumenta o limite do visa, protocolo 34191790010", context=CONTEXT)
    assert "new_limit" not in read.entities


def test_a_goal_that_counts_something_takes_no_bare_number_as_money(cards: EmbeddedIntentAdapter) -> None:
    """ "2 quartos max 3000": the rent's goal counts bedrooms, so a number is not its amount unsaid."""
    read = cards.parse_sync("apartamento em moema com 2 quartos", context=CONTEXT)
    assert read.goal == "SEARCH_LISTINGS", read.notes
    assert read.entities.get("bedrooms") == 2
    assert "max_rent" not in read.entities
