"""A question that opens by asking what something costs ("quanto dá …", "how much …") is never
a request to act: of a domain's goal that acts and its sibling that only reads the same values,
the reader is meant, even when the acting goal reads every value it needs, and even when the
reader is short of one (it is asked). A word another goal of the domain is phrased with ("a
*move*") is no name of the thing the price is asked of."""

from __future__ import annotations

import pytest

from intent.embedded import EmbeddedIntentAdapter

CONTEXT = {"now": "2026-03-10T10:00:00-03:00", "time_zone": "America/Sao_Paulo"}


def test_a_ride_asked_by_its_price_is_an_estimate(round6_beside_shipped: EmbeddedIntentAdapter) -> None:
    text = "quanto da um carro grande da rodoviaria pra casa?"
    out = round6_beside_shipped.parse_sync(text, context=CONTEXT)
    assert (out.goal, out.entities.get("ride_type")) == ("RIDE_ESTIMATE", "XL"), out.notes


def test_the_same_ride_asked_for_is_booked(round6_beside_shipped: EmbeddedIntentAdapter) -> None:
    out = round6_beside_shipped.parse_sync("chama um carro grande da rodoviaria pra casa", context=CONTEXT)
    assert out.goal == "BOOK_RIDE", out.notes


def test_a_price_short_of_a_value_asks_it_of_the_reader(
    round12_beside_shipped: EmbeddedIntentAdapter,
) -> None:
    out = round12_beside_shipped.parse_sync("quanto custa lavar o carro?", context=CONTEXT)
    assert out.goal == "WASH_PRICE", out.notes


@pytest.mark.parametrize(
    "text", ["how much is a move with 2 helpers?", "how much does a move cost with you guys?"]
)
def test_the_domains_own_word_is_no_name(round12_beside_shipped: EmbeddedIntentAdapter, text: str) -> None:
    out = round12_beside_shipped.parse_sync(text, context=CONTEXT)
    assert out.goal == "MOVE_QUOTE", out.notes
    assert "truck_text" not in out.entities


@pytest.mark.parametrize(
    ("text", "product"), [("price for a banner", "banner"), ("qual o preço de 500 panfletos?", "panfletos")]
)
def test_a_price_named_asks_the_quote(
    round13_beside_shipped: EmbeddedIntentAdapter, text: str, product: str
) -> None:
    """A quote phrased "quanto custa" and "how much" is asked by the price's own name too."""
    out = round13_beside_shipped.parse_sync(text, context=CONTEXT)
    assert (out.goal, out.entities.get("product_text")) == ("PRINT_QUOTE", product), out.notes


def test_a_price_between_a_booking_and_its_price(round14_beside_shipped: EmbeddedIntentAdapter) -> None:
    """Opening with the price's name asks it of the reader, not of the booking that reads the same."""
    out = round14_beside_shipped.parse_sync("price for family photos for 8 people?", context=CONTEXT)
    assert (out.goal, out.entities) == ("SESSION_PRICE", {"session_type": "FAMILY", "people": 8}), out.notes
