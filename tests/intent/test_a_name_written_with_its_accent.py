"""A one-word name of a lookup table that, without its accent, is a function word ("Sé", the
square, and "se") is a name where it is written with the accent, and a function word elsewhere."""

from __future__ import annotations

from intent.embedded import EmbeddedIntentAdapter

CONTEXT = {"now": "2026-03-10T10:00:00-03:00", "time_zone": "America/Sao_Paulo"}


def test_the_accented_name_is_the_station(round13_beside_shipped: EmbeddedIntentAdapter) -> None:
    out = round13_beside_shipped.parse_sync("aluga um patinete na sé amanhã 10h por 1 hora", context=CONTEXT)
    assert (out.goal, out.entities.get("station_text")) == ("RENT_BIKE", "sé"), out.notes


def test_the_function_word_names_nothing(round13_beside_shipped: EmbeddedIntentAdapter) -> None:
    out = round13_beside_shipped.parse_sync(
        "aluga um patinete se der amanhã na paulista por 1 hora", context=CONTEXT
    )
    assert (out.goal, out.entities.get("station_text")) == ("RENT_BIKE", "paulista"), out.notes
