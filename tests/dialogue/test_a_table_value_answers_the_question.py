"""A value of a table said alone, while a question for it waits, answers the question: "the
english one" to a dropped course's "which course?" is that course, though the classifier raises
it alone to a question about the course. The classifier and the extractor are the real ones."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.understanding.round7.domains import courses, repairs, tickets
from dialogue.slots import answer_slot
from dialogue.state import new_turn
from intent.base import lone_value
from intent.embedded import EmbeddedIntentAdapter, entity_extractor
from shared.catalog import GoalRef
from shared.models import IntentOutput, ResumePoint, SlotQuestion
from tests.intent.conftest import as_a_gateway_reads

CONTEXT = {"now": "2026-03-10T10:00:00-03:00", "time_zone": "America/Sao_Paulo"}
THRESHOLD = 0.7


@pytest.fixture(scope="module")
def adapter(tmp_path_factory: pytest.TempPathFactory) -> EmbeddedIntentAdapter:
    return as_a_gateway_reads(Path(tmp_path_factory.mktemp("round7")), courses, repairs, tickets)


def test_the_english_one_is_the_course_to_drop(adapter: EmbeddedIntentAdapter) -> None:
    reply = "the english one"
    intent = adapter.parse_sync(reply, context=CONTEXT)
    assert lone_value(intent) and intent.confidence >= THRESHOLD, intent.notes
    drop = adapter.catalog.find_goal("courses", "DROP_COURSE")
    assert drop is not None
    extractor = entity_extractor(GoalRef("courses", drop), adapter.catalog)
    asked = IntentOutput(primary_domain="courses", goal="DROP_COURSE", confidence=0.9, language="en")
    question = SlotQuestion(
        text="To go on, I need to know: the course.",
        entity="course_text",
        resume=ResumePoint(intent=asked, language="en", domain="courses"),
    )
    answered = answer_slot(question, reply, intent, new_turn("r1", reply), extractor, THRESHOLD)
    assert answered is not None
    turn, still = answered
    assert still is None and turn.intent is not None
    assert (turn.intent.goal, turn.intent.entities) == ("DROP_COURSE", {"course_text": "english"})
