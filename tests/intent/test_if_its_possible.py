""" "If it's possible", "se possível" are politeness around a request, no word its goal must know."""

from __future__ import annotations

from intent.embedded import EmbeddedIntentAdapter

CONTEXT = {"now": "2026-03-10T09:00:00-03:00", "time_zone": "America/Sao_Paulo"}


def test_if_its_possible(round18_beside_shipped: EmbeddedIntentAdapter) -> None:
    text = "could I book a donation at the North Mall post on Friday at 3pm, if it's possible?"
    out = round18_beside_shipped.parse_sync(text, context=CONTEXT)
    assert out.goal == "SCHEDULE_DONATION", out.notes
    assert out.entities == {"day": "2026-03-13", "time": "15:00", "unit_text": "North Mall"}
