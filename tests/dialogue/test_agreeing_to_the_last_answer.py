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

from bench.understanding.round14.domains import catering, photo_studio, self_storage
from dialogue.rules import FollowUps, referred
from dialogue.state import Memory
from intent.embedded import EmbeddedIntentAdapter
from intent.typed import Clock
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
THRESHOLD = 0.5


@pytest.fixture(scope="module")
def adapter(tmp_path_factory: pytest.TempPathFactory) -> EmbeddedIntentAdapter:
    return as_a_gateway_reads(Path(tmp_path_factory.mktemp("agreeing")), catering, photo_studio, self_storage)


def _read(adapter: EmbeddedIntentAdapter, text: str) -> IntentOutput:
    follow_ups = FollowUps()
    intent = adapter.parse_sync(text, context=CONTEXT)
    agreed = follow_ups.agreed(intent, text, Memory(last_intent=PRICE), adapter.catalog, THRESHOLD, CLOCK)
    return referred(agreed, text, PRICE, adapter.catalog)


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
