"""A message that opens by agreeing to the last answer ("fechado, marca pra sexta às 10h",
"great, book it for monday at 11am" after a session's price), which no goal is sure of, goes on in
the last answer's domain: the goal of that domain the classifier ranks first, when the rest of the
message is its words and values, and what it requires from the last request is carried. The
classifier is the real one; nothing of the project is mocked."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from bench.understanding.round13.domains import bike_rental, florist, print_shop
from bench.understanding.round14.domains import catering, photo_studio, self_storage
from bench.understanding.round15.domains import boat_tours, driving_school, tailor
from bench.understanding.round20.domains import bowling, passport_office, water_delivery
from dialogue.rules import FollowUps, referred
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
PRICE = IntentOutput(
    primary_domain="photo_studio",
    goal="SESSION_PRICE",
    entities={"session_type": "NEWBORN"},
    confidence=0.9,
    original_query="quanto custa um ensaio newborn?",
    language="pt",
)
#: the confidence gate's
THRESHOLD = DEFAULT_THRESHOLD


@pytest.fixture(scope="module")
def adapter(tmp_path_factory: pytest.TempPathFactory) -> EmbeddedIntentAdapter:
    return as_a_gateway_reads(Path(tmp_path_factory.mktemp("agreeing")), catering, photo_studio, self_storage)


def _read(adapter: EmbeddedIntentAdapter, text: str, last: IntentOutput = PRICE) -> IntentOutput:
    follow_ups = FollowUps()
    intent = adapter.parse_sync(text, context=CONTEXT)
    agreed = follow_ups.agreed(intent, text, Memory(last_intent=last), adapter.catalog, THRESHOLD, CLOCK)
    return referred(agreed, text, last, adapter.catalog)


@pytest.mark.parametrize(
    ("text", "day", "time"),
    [
        ("fechado, marca pra sexta às 10h", "2026-03-13", "10:00"),
        ("great, book it for monday at 11am", "2026-03-16", "11:00"),
    ],
)
def test_the_booking_takes_the_session_priced(
    adapter: EmbeddedIntentAdapter, text: str, day: str, time: str
) -> None:
    out = _read(adapter, text)
    assert out.goal == "BOOK_SESSION", out.notes
    assert out.entities == {"session_type": "NEWBORN", "day": day, "time": time}
    assert out.confidence >= THRESHOLD


def test_without_the_agreement_nothing_is_carried(adapter: EmbeddedIntentAdapter) -> None:
    out = _read(adapter, "marca pra sexta às 10h")
    assert out.entities.get("session_type") is None, out.notes


def test_an_agreement_and_words_the_domain_does_not_know(adapter: EmbeddedIntentAdapter) -> None:
    out = _read(adapter, "fechado, me conta uma piada")
    assert out.goal is None, out.notes


QUOTE = IntentOutput(
    primary_domain="print_shop",
    goal="PRINT_QUOTE",
    entities={"product_text": "cartões de visita", "quantity": 200},
    confidence=0.9,
    original_query="quanto custam 200 cartões de visita?",
    language="pt",
)


def test_an_unsure_goal_of_the_domain_is_read_at_the_gate(tmp_path: Path) -> None:
    """The classifier reads the order, unsure: agreeing to the quote is enough to go on with it."""
    adapter = as_a_gateway_reads(tmp_path, bike_rental, florist, print_shop)
    out = _read(adapter, "fechado, imprime pra sexta", QUOTE)
    assert out.goal == "ORDER_PRINT", out.notes
    assert out.entities == {"product_text": "cartões de visita", "quantity": 200, "day": "2026-03-13"}
    assert out.confidence >= THRESHOLD


LESSONS = IntentOutput(
    primary_domain="driving_school",
    goal="PACKAGE_PRICE",
    entities={"lessons": 5},
    confidence=0.9,
    original_query="how much are 5 lessons?",
    language="en",
)


def test_the_one_goal_of_the_domain_that_reads_it_all(tmp_path: Path) -> None:
    """The classifier ranks no goal of the driving school near the top: the one goal of the last
    answer's domain that reads every word goes on; "the first one" picks a lesson, no first of
    the month."""
    adapter = as_a_gateway_reads(tmp_path, boat_tours, driving_school, tailor)
    text = "great, book the first one for monday at 8am"
    intent = adapter.parse_sync(text, context=CONTEXT)
    out = FollowUps().agreed(intent, text, Memory(last_intent=LESSONS), adapter.catalog, THRESHOLD, CLOCK)
    assert (out.primary_domain, out.goal) == ("driving_school", "BOOK_LESSON"), out.notes
    assert out.entities == {"day": "2026-03-16", "time": "08:00"}
    assert out.confidence >= THRESHOLD


HOURS = IntentOutput(
    primary_domain="bowling",
    goal="BOWLING_HOURS",
    entities={"day": "2026-03-12"},
    confidence=0.9,
    original_query="is the alley open on thursday?",
    language="en",
)


def test_then_goes_on_in_the_domain(tmp_path: Path) -> None:
    """ "then" opens a request that goes on from the last answer, as "então" does."""
    adapter = as_a_gateway_reads(tmp_path, bowling, passport_office, water_delivery)
    out = _read(adapter, "then book thursday 9pm for 3", HOURS)
    assert (out.goal, out.entities) == (
        "BOOK_BOWLING_LANE",
        {"day": "2026-03-12", "time": "21:00", "players": 3},
    ), out.notes
    assert out.confidence >= THRESHOLD
