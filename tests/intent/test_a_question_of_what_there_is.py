"""A question a goal that only reads answers is not an order short of a value: "ainda tem ingresso
pro Cirque du Soleil na quinta?" checks availability, while "pode comprar ingresso pro Coldplay?",
with the purchase's own verb, stays a purchase (and asks how many)."""

from __future__ import annotations

import pytest

from bench.understanding.round7.domains import courses, repairs, tickets
from intent.embedded import EmbeddedIntentAdapter
from tests.intent.conftest import beside_the_shipped

CONTEXT = {"now": "2026-03-10T10:00:00-03:00", "time_zone": "America/Sao_Paulo"}


@pytest.fixture(scope="module")
def adapter() -> EmbeddedIntentAdapter:
    return beside_the_shipped(courses, repairs, tickets)


def test_a_question_of_availability_is_read(adapter: EmbeddedIntentAdapter) -> None:
    read = adapter.parse_sync("ainda tem ingresso pro Cirque du Soleil na quinta?", context=CONTEXT)
    assert (read.goal, read.entities) == (
        "TICKET_AVAILABILITY",
        {"event_text": "Cirque du Soleil", "day": "2026-03-12"},
    ), read.notes


@pytest.mark.parametrize(
    "text", ["pode comprar ingresso pro Coldplay?", "can you buy tickets for Coldplay on Saturday?"]
)
def test_a_question_with_the_purchase_verb_stays_a_purchase(
    adapter: EmbeddedIntentAdapter, text: str
) -> None:
    assert adapter.parse_sync(text, context=CONTEXT).goal == "BUY_TICKETS"


def test_a_polite_request_is_no_question_of_availability(adapter: EmbeddedIntentAdapter) -> None:
    read = adapter.parse_sync("can I get floor tickets for Coldplay?", context=CONTEXT)
    assert read.goal == "BUY_TICKETS", read.notes
