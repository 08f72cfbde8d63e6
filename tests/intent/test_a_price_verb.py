"""The verb a price is asked with after "quanto" ("qto *sai* 4 galões?", "quanto *fica* o galão?")
is the question's own word, no action the price does not do: the price is a clear request."""

from __future__ import annotations

import pytest

from intent.embedded import CLEAR_REQUEST_CONFIDENCE, EmbeddedIntentAdapter

CONTEXT = {"now": "2026-03-10T09:00:00-03:00", "time_zone": "America/Sao_Paulo"}  # a Tuesday


@pytest.mark.parametrize(("text", "jugs"), [("qto sai 4 galões?", 4), ("quanto sai 7 galões", 7)])
def test_a_price_asked_with_its_verb_is_clear(
    round20_beside_shipped: EmbeddedIntentAdapter, text: str, jugs: int
) -> None:
    out = round20_beside_shipped.parse_sync(text, context=CONTEXT)
    assert (out.goal, out.entities) == ("WATER_PRICE", {"jugs": jugs}), out.notes
    assert out.confidence >= CLEAR_REQUEST_CONFIDENCE, out.notes
