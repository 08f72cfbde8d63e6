"""Of two enum phrases over the same words, the longer, then the one said first, is read ("half
day passes" is half a day, though "day passes" names a whole one); a count said before a unit
that names the kind of what it counts ("4 day passes") counts them; two goals that read one
table's entry in different words ("seoul room", "seoul") read the same value."""

from __future__ import annotations

import pytest

from intent.embedded import EmbeddedIntentAdapter

CONTEXT = {"now": "2026-03-10T09:00:00-03:00", "time_zone": "America/Sao_Paulo"}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("get me 3 half day passes for sunday", {"pass_type": "HALF_DAY", "passes": 3}),
        ("4 day passes for tomorrow", {"pass_type": "FULL_DAY", "passes": 4}),
    ],
)
def test_the_kind_of_pass(
    round19_beside_shipped: EmbeddedIntentAdapter, text: str, expected: dict[str, object]
) -> None:
    out = round19_beside_shipped.parse_sync(text, context=CONTEXT)
    assert out.goal == "BUY_LIFT_PASS", out.notes
    assert {name: out.entities.get(name) for name in expected} == expected, out.notes


def test_a_booking_said_in_values_is_the_booking(round19_beside_shipped: EmbeddedIntentAdapter) -> None:
    out = round19_beside_shipped.parse_sync("broadway room friday 11pm 9 people", context=CONTEXT)
    assert out.goal == "BOOK_KARAOKE_ROOM", out.notes


def test_a_price_asked_with_the_rooms_other_name(round19_beside_shipped: EmbeddedIntentAdapter) -> None:
    out = round19_beside_shipped.parse_sync("quanto sai a sala seul por 2 horas?", context=CONTEXT)
    assert out.goal == "KARAOKE_PRICE", out.notes


def test_a_second_clock_said_in_hours_is_how_long(round19_beside_shipped: EmbeddedIntentAdapter) -> None:
    out = round19_beside_shipped.parse_sync("sala vegas sábado 22h pra 10, 2 horas e meia", context=CONTEXT)
    assert out.goal == "BOOK_KARAOKE_ROOM", out.notes
    assert (out.entities.get("time"), out.entities.get("duration")) == ("22:00", "PT2H30M"), out.notes
