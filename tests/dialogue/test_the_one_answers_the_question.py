"""A reply that names the value asked for and stands "one" in for the thing ("the full day one" to
"which pass?") answers the question, though the classifier reads a price question in the words
of the value. The classifier and the extractor are the real ones."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.understanding.round19.domains import karaoke, ski_resort, waste_pickup
from dialogue.slots import answer_slot
from dialogue.state import new_turn
from intent.embedded import EmbeddedIntentAdapter, entity_extractor
from shared.catalog import GoalRef
from shared.models import IntentOutput, ResumePoint, SlotQuestion
from tests.intent.conftest import as_a_gateway_reads

CONTEXT = {"now": "2026-03-10T10:00:00-03:00", "time_zone": "America/Sao_Paulo"}
THRESHOLD = 0.7


@pytest.fixture(scope="module")
def adapter(tmp_path_factory: pytest.TempPathFactory) -> EmbeddedIntentAdapter:
    return as_a_gateway_reads(Path(tmp_path_factory.mktemp("round19")), karaoke, ski_resort, waste_pickup)


def _answered(adapter: EmbeddedIntentAdapter, reply: str, language: str) -> IntentOutput | None:
    buy = adapter.catalog.find_goal("ski_resort", "BUY_LIFT_PASS")
    assert buy is not None
    extractor = entity_extractor(GoalRef("ski_resort", buy), adapter.catalog)
    asked = IntentOutput(
        primary_domain="ski_resort",
        goal="BUY_LIFT_PASS",
        confidence=0.9,
        language=language,
        entities={"day": "2026-03-16", "passes": 2},
    )
    question = SlotQuestion(
        text="Which pass?",
        entity="pass_type",
        resume=ResumePoint(intent=asked, language=language, domain="ski_resort"),
    )
    intent = adapter.parse_sync(reply, context=CONTEXT)
    answered = answer_slot(question, reply, intent, new_turn("r1", reply), extractor, THRESHOLD)
    if answered is None:
        return None
    turn, still = answered
    assert still is None
    return turn.intent


@pytest.mark.parametrize(
    ("reply", "language", "pass_type"),
    [
        ("the full day one", "en", "FULL_DAY"),
        ("the half day ones", "en", "HALF_DAY"),
        ("o de dia inteiro", "pt", "FULL_DAY"),
    ],
)
def test_the_one_named_is_the_value_asked_for(
    adapter: EmbeddedIntentAdapter, reply: str, language: str, pass_type: str
) -> None:
    intent = _answered(adapter, reply, language)
    assert intent is not None, "the reply was read as a new request"
    assert (intent.goal, intent.entities) == (
        "BUY_LIFT_PASS",
        {"day": "2026-03-16", "passes": 2, "pass_type": pass_type},
    )


def test_a_question_about_the_one_is_a_new_request(adapter: EmbeddedIntentAdapter) -> None:
    assert _answered(adapter, "what is the price of the full day one?", "en") is None
