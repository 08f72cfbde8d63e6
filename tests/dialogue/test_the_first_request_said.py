"""Two requests in one message, the whole read as the later one (a cancelling verb pulls the
classifier): the first request runs when it says every value it requires, and the later one is
named as not done. The classifier is the real one; nothing of the project is mocked."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.understanding.round21.domains import coffee_subscription, court_rental, pool_service
from dialogue.parts import read_parts
from intent.embedded import EmbeddedIntentAdapter
from orchestrator.orchestrator import DEFAULT_THRESHOLD
from tests.intent.conftest import as_a_gateway_reads

CONTEXT = {"now": "2026-03-10T10:00:00-03:00", "time_zone": "America/Sao_Paulo"}
#: low enough that a request short of its day reads as a part asking for its goal
LOWER_THRESHOLD = 0.5


@pytest.fixture(scope="module")
def adapter(tmp_path_factory: pytest.TempPathFactory) -> EmbeddedIntentAdapter:
    return as_a_gateway_reads(
        Path(tmp_path_factory.mktemp("first")), pool_service, coffee_subscription, court_rental
    )


@pytest.mark.parametrize(
    ("text", "goal", "day", "later", "later_part"),
    [
        (
            "reserva quadra de tênis sexta 18h e cancela a QD5105",
            "BOOK_COURT",
            "2026-03-13",
            "CANCEL_COURT_BOOKING",
            "cancela a QD5105",
        ),
        (
            "book a small pool cleaning saturday 8am and cancel visit PS4101",
            "BOOK_POOL_CLEANING",
            "2026-03-14",
            "CANCEL_POOL_VISIT",
            "cancel visit PS4101",
        ),
    ],
)
async def test_the_first_request_runs(
    adapter: EmbeddedIntentAdapter, text: str, goal: str, day: str, later: str, later_part: str
) -> None:
    whole = await adapter.parse(text, context=CONTEXT)
    assert whole.goal == later, whole.notes  # the premise: the whole reads as the later request
    parts = await read_parts(text, whole, adapter, adapter.catalog, DEFAULT_THRESHOLD, context=CONTEXT)
    assert parts.intent.goal == goal, parts.intent.notes
    # the part is read with the conversation's clock, as the whole was
    assert parts.intent.entities["day"] == day
    assert parts.not_done == [later_part]
    code = later_part.split()[-1]
    assert code not in parts.intent.entities.values()


async def test_a_first_part_short_of_what_it_requires_leaves_the_whole(
    adapter: EmbeddedIntentAdapter,
) -> None:
    first = await adapter.parse("quero jogar tênis", context=CONTEXT)
    assert first.goal == "BOOK_COURT", first.notes  # the premise: a request of its own, no day
    assert first.confidence >= LOWER_THRESHOLD, first.notes
    text = "quero jogar tênis e cancela a QD5105"
    whole = await adapter.parse(text, context=CONTEXT)
    parts = await read_parts(text, whole, adapter, adapter.catalog, LOWER_THRESHOLD)
    assert parts.intent.goal == whole.goal
