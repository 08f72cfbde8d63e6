"""A price asked for a party after the thing's name ("bowling prices for 8 players") is the
price's question, though the count is the booking's value too; a booking said with the same
count stays the booking."""

from __future__ import annotations

import pytest

from intent.embedded import EmbeddedIntentAdapter

CONTEXT = {"now": "2026-03-10T09:00:00-03:00", "time_zone": "America/Sao_Paulo"}  # a Tuesday


@pytest.mark.parametrize("text", ["bowling prices for 8 players", "bowling price for 10 people please"])
def test_a_price_for_a_party_is_the_price(round20_beside_shipped: EmbeddedIntentAdapter, text: str) -> None:
    out = round20_beside_shipped.parse_sync(text, context=CONTEXT)
    assert out.goal == "BOWLING_PRICE", out.notes


def test_a_lane_for_a_party_stays_the_booking(round20_beside_shipped: EmbeddedIntentAdapter) -> None:
    text = "book a bowling lane for 8 players on friday at 8pm"
    out = round20_beside_shipped.parse_sync(text, context=CONTEXT)
    assert out.goal == "BOOK_BOWLING_LANE", out.notes
