"""A value of a goal's table, hung off a noun no goal knows ("a *receita* do bolo de chocolate",
"the *recipe* of the carrot cake"), asks for that thing of the value: out of scope, not the
goal that prices or orders the value. A noun some goal is phrased with keeps the goal."""

from __future__ import annotations

import pytest

from intent.embedded import EmbeddedIntentAdapter

CONTEXT = {"now": "2026-03-10T09:00:00-03:00", "time_zone": "America/Sao_Paulo"}


@pytest.mark.parametrize(
    "text", ["me manda a receita do bolo de chocolate", "can you share the recipe of the carrot cake"]
)
def test_a_recipe_of_a_cake_is_no_price(round16_beside_shipped: EmbeddedIntentAdapter, text: str) -> None:
    out = round16_beside_shipped.parse_sync(text, context=CONTEXT)
    assert out.goal is None, (out.goal, out.entities, out.notes)


@pytest.mark.parametrize(
    ("text", "goal"),
    [
        ("qual o preço do bolo de chocolate?", "BAKERY_PRICE"),
        ("qual o valor do pacote de 8 aulas de piano", "MUSIC_PACKAGE_PRICE"),
    ],
)
def test_the_goals_own_noun_keeps_it(
    round16_beside_shipped: EmbeddedIntentAdapter, text: str, goal: str
) -> None:
    out = round16_beside_shipped.parse_sync(text, context=CONTEXT)
    assert out.goal == goal, out.notes
