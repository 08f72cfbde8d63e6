"""A value another domain's table lists is that domain's thing, not a name a goal has yet to
learn: "price of the lemon pie" asks a bakery, not for a company called Lemon Pie; and "quanto tá
a torta de limão?" asks its price as "quanto custa" would."""

from __future__ import annotations

import pytest

from intent.base import CHOICE_NOTE
from intent.embedded import EmbeddedIntentAdapter

CONTEXT = {"now": "2026-03-10T09:00:00-03:00", "time_zone": "America/Sao_Paulo"}


@pytest.mark.parametrize(
    ("text", "item"),
    [("price of the lemon tart", "lemon tart"), ("preço da torta de limão", "torta de limão")],
)
def test_a_table_value_of_another_domain_is_no_company(
    round16_beside_shipped: EmbeddedIntentAdapter, text: str, item: str
) -> None:
    out = round16_beside_shipped.parse_sync(text, context=CONTEXT)
    assert out.goal == "BAKERY_PRICE", out.notes
    assert out.entities == {"item_text": item}


@pytest.mark.parametrize("text", ["quanto tá a torta de limão?", "quanto é o croissant?"])
def test_how_much_it_is_asks_the_price(round16_beside_shipped: EmbeddedIntentAdapter, text: str) -> None:
    out = round16_beside_shipped.parse_sync(text, context=CONTEXT)
    assert out.goal == "BAKERY_PRICE", out.notes
    assert "item_text" in out.entities
    # the choice the first reading was unsure between is no question to ask of the price
    assert not any(note.startswith(CHOICE_NOTE) for note in out.notes), out.notes


def test_a_company_is_still_a_quote(round16_beside_shipped: EmbeddedIntentAdapter) -> None:
    out = round16_beside_shipped.parse_sync("quanto tá a petrobras?", context=CONTEXT)
    assert out.goal == "GET_QUOTE", out.notes


def test_a_product_that_is_a_company_too_stays_a_quote(round6_beside_shipped: EmbeddedIntentAdapter) -> None:
    # a grocery's product, and a company on the stock exchange: no other goal is asked for it
    out = round6_beside_shipped.parse_sync("quanto ta a coca cola na bolsa hoje?", context=CONTEXT)
    assert out.goal == "GET_QUOTE", out.notes
