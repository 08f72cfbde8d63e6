"""A goal short of its required value, beside an object it does not know, gives way to the one goal
that only reads, is phrased with that object and reads the whole message: "quanto ta o polimento
ai" is no company's quote but round 12's car wash price of its wax. With no such reader the
message stays out of scope ("quanto custa um carro zero?")."""

from __future__ import annotations

from intent.embedded import EmbeddedIntentAdapter

CONTEXT = {"now": "2026-03-10T09:00:00-03:00", "time_zone": "America/Sao_Paulo"}


def test_the_wax_price_is_the_car_washs(round12_beside_shipped: EmbeddedIntentAdapter) -> None:
    out = round12_beside_shipped.parse_sync("quanto ta o polimento ai", context=CONTEXT)
    assert (out.goal, out.entities) == ("WASH_PRICE", {"wash": "WAX"}), out.notes


def test_no_reader_leaves_it_out_of_scope(round12_beside_shipped: EmbeddedIntentAdapter) -> None:
    assert round12_beside_shipped.parse_sync("quanto custa um carro zero?", context=CONTEXT).goal is None
