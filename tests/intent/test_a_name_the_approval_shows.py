"""A goal that asks for a yes before it acts takes a name no table lists as said, beside a value
with evidence: the approval question shows the name before anything acts, and the domain answers
what it has after the yes. "hem my shorts for friday" is an alteration order to approve, not a
"do you want …?" question; "send lilies on Friday" a flower order."""

from __future__ import annotations

import pytest

from intent.embedded import CLEAR_REQUEST_CONFIDENCE, EmbeddedIntentAdapter

CONTEXT = {"now": "2026-03-10T09:00:00-03:00", "time_zone": "America/Sao_Paulo"}


@pytest.mark.parametrize(
    ("text", "alteration", "garment"),
    [("hem my shorts for friday", "HEM", "shorts"), ("apertar a bermuda pra sexta", "TAKE_IN", "bermuda")],
)
def test_an_unlisted_garment_goes_to_the_approval(
    round15_beside_shipped: EmbeddedIntentAdapter, text: str, alteration: str, garment: str
) -> None:
    out = round15_beside_shipped.parse_sync(text, context=CONTEXT)
    assert out.goal == "ORDER_ALTERATION", out.notes
    assert out.entities == {"alteration": alteration, "garment_text": garment, "pickup_day": "2026-03-13"}
    assert out.confidence >= CLEAR_REQUEST_CONFIDENCE


def test_unlisted_flowers_go_to_the_approval(round13_beside_shipped: EmbeddedIntentAdapter) -> None:
    out = round13_beside_shipped.parse_sync("send lilies on Friday", context=CONTEXT)
    assert out.goal == "ORDER_FLOWERS", out.notes
    assert out.entities == {"arrangement_text": "lilies", "day": "2026-03-13"}
    assert out.confidence >= CLEAR_REQUEST_CONFIDENCE
