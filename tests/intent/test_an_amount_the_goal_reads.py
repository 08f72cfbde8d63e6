"""A request that opens with a verb and an amount ("põe 2 reais no BU507718") acts on an amount
the goal reads, so the verb is no other action on an amount (as "compra 50 ações" is of a quote):
the amount of money counts as the number said after the verb."""

from __future__ import annotations

import pytest

from intent.embedded import EmbeddedIntentAdapter

CONTEXT = {"now": "2026-03-10T10:00:00-03:00", "time_zone": "America/Sao_Paulo"}


@pytest.mark.parametrize(
    ("text", "amount"), [("põe 2 reais no BU507718", 2), ("bota 10 reais no BU507718", 10)]
)
def test_a_top_up_of_the_amount_said(
    round11_beside_shipped: EmbeddedIntentAdapter, text: str, amount: int
) -> None:
    read = round11_beside_shipped.parse_sync(text, context=CONTEXT)
    assert read.goal == "TOP_UP", read.notes
    assert read.entities == {"card_text": "BU507718", "amount": {"amount": amount, "currency": "BRL"}}
