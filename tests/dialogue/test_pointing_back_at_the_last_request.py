"""A message that points back at the last request ("cancela essa", "cancel that one" after a
boat tour's booking), which the classifier reads as another domain's goal that reads nothing of it,
or unsure as another goal of the same domain ("ok book it for friday 8pm" after a lane's price),
is the goal of the last request's domain, when every word of the message is that goal's. The
classifier is the real one; nothing of the project is mocked."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from bench.understanding.round15.domains import boat_tours, driving_school, tailor
from bench.understanding.round20.domains import bowling, passport_office, water_delivery
from dialogue.rules import FollowUps
from dialogue.state import Memory
from intent.embedded import EmbeddedIntentAdapter
from intent.typed import Clock
from orchestrator.orchestrator import DEFAULT_THRESHOLD
from shared.models import IntentOutput
from tests.intent.conftest import as_a_gateway_reads

CLOCK = Clock(
    now=datetime(2026, 3, 10, 10, 0, tzinfo=ZoneInfo("America/Sao_Paulo")), time_zone="America/Sao_Paulo"
)
CONTEXT = {"now": "2026-03-10T10:00:00-03:00", "time_zone": "America/Sao_Paulo"}
BOOKED = IntentOutput(
    primary_domain="boat_tours",
    goal="BOOK_TOUR",
    entities={"tour_text": "escuna", "people": 2, "day": "2026-03-11"},
    confidence=0.9,
    original_query="reserva escuna amanhã pra 2 pessoas",
    language="pt",
)


@pytest.fixture(scope="module")
def adapter(tmp_path_factory: pytest.TempPathFactory) -> EmbeddedIntentAdapter:
    return as_a_gateway_reads(Path(tmp_path_factory.mktemp("pointing")), boat_tours, driving_school, tailor)


def _read(adapter: EmbeddedIntentAdapter, text: str) -> IntentOutput:
    intent = adapter.parse_sync(text, context=CONTEXT)
    return FollowUps().pointed_back(
        intent, text, Memory(last_intent=BOOKED), adapter.catalog, DEFAULT_THRESHOLD, CLOCK
    )


def test_cancelling_that_one_cancels_in_the_tours_domain(adapter: EmbeddedIntentAdapter) -> None:
    out = _read(adapter, "cancela essa")
    assert (out.primary_domain, out.goal) == ("boat_tours", "CANCEL_TOUR"), out.notes
    assert out.confidence >= DEFAULT_THRESHOLD


def test_a_word_of_the_other_domain_keeps_its_goal(adapter: EmbeddedIntentAdapter) -> None:
    out = _read(adapter, "cancela essa aula de direção")
    assert (out.primary_domain, out.goal) == ("driving_school", "CANCEL_LESSON"), out.notes


def test_without_a_word_pointing_back_the_classifier_decides(adapter: EmbeddedIntentAdapter) -> None:
    text = "cancela"
    assert _read(adapter, text) == adapter.parse_sync(text, context=CONTEXT)


PRICED = IntentOutput(
    primary_domain="bowling",
    goal="BOWLING_PRICE",
    entities={"players": 6},
    confidence=0.9,
    original_query="how much is a lane for 6?",
    language="en",
)


@pytest.fixture(scope="module")
def bowling_adapter(tmp_path_factory: pytest.TempPathFactory) -> EmbeddedIntentAdapter:
    return as_a_gateway_reads(
        Path(tmp_path_factory.mktemp("pointing20")), bowling, passport_office, water_delivery
    )


@pytest.mark.parametrize(
    ("text", "day", "time"),
    [
        ("ok book it for friday 8pm", "2026-03-13", "20:00"),
        ("ok book that for sunday at 7pm", "2026-03-15", "19:00"),
    ],
)
def test_booking_it_after_its_price_is_the_booking_with_the_party(
    bowling_adapter: EmbeddedIntentAdapter, text: str, day: str, time: str
) -> None:
    """Read unsure as the domain's booking, every word of it the booking's: the booking, as sure
    as the gate needs, with the party the price was asked for."""
    intent = bowling_adapter.parse_sync(text, context=CONTEXT)
    follow_ups, memory = FollowUps(), Memory(last_intent=PRICED)
    pointed = follow_ups.pointed_back(intent, text, memory, bowling_adapter.catalog, DEFAULT_THRESHOLD, CLOCK)
    out = follow_ups.follow_up(pointed, text, memory, bowling_adapter.catalog, CLOCK)
    assert (out.goal, out.entities) == ("BOOK_BOWLING_LANE", {"day": day, "time": time, "players": 6}), (
        out.notes
    )
    assert out.confidence >= DEFAULT_THRESHOLD
