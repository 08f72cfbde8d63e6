"""Whom a request is for ("headshots *for my team*") is no object of the goal's verb that the
goal does not know: the request is still clear."""

from __future__ import annotations

from intent.embedded import EmbeddedIntentAdapter

CONTEXT = {"now": "2026-03-10T10:00:00-03:00", "time_zone": "America/Sao_Paulo"}


def test_whom_the_session_is_for(round14_beside_shipped: EmbeddedIntentAdapter) -> None:
    out = round14_beside_shipped.parse_sync(
        "need headshots for my team on the 18th at 2pm, 6 people", context=CONTEXT
    )
    assert out.goal == "BOOK_SESSION", out.notes
    assert out.entities == {"session_type": "HEADSHOT", "day": "2026-03-18", "time": "14:00", "people": 6}
