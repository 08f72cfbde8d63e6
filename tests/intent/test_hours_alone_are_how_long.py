"""Hours written alone ("2h") are how long to a goal that needs a duration and can do without a
time, when no day is said; after "às"/"at", or beside a day, they are a clock's time. After a
time and "for", hours are how long too: "tonight 7pm for 1h" is a start and an hour."""

from __future__ import annotations

import pytest

from intent.embedded import EmbeddedIntentAdapter

CONTEXT = {"now": "2026-03-10T10:00:00-03:00", "time_zone": "America/Sao_Paulo"}


@pytest.mark.parametrize(
    ("text", "duration"),
    [("aluga bike vila madalena 2h", "PT2H"), ("rent a bike at paulista for 3hrs", "PT3H")],
)
def test_hours_alone_are_the_duration(
    round13_beside_shipped: EmbeddedIntentAdapter, text: str, duration: str
) -> None:
    out = round13_beside_shipped.parse_sync(text, context=CONTEXT)
    assert out.goal == "RENT_BIKE", out.notes
    assert out.entities.get("duration") == duration
    assert "time" not in out.entities


def test_hours_after_a_clock_word_are_a_time(round13_beside_shipped: EmbeddedIntentAdapter) -> None:
    out = round13_beside_shipped.parse_sync("aluga bike vila madalena às 2h", context=CONTEXT)
    assert (out.entities.get("time"), out.entities.get("duration")) == ("02:00", None)


def test_a_start_for_a_while(round13_beside_shipped: EmbeddedIntentAdapter) -> None:
    out = round13_beside_shipped.parse_sync("rent a bike at paulista tonight 7pm for 1h", context=CONTEXT)
    assert out.goal == "RENT_BIKE", out.notes
    assert (out.entities.get("day"), out.entities.get("time"), out.entities.get("duration")) == (
        "2026-03-10",
        "19:00",
        "PT1H",
    )
