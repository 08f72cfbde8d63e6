"""A message that names a value only one reading goal knows is that goal's, wherever the
classifier ranked it: "quanto tá a escova?" is a salon's price, not a company's quote that
has no company; "quanto custam as rosas?" is a florist's price, though the classifier put the
florist far down. A word no goal names stays out of scope."""

from __future__ import annotations

import pytest

from intent.embedded import EmbeddedIntentAdapter

CONTEXT = {"now": "2026-03-10T10:00:00-03:00", "time_zone": "America/Sao_Paulo"}


@pytest.mark.parametrize(
    ("text", "service"),
    [("quanto tá a escova?", "BLOWOUT"), ("qto ta a manicure", "MANICURE")],
)
def test_a_salon_service_is_its_price(
    round11_beside_shipped: EmbeddedIntentAdapter, text: str, service: str
) -> None:
    out = round11_beside_shipped.parse_sync(text, context=CONTEXT)
    assert (out.goal, out.entities.get("service")) == ("SERVICE_PRICE", service), out.notes


def test_another_thing_is_still_out_of_scope(round11_beside_shipped: EmbeddedIntentAdapter) -> None:
    out = round11_beside_shipped.parse_sync("quanto tá o secador?", context=CONTEXT)
    assert out.goal is None, out.notes


def test_flowers_named_from_the_table_are_their_price(round13_beside_shipped: EmbeddedIntentAdapter) -> None:
    out = round13_beside_shipped.parse_sync("quanto custam as rosas?", context=CONTEXT)
    assert (out.goal, out.entities.get("arrangement_text")) == ("FLOWER_PRICE", "rosas"), out.notes


def test_a_word_beside_the_table_value_keeps_it_out(round13_beside_shipped: EmbeddedIntentAdapter) -> None:
    out = round13_beside_shipped.parse_sync("quanto custa uma rosa do deserto?", context=CONTEXT)
    assert out.goal != "FLOWER_PRICE", out.notes
