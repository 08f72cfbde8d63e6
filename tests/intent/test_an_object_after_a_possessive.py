"""The first word of a request is its verb only when nothing points at it: "is my *print* job
done?" asks about a print job (its code is then asked), while "cancel my uber" opens with a
verb whose object no goal knows."""

from __future__ import annotations

from intent.embedded import EmbeddedIntentAdapter

CONTEXT = {"now": "2026-03-10T10:00:00-03:00", "time_zone": "America/Sao_Paulo"}


def test_an_object_after_my_is_the_goals(round13_beside_shipped: EmbeddedIntentAdapter) -> None:
    out = round13_beside_shipped.parse_sync("is my print job done?", context=CONTEXT)
    assert out.goal == "PRINT_STATUS", out.notes
