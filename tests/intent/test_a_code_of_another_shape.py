"""A code whose letters are those another goal's examples write ("pr 48125" beside protocols
"PR48130", where orders are "AG6101") is that goal's, whatever noun it is said with ("o status
do *pedido* pr 48200"); a code of the goal's own letters stays its."""

from __future__ import annotations

import pytest

from intent.embedded import EmbeddedIntentAdapter

CONTEXT = {"now": "2026-03-10T09:00:00-03:00", "time_zone": "America/Sao_Paulo"}  # a Tuesday


@pytest.mark.parametrize("text", ["como anda o pedido pr 48200?", "status do pedido PR 48311"])
def test_a_protocols_code_is_the_protocols(round20_beside_shipped: EmbeddedIntentAdapter, text: str) -> None:
    out = round20_beside_shipped.parse_sync(text, context=CONTEXT)
    assert out.goal == "DOCUMENT_REQUEST_STATUS", out.notes
    assert str(out.entities.get("protocol_text", "")).lower().replace(" ", "") in ("pr48200", "pr48311")


def test_an_orders_code_stays_the_orders(round20_beside_shipped: EmbeddedIntentAdapter) -> None:
    out = round20_beside_shipped.parse_sync("status do pedido AG6250", context=CONTEXT)
    assert (out.goal, out.entities) == ("WATER_ORDER_STATUS", {"order_text": "AG6250"}), out.notes


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("vou ter que desmarcar o boliche, código BL3105", "BL3105"),
        ("preciso cancelar o boliche, código BL3222", "BL3222"),
    ],
)
def test_the_word_naming_a_code_is_the_codes(
    round20_beside_shipped: EmbeddedIntentAdapter, text: str, code: str
) -> None:
    """ "código", "ref" before the code name it: no other thing the message is about."""
    out = round20_beside_shipped.parse_sync(text, context=CONTEXT)
    assert (out.goal, out.entities) == ("CANCEL_BOWLING_BOOKING", {"booking_text": code}), out.notes
