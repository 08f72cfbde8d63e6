"""A number said with a unit of measure that none of the nouns a goal counts is ("galão de 20
litros", "a 20-litre jug") says how big the thing is, not how many: it is no count. A unit the
examples count in ("2 kg de tomate") stays a count."""

from __future__ import annotations

import pytest

from intent.embedded import EmbeddedIntentAdapter

CONTEXT = {"now": "2026-03-10T09:00:00-03:00", "time_zone": "America/Sao_Paulo"}  # a Tuesday


@pytest.mark.parametrize(
    ("text", "goal", "jugs"),
    [
        ("qual o valor do galão de 20 litros", "WATER_PRICE", None),
        ("what does a 20 litre jug cost", "WATER_PRICE", None),
        ("entrega 4 galões de 20 litros na rua augusta 500 sexta", "ORDER_WATER", 4),
        ("deliver 3 20L jugs to 12 Elm Street on friday", "ORDER_WATER", 3),
    ],
)
def test_a_size_is_no_count_of_jugs(
    round20_beside_shipped: EmbeddedIntentAdapter, text: str, goal: str, jugs: int | None
) -> None:
    out = round20_beside_shipped.parse_sync(text, context=CONTEXT)
    assert out.goal == goal, out.notes
    assert out.entities.get("jugs") == jugs, out.entities


def test_a_unit_the_examples_count_in_stays_a_count(round6_beside_shipped: EmbeddedIntentAdapter) -> None:
    out = round6_beside_shipped.parse_sync("coloca 3 kg de batata no carrinho", context=CONTEXT)
    assert out.goal == "ADD_TO_CART", out.notes
    assert out.entities.get("quantity") == 3, out.entities
