"""A number entity whose examples annotate it with a unit ("6 meses", "4 months") takes the count
said with that unit, though the recogniser gives a month as thirty days: "por 6 meses" is six."""

from __future__ import annotations

import pytest

from intent.embedded import EmbeddedIntentAdapter

CONTEXT = {"now": "2026-03-10T10:00:00-03:00", "time_zone": "America/Sao_Paulo"}


@pytest.mark.parametrize(
    ("text", "months"),
    [
        ("queria alugar um box pequeno por 6 meses começando segunda", 6),
        ("box grande a partir de amanhã por 1 mês", 1),
        ("rent a small unit from saturday for 2 months", 2),
        # the count said with its unit, roughly, not the number of another noun
        (
            "to keep what a 3-bedroom house holds: a large unit from the 28th for about 8 months",
            8,
        ),
    ],
)
def test_the_months_said_are_the_count(
    round14_beside_shipped: EmbeddedIntentAdapter, text: str, months: int
) -> None:
    out = round14_beside_shipped.parse_sync(text, context=CONTEXT)
    assert (out.goal, out.entities.get("months")) == ("RENT_UNIT", months), out.notes


def test_a_price_for_some_months(round14_beside_shipped: EmbeddedIntentAdapter) -> None:
    out = round14_beside_shipped.parse_sync("qto sai o box pequeno por 12 meses?", context=CONTEXT)
    assert (out.goal, out.entities) == ("STORAGE_PRICE", {"unit_size": "SMALL", "months": 12}), out.notes
