"""A follow-up that switches on one of the last goal's booleans ("e com tratamento químico?",
"what about with chemicals?" after a medium pool's cleaning price) is the last request with the
switch: the values it had stay. The classifier is the real one; nothing of the project is mocked."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from bench.understanding.round21.domains import coffee_subscription, court_rental, pool_service
from dialogue.rules import FollowUps, composition_follow_up
from dialogue.state import Memory
from intent.embedded import EmbeddedIntentAdapter
from intent.typed import Clock
from orchestrator.orchestrator import DEFAULT_THRESHOLD
from tests.intent.conftest import as_a_gateway_reads

CLOCK = Clock(
    now=datetime(2026, 3, 10, 10, 0, tzinfo=ZoneInfo("America/Sao_Paulo")), time_zone="America/Sao_Paulo"
)
CONTEXT = {"now": "2026-03-10T10:00:00-03:00", "time_zone": "America/Sao_Paulo"}


@pytest.fixture(scope="module")
def adapter(tmp_path_factory: pytest.TempPathFactory) -> EmbeddedIntentAdapter:
    return as_a_gateway_reads(
        Path(tmp_path_factory.mktemp("switch")), pool_service, coffee_subscription, court_rental
    )


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("preço da limpeza de piscina média", "e com tratamento químico?"),
        ("medium pool cleaning price", "what about with chemicals?"),
    ],
)
def test_the_switch_is_added_to_the_last_request(
    adapter: EmbeddedIntentAdapter, first: str, then: str
) -> None:
    last = adapter.parse_sync(first, context=CONTEXT)
    assert (last.goal, last.entities) == ("POOL_SERVICE_PRICE", {"pool_size": "MEDIUM"}), last.notes
    memory = Memory(last_intent=last, last_answer="Limpeza de piscina média: R$ 220.")
    intent = adapter.parse_sync(then, context=CONTEXT)
    intent = FollowUps().follow_up(intent, then, memory, adapter.catalog, CLOCK)
    intent = composition_follow_up(intent, then, memory, adapter.catalog, DEFAULT_THRESHOLD)
    assert intent.goal == "POOL_SERVICE_PRICE", intent.notes
    assert intent.entities == {"pool_size": "MEDIUM", "chemical_treatment": True}, intent.notes
