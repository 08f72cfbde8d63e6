"""A verb that asks for two actions ("busca": search, and fetch) is read as neither: "vcs buscam
um sofá…" asks a pickup, not a search."""

from __future__ import annotations

from intent.embedded import EmbeddedIntentAdapter
from intent.synonyms import ACTION_OF

CONTEXT = {"now": "2026-03-10T09:00:00-03:00", "time_zone": "America/Sao_Paulo"}


def test_busca_is_no_search() -> None:
    assert "busca" not in ACTION_OF
    assert ACTION_OF["procura"] == "search"


def test_a_pickup_asked_with_buscar(round19_beside_shipped: EmbeddedIntentAdapter) -> None:
    out = round19_beside_shipped.parse_sync(
        "tenho um sofá velho pra descartar, vcs buscam na rua augusta 900 na quarta?", context=CONTEXT
    )
    assert out.goal == "SCHEDULE_BULKY_PICKUP", out.notes
    assert out.entities.get("address_text") == "rua augusta 900", out.notes
