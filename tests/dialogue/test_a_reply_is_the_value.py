"""A reply to the question for a name no table lists is that value, all of it, however many
pieces it has ("bela vista, rua treze de maio 20" to "which address?"); a sure request of
another goal still drops the question; a corrected amount keeps the currency it replaces."""

from __future__ import annotations

import pytest

from bench.understanding.round9.domains import phone_plan, utilities
from dialogue.rules import FollowUps
from dialogue.slots import answer_slot
from dialogue.state import new_turn
from intent.embedded import entity_extractor
from shared.catalog import Catalog, GoalRef
from shared.entities import EntityValue
from shared.models import IntentOutput, ResumePoint, SlotQuestion


@pytest.fixture(scope="module")
def city() -> Catalog:
    return Catalog([utilities.service.manifest_with_lookups()])


def _intent(goal: str | None, confidence: float = 0.9, **entities: EntityValue) -> IntentOutput:
    return IntentOutput(
        primary_domain="utilities" if goal else None,
        goal=goal,
        entities=dict(entities),
        confidence=confidence,
        language="pt",
    )


def _asked_where(asked: IntentOutput) -> SlotQuestion:
    resume = ResumePoint(intent=asked, language="pt", domain="utilities")
    return SlotQuestion(
        text="Para continuar, preciso saber: o endereço.", entity="address_text", resume=resume
    )


@pytest.mark.parametrize(
    "reply",
    ["bela vista, rua treze de maio 20", "av rebouças 1500, pinheiros", "120 maple avenue"],
)
def test_the_reply_is_the_address(city: Catalog, reply: str) -> None:
    outage = city.find_goal("utilities", "REPORT_OUTAGE")
    assert outage is not None
    extractor = entity_extractor(GoalRef("utilities", outage), city)
    asked = _intent("REPORT_OUTAGE", service="POWER")
    unsure = _intent(None, 0.2)
    answered = answer_slot(_asked_where(asked), reply, unsure, new_turn("r1", reply), extractor, 0.7)
    assert answered is not None
    turn, still = answered
    assert still is None and turn.intent is not None
    assert turn.intent.entities == {"service": "POWER", "address_text": reply}


def test_a_sure_request_of_another_goal_is_no_address(city: Catalog) -> None:
    outage = city.find_goal("utilities", "REPORT_OUTAGE")
    assert outage is not None
    extractor = entity_extractor(GoalRef("utilities", outage), city)
    reply = "segunda via da conta de março"
    bill = _intent("BILL_COPY", 0.95, month="MARCH")
    assert (
        answer_slot(
            _asked_where(_intent("REPORT_OUTAGE")), reply, bill, new_turn("r1", reply), extractor, 0.7
        )
        is None
    )


def test_a_corrected_amount_keeps_the_currency_it_replaces() -> None:
    phones = Catalog([phone_plan.service.manifest_with_lookups()])
    waiting = IntentOutput(
        primary_domain="phone_plan",
        goal="TOP_UP",
        entities={"phone": "11912345678", "amount": {"amount": 30, "currency": "BRL"}},
        confidence=0.9,
        language="en",
    )
    corrected = FollowUps().correct(waiting, "no, make it 80", phones)
    assert corrected is not None
    assert corrected.entities["amount"] == {"amount": 80, "currency": "BRL"}
    dollars = FollowUps().correct(waiting, "no, make it 80 dollars", phones)
    assert dollars is not None
    assert dollars.entities["amount"] == {"amount": 80, "currency": "USD"}
