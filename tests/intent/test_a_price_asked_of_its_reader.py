"""A price asked of the goal that reads prices, clearly the classifier's first, in words that goal
accounts for, is answered at once ("qual o valor da limpeza de piscina?", "what do your coffee
bags cost?"): reading a price costs nothing, and asking "do you want …?" first costs a turn."""

from __future__ import annotations

import pytest

from intent.embedded import CLEAR_REQUEST_CONFIDENCE, EmbeddedIntentAdapter

CONTEXT = {"now": "2026-03-10T09:00:00-03:00", "time_zone": "America/Sao_Paulo"}


@pytest.mark.parametrize(
    ("text", "goal"),
    [
        ("qual o valor da limpeza de piscina?", "POOL_SERVICE_PRICE"),
        ("what do your coffee bags cost?", "COFFEE_PRICE"),
    ],
)
def test_a_price_asked_of_its_reader_is_clear(
    round21_beside_shipped: EmbeddedIntentAdapter, text: str, goal: str
) -> None:
    out = round21_beside_shipped.parse_sync(text, context=CONTEXT)
    assert out.goal == goal, out.notes
    assert out.confidence >= CLEAR_REQUEST_CONFIDENCE, out.notes


def test_a_question_that_asks_no_price_is_not_raised(round21_beside_shipped: EmbeddedIntentAdapter) -> None:
    out = round21_beside_shipped.parse_sync("qual a temperatura ideal da água da piscina?", context=CONTEXT)
    assert out.confidence < CLEAR_REQUEST_CONFIDENCE, out.notes


def test_a_price_judged_in_the_question_is_its_own_word(
    round20_beside_shipped: EmbeddedIntentAdapter,
) -> None:
    out = round20_beside_shipped.parse_sync("boliche é caro? qual o valor da hora", context=CONTEXT)
    assert out.goal == "BOWLING_PRICE", out.notes
    assert out.confidence >= CLEAR_REQUEST_CONFIDENCE, out.notes
