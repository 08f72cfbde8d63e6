""" "asap" is today to the recogniser; beside a day named ("asap, tmrw") it only says how urgent
the request is, and the named day is the value. Alone, it is still today."""

from __future__ import annotations

import pytest

from intent.embedded import EmbeddedIntentAdapter

CONTEXT = {"now": "2026-03-10T10:00:00-03:00", "time_zone": "America/Sao_Paulo"}


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("need a medium unit asap, tmrw, like 2 months", "2026-03-11"),
        ("need a medium unit asap, 2 months", "2026-03-10"),
    ],
)
def test_the_day_named_is_the_start(
    round14_beside_shipped: EmbeddedIntentAdapter, text: str, day: str
) -> None:
    out = round14_beside_shipped.parse_sync(text, context=CONTEXT)
    assert (out.goal, out.entities.get("start_day")) == ("RENT_UNIT", day), out.notes
