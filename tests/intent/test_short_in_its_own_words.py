"""A message made only of an acting goal's words and values it reads with evidence, though the
classifier is unsure and a required value is missing ("send 2 jugs tomorrow": no address), is
that goal's: the missing value is asked for, nothing acts. Words the goal does not know leave it
out ("send 2 emails tomorrow")."""

from __future__ import annotations

import pytest

from intent.embedded import EmbeddedIntentAdapter

CONTEXT = {"now": "2026-03-10T09:00:00-03:00", "time_zone": "America/Sao_Paulo"}  # a Tuesday


@pytest.mark.parametrize(
    ("text", "entities"),
    [
        ("send 3 jugs on friday", {"jugs": 3, "day": "2026-03-13"}),
        ("send me 4 jugs", {"jugs": 4}),
        ("manda 3 galões sexta", {"jugs": 3, "day": "2026-03-13"}),
    ],
)
def test_its_own_words_are_read_and_the_rest_asked(
    round20_beside_shipped: EmbeddedIntentAdapter, text: str, entities: dict[str, object]
) -> None:
    out = round20_beside_shipped.parse_sync(text, context=CONTEXT)
    assert (out.goal, out.entities) == ("ORDER_WATER", entities), out.notes


@pytest.mark.parametrize("text", ["send 2 emails tomorrow", "send 3 invoices on friday"])
def test_words_it_does_not_know_leave_it_out(
    round20_beside_shipped: EmbeddedIntentAdapter, text: str
) -> None:
    out = round20_beside_shipped.parse_sync(text, context=CONTEXT)
    assert out.goal != "ORDER_WATER", out.notes
