""" "3 of us", "4 de nós": a count of the people asking, never an amount of money whose currency
was left unsaid; nor is a count of a thing ("3 people") an amount."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from intent.embedded import EmbeddedIntentAdapter
from intent.typed import RECOGNIZER

CONTEXT = {"now": "2026-03-10T09:00:00-03:00", "time_zone": "America/Sao_Paulo"}
NOW = datetime(2026, 3, 10, 9, tzinfo=ZoneInfo("America/Sao_Paulo"))


@pytest.mark.parametrize(
    ("text", "language", "words"),
    [("for 2 nights, 3 of us", "en", "3 of us"), ("somos 4 de nós", "pt", "4 de nós")],
)
def test_the_count_takes_its_words(text: str, language: str, words: str) -> None:
    spans = [s for s in RECOGNIZER.spans(text, language, time_zone="America/Sao_Paulo", now=NOW)]
    assert [text[s.start : s.end] for s in spans if s.type == "number"][-1] == words


@pytest.mark.parametrize(
    "text", ["RV site on the 20th for 2 nights, 3 of us", "RV site on the 20th for 2 nights, 3 people"]
)
def test_the_party_is_no_budget(round16_beside_shipped: EmbeddedIntentAdapter, text: str) -> None:
    out = round16_beside_shipped.parse_sync(text, context=CONTEXT)
    assert out.goal == "BOOK_CAMPSITE", out.notes
    assert out.entities == {"accommodation": "RV", "arrival": "2026-03-20", "nights": 2, "people": 3}


def test_a_count_of_people_is_no_amount_to_a_price(round16_beside_shipped: EmbeddedIntentAdapter) -> None:
    out = round16_beside_shipped.parse_sync("how much is an RV site for 2 nights, 3 people?", context=CONTEXT)
    assert out.goal == "CAMPSITE_PRICE", out.notes
    assert "budget" not in out.entities
