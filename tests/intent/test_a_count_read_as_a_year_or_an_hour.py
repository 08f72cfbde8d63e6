"""A count the recogniser reads as a year ("de 2000") or an hour ("about 600" as 18:00) is the
count, when nothing but a preposition or a hedge is said with it."""

from __future__ import annotations

import pytest

from intent.embedded import EmbeddedIntentAdapter

CONTEXT = {"now": "2026-03-10T09:00:00-03:00", "time_zone": "America/Sao_Paulo"}


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("quero fechar o pedido de tradução de 3000 palavras pro espanhol", 3000),
        ("order a translation of about 700 words into french", 700),
        ("place an order for around 1200 words into german", 1200),
    ],
)
def test_the_count_said(round18_beside_shipped: EmbeddedIntentAdapter, text: str, words: int) -> None:
    out = round18_beside_shipped.parse_sync(text, context=CONTEXT)
    assert out.goal == "PLACE_TRANSLATION_ORDER", out.notes
    assert out.entities.get("words") == words


def test_a_year_with_its_month_is_still_a_day(round17_beside_shipped: EmbeddedIntentAdapter) -> None:
    out = round17_beside_shipped.parse_sync("2 ingressos pro museu dia 20 de março de 2026", context=CONTEXT)
    assert out.entities.get("visit_day") == "2026-03-20"
