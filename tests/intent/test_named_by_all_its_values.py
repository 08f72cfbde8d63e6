"""A goal that needs several values is named by all of them, said with evidence and nothing else,
however far down the classifier put it and whatever words ask for it ("can I get…")."""

from __future__ import annotations

import pytest

from intent.embedded import EmbeddedIntentAdapter

CONTEXT = {"now": "2026-03-10T09:00:00-03:00", "time_zone": "America/Sao_Paulo"}


@pytest.mark.parametrize(
    ("text", "entities"),
    [
        (
            "can I have 1 family pass for April 4",
            {"tickets": 1, "ticket_type_text": "family pass", "visit_day": "2026-04-04"},
        ),
        (
            "could I get 2 seniors for the 20th?",
            {"tickets": 2, "ticket_type_text": "seniors", "visit_day": "2026-03-20"},
        ),
    ],
)
def test_every_value_said_names_the_goal(
    round17_beside_shipped: EmbeddedIntentAdapter, text: str, entities: dict[str, object]
) -> None:
    out = round17_beside_shipped.parse_sync(text, context=CONTEXT)
    assert out.goal == "BUY_MUSEUM_TICKETS", out.notes
    assert out.entities == entities
