"""A price asked anywhere in the message, not only at its start, is the quote of a domain whose
order and quote read the same values ("what would … cost?", "…, how much?"), and it settles the
classifier's doubt between the two when both account for every word."""

from __future__ import annotations

import pytest

from intent.embedded import EmbeddedIntentAdapter
from intent.text import asks_a_price

CONTEXT = {"now": "2026-03-10T09:00:00-03:00", "time_zone": "America/Sao_Paulo"}


@pytest.mark.parametrize(
    "text",
    [
        "what would a certified translation of my diploma into Spanish cost? 3 pages",
        "1200 words from english into portuguese, how much?",
        "hi, could you tell me how much 500 words into german would be?",
        "how much for 300 words into italian thx",
    ],
)
def test_a_price_asked_is_the_quote(round18_beside_shipped: EmbeddedIntentAdapter, text: str) -> None:
    out = round18_beside_shipped.parse_sync(text, context=CONTEXT)
    assert out.goal == "TRANSLATION_QUOTE", out.notes


def test_an_order_asking_nothing_stays_the_order(round18_beside_shipped: EmbeddedIntentAdapter) -> None:
    out = round18_beside_shipped.parse_sync("place an order for 900 words into french", context=CONTEXT)
    assert out.goal == "PLACE_TRANSLATION_ORDER", out.notes


@pytest.mark.parametrize(
    ("text", "asked"),
    [
        ("what does a sworn translation cost?", True),
        ("2 pages into english, quanto fica?", True),
        ("qual seria o valor?", True),
        ("is my order ready?", False),
        ("quanto tempo demora?", False),
    ],
)
def test_asks_a_price(text: str, asked: bool) -> None:
    assert asks_a_price(text) is asked
