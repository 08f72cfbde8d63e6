"""Replies that carry the pending request's values are read for it: a reply to "which policy?"
that also says when the claim's incident happened fills both, though the policy alone reads like
a question about its cover; "não, o valor é 9 mil" while a claim waits for a yes corrects its
amount; "e qual o status dele?" after a claim names no policy."""

from __future__ import annotations

from typing import Any

import pytest

from bench.understanding.round10.domains import insurance
from dialogue.rules import FollowUps
from dialogue.slots import answer_slot
from dialogue.state import Memory, new_turn
from intent.embedded import entity_extractor
from intent.typed import Clock
from shared.catalog import Catalog, GoalRef
from shared.models import IntentOutput, ResumePoint, SlotQuestion

CLOCK = Clock.of({"now": "2026-03-10T10:00:00-03:00", "time_zone": "America/Sao_Paulo"})


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return Catalog([insurance.service.manifest_with_lookups()])


def _intent(goal: str | None, confidence: float = 0.9, language: str = "en", **entities: Any) -> IntentOutput:
    return IntentOutput(
        primary_domain="insurance" if goal else None,
        goal=goal,
        entities=entities,
        confidence=confidence,
        language=language,
    )


def test_a_reply_naming_more_of_the_pending_request_fills_it(catalog: Catalog) -> None:
    claim = catalog.find_goal("insurance", "FILE_CLAIM")
    assert claim is not None
    extractor = entity_extractor(GoalRef("insurance", claim), catalog)
    question = SlotQuestion(
        text="To go on, I need to know: the policy number.",
        entity="policy_text",
        resume=ResumePoint(intent=_intent("FILE_CLAIM"), language="en", domain="insurance"),
    )
    reply = "policy SG3307, it happened on march 1st"
    cover = _intent("POLICY_COVERAGE", 0.8, policy_text="SG3307")  # what the classifier read
    answered = answer_slot(question, reply, cover, new_turn("r1", reply), extractor, 0.5, CLOCK)
    assert answered is not None
    turn, _ = answered
    assert turn.intent is not None and turn.intent.goal == "FILE_CLAIM"
    assert turn.intent.entities == {"policy_text": "SG3307", "incident_day": "2026-03-01"}
    # a reply that says nothing more than the other goal reads is that goal's request
    alone = "what does SG3307 cover?"
    assert answer_slot(question, alone, cover, new_turn("r2", alone), extractor, 0.5, CLOCK) is None


@pytest.mark.parametrize(
    ("text", "amount"), [("não, o valor é 9 mil", 9000), ("no, the amount is 9500", 9500)]
)
def test_a_correction_naming_the_entity_replaces_its_value(catalog: Catalog, text: str, amount: int) -> None:
    waiting = _intent(
        "FILE_CLAIM",
        language="pt",
        policy_text="SG4821",
        coverage="COLLISION",
        incident_day="2026-03-09",
        amount={"amount": 8500, "currency": "BRL"},
    )
    corrected = FollowUps().correct(waiting, text, catalog, CLOCK)
    assert corrected is not None
    assert corrected.entities == {**waiting.entities, "amount": {"amount": amount, "currency": "BRL"}}


def test_a_question_after_a_request_is_no_value_of_it(catalog: Catalog) -> None:
    last = _intent("FILE_CLAIM", language="pt", policy_text="SG4821", coverage="COLLISION")
    memory = Memory(last_intent=last, last_answer="Sinistro SN20501 aberto")
    nothing = _intent(None, 0.3, language="pt")
    assert FollowUps().follow_up(nothing, "e qual o status dele?", memory, catalog, CLOCK) == nothing
    # a value of the request's own still follows it up
    read = FollowUps().follow_up(nothing, "e a SG3307?", memory, catalog, CLOCK)
    assert read.goal == "FILE_CLAIM" and str(read.entities["policy_text"]).upper() == "SG3307"
