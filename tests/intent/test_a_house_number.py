"""The number of a street address is part of the address ("Avenida Brasil 1450", "77 Maple
Street"), to a goal whose examples write addresses with their number: no count, no day, no hour
and no code; an address so written is evidence of its entity, as a table's name is."""

from __future__ import annotations

import pytest

from intent.embedded import EmbeddedIntentAdapter

CONTEXT = {"now": "2026-03-10T09:00:00-03:00", "time_zone": "America/Sao_Paulo"}  # a Tuesday


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "coleta de um colchão na Avenida Brasil 1450 na sexta",
            {"address_text": "Avenida Brasil 1450", "day": "2026-03-13", "quantity": None},
        ),
        (
            "haul away a couch from 77 Maple Street on friday",
            {"address_text": "77 Maple Street", "day": "2026-03-13", "quantity": None},
        ),
        (
            # "from 9" is the 9th to the recogniser
            "collect my old fridge from 9 Oak Lane tomorrow",
            {"address_text": "9 Oak Lane", "day": "2026-03-11"},
        ),
        (
            "recolhe um armário na rua das flores 250 amanhã",
            {"address_text": "rua das flores 250", "quantity": None, "day": "2026-03-11"},
        ),
        (
            "recolhe 3 cadeiras na rua das flores 250 amanhã",
            {"address_text": "rua das flores 250", "quantity": 3, "day": "2026-03-11"},
        ),
    ],
)
def test_the_house_number_is_the_addresss(
    round19_beside_shipped: EmbeddedIntentAdapter, text: str, expected: dict[str, object]
) -> None:
    out = round19_beside_shipped.parse_sync(text, context=CONTEXT)
    assert out.goal == "SCHEDULE_BULKY_PICKUP", out.notes
    assert {name: out.entities.get(name) for name in expected} == expected, out.notes


def test_a_status_asked_by_address_is_no_code(round19_beside_shipped: EmbeddedIntentAdapter) -> None:
    out = round19_beside_shipped.parse_sync("a coleta na rua augusta 55 já passou?", context=CONTEXT)
    assert out.goal == "PICKUP_STATUS", out.notes
    assert out.entities == {"address_text": "rua augusta 55"}, out.notes


def test_one_word_written_as_two(round19_beside_shipped: EmbeddedIntentAdapter) -> None:
    """ "pick up" of a goal phrased "pickup", with every value it needs: the pickup, at once."""
    out = round19_beside_shipped.parse_sync(
        "please pick up a mattress at 40 Pine Road on thursday", context=CONTEXT
    )
    assert out.goal == "SCHEDULE_BULKY_PICKUP", out.notes
    assert out.entities.get("address_text") == "40 Pine Road", out.notes
