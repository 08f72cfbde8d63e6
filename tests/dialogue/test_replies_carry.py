"""Replies that carry information for the request they answer or point back at: a bare value
answers a slot question even when it reads like another goal, "cancel it" takes what the last
request named, a hesitation before a no is still a no."""

from __future__ import annotations

from typing import Any

import pytest

from bench.understanding.round5.domains import hotel
from bench.understanding.round6.domains import time_off
from dialogue.choice import is_dismissal, is_no, is_yes
from dialogue.rules import FollowUps, referred
from dialogue.slots import answer_slot, only_the_answer
from dialogue.state import Memory, new_turn
from intent.embedded import entity_extractor
from shared.catalog import Catalog, GoalRef
from shared.entities import Entities
from shared.manifest import validate_manifest
from shared.models import IntentOutput, ResumePoint, SlotQuestion

ORDER_NUMBER = {
    "type": "string",
    "required": True,
    "description": {"pt": "O número do pedido", "en": "The order number"},
}
AMOUNT = {"type": "money", "description": {"pt": "O valor", "en": "The amount"}}


def _goal(goal: str, examples: list[dict[str, Any]], **entities: Any) -> dict[str, Any]:
    return {
        "goal": goal,
        "description": goal.replace("_", " ").lower(),
        "capabilities": [goal.lower()],
        "entities_schema": entities,
        "examples": examples,
    }


ORDERS: dict[str, Any] = {
    "domain": "orders",
    "version": "1",
    "description": "Orders (pedidos)",
    "capabilities": [
        {"name": n, "description": n, "parameters": {"type": "object", "properties": {}}}
        for n in ("order_status", "cancel_order", "refund_order")
    ],
    "goals": [
        _goal(
            "ORDER_STATUS",
            [
                {"text": "where is order 48213", "entities": {"order_number_text": "48213"}},
                {"text": "status do pedido 50017", "entities": {"order_number_text": "50017"}},
            ],
            order_number_text=ORDER_NUMBER,
        ),
        _goal(
            "CANCEL_ORDER",
            [
                {"text": "cancel order 48213", "entities": {"order_number_text": "48213"}},
                {"text": "cancela o pedido 50017", "entities": {"order_number_text": "50017"}},
            ],
            order_number_text=ORDER_NUMBER,
            reason={
                "type": "enum",
                "values": ["LATE", "DAMAGED"],
                "synonyms": {"LATE": ["atrasado", "too slow"], "DAMAGED": ["quebrado", "broken"]},
            },
        ),
        _goal(
            "REFUND_ORDER",
            [
                {"text": "refund order 48213", "entities": {"order_number_text": "48213"}},
                {"text": "reembolso do pedido 50017", "entities": {"order_number_text": "50017"}},
            ],
            order_number_text=ORDER_NUMBER,
            amount_text=AMOUNT,
        ),
    ],
}


@pytest.fixture(scope="module")
def orders() -> Catalog:
    return Catalog([validate_manifest(ORDERS)])


def _intent(goal: str | None, confidence: float = 0.9, **entities: Any) -> IntentOutput:
    return IntentOutput(
        primary_domain="orders" if goal else None,
        goal=goal,
        entities=entities,
        confidence=confidence,
        language="en",
    )


def _slot_question(asked: IntentOutput) -> SlotQuestion:
    resume = ResumePoint(intent=asked, language="en", domain="orders")
    return SlotQuestion(
        text="To go on, I need to know: the order number.", entity="order_number_text", resume=resume
    )


@pytest.mark.parametrize("reply", ["order 50017", "50017", "the order number is 50017", "pedido 50017"])
def test_a_bare_value_answers_the_slot_question_over_another_confident_goal(
    orders: Catalog, reply: str
) -> None:
    refund = orders.find_goal("orders", "REFUND_ORDER")
    assert refund is not None
    extractor = entity_extractor(GoalRef("orders", refund), orders)
    asked = _intent("REFUND_ORDER", amount_text="30 reais")
    status_reading = _intent("ORDER_STATUS", 0.81, order_number_text="50017")
    answered = answer_slot(
        _slot_question(asked), reply, status_reading, new_turn("r1", reply), extractor, 0.7
    )
    assert answered is not None
    turn, still = answered
    assert still is None and turn.intent is not None
    assert turn.intent.goal == "REFUND_ORDER"
    assert turn.intent.entities == {"amount_text": "30 reais", "order_number_text": "50017"}


@pytest.mark.parametrize("reply", ["where is order 50017?", "cancel order 50017"])
def test_a_request_of_its_own_still_drops_the_slot_question(orders: Catalog, reply: str) -> None:
    refund = orders.find_goal("orders", "REFUND_ORDER")
    assert refund is not None
    extractor = entity_extractor(GoalRef("orders", refund), orders)
    other = _intent("ORDER_STATUS", 0.9, order_number_text="50017")
    assert (
        answer_slot(
            _slot_question(_intent("REFUND_ORDER")), reply, other, new_turn("r1", reply), extractor, 0.7
        )
        is None
    )


@pytest.mark.parametrize(
    ("reply", "reason"), [("atrasado", "LATE"), ("too slow", "LATE"), ("broken", "DAMAGED")]
)
def test_an_enum_synonym_answers_the_slot_question_over_another_confident_goal(
    orders: Catalog, reply: str, reason: str
) -> None:
    cancel = orders.find_goal("orders", "CANCEL_ORDER")
    assert cancel is not None
    extractor = entity_extractor(GoalRef("orders", cancel), orders)
    asked = _intent("CANCEL_ORDER", order_number_text="51230")
    question = SlotQuestion(
        text="Why?", entity="reason", resume=ResumePoint(intent=asked, language="en", domain="orders")
    )
    # the classifier is sure of another goal: the synonym, said alone, still answers
    other = _intent("ORDER_STATUS", 0.9)
    answered = answer_slot(question, reply, other, new_turn("r1", reply), extractor, 0.7)
    assert answered is not None
    turn, _ = answered
    assert turn.intent is not None and turn.intent.goal == "CANCEL_ORDER"
    assert turn.intent.entities == {"order_number_text": "51230", "reason": reason}


def test_only_the_answer_needs_the_asked_value() -> None:
    assert not only_the_answer("order", "order_number_text", {}, None)
    assert only_the_answer("50017 please", "order_number_text", {"order_number_text": "50017"}, None)


@pytest.mark.parametrize(
    "text", ["ok cancel it then", "cancela esse pedido", "refund that one", "fechado, cancela o pedido"]
)
def test_a_request_pointing_back_takes_the_last_requests_value(orders: Catalog, text: str) -> None:
    last = _intent("ORDER_STATUS", order_number_text="51230")
    goal = "REFUND_ORDER" if "refund" in text else "CANCEL_ORDER"
    carried = referred(_intent(goal), text, last, orders)
    assert carried.entities == {"order_number_text": "51230"}
    assert any("carried from the last request" in note for note in carried.notes)


@pytest.mark.parametrize(
    ("text", "new", "last"),
    [
        ("cancel an order", _intent("CANCEL_ORDER"), _intent("ORDER_STATUS", order_number_text="51230")),
        (
            "cancel it",
            _intent("CANCEL_ORDER", order_number_text="48213"),
            _intent("ORDER_STATUS", order_number_text="51230"),
        ),
        ("cancel it", _intent(None), _intent("ORDER_STATUS", order_number_text="51230")),
    ],
)
def test_nothing_is_carried_without_a_word_pointing_back_or_when_said(
    orders: Catalog, text: str, new: IntentOutput, last: IntentOutput
) -> None:
    assert referred(new, text, last, orders).entities == new.entities


def test_the_follow_up_reader_carries_what_cancel_it_points_at(orders: Catalog) -> None:
    memory = Memory(
        last_intent=_intent("ORDER_STATUS", order_number_text="51230"), last_answer="being prepared"
    )
    read = FollowUps().follow_up(_intent("CANCEL_ORDER"), "ok cancel it then", memory, orders)
    assert read.goal == "CANCEL_ORDER" and read.entities == {"order_number_text": "51230"}


@pytest.mark.parametrize(
    "reply", ["actually no, keep it", "wait no, keep it", "hmm, no", "na verdade não", "pensando bem, não"]
)
def test_a_hesitation_before_a_no_is_a_no(reply: str) -> None:
    assert is_no(reply) and not is_yes(reply)


@pytest.mark.parametrize(
    "reply", ["go for it", "go ahead", "sure thing", "pode ser", "aham", "tá bom", "sounds good"]
)
def test_everyday_yeses(reply: str) -> None:
    assert is_yes(reply) and not is_no(reply)


@pytest.mark.parametrize(
    "reply",
    [
        "nah",
        "nah forget it, I'll go",
        "never mind then",
        "hmm deixa como tá",
        "deixa pra lá, devolvo amanhã mesmo",
        "leave it as is",
        "nao, deixa pra depois",
    ],
)
def test_everyday_nos_with_a_reason_or_a_closing_word(reply: str) -> None:
    assert is_no(reply) and not is_yes(reply)


@pytest.mark.parametrize(
    "reply", ["deixa, quero 3 ingressos", "esquece, pra sexta 10h", "do it tomorrow instead"]
)
def test_a_dismissal_before_a_new_value_or_a_verb_before_more_is_neither(reply: str) -> None:
    assert not is_dismissal(reply) and not is_yes(reply)


@pytest.mark.parametrize("reply", ["actually", "actually I want the blue one", "well, whatever"])
def test_a_hesitation_alone_is_neither(reply: str) -> None:
    assert not is_no(reply) and not is_yes(reply)


@pytest.mark.parametrize(
    ("reply", "reason"), [("late", "LATE"), ("broken please", "DAMAGED"), ("atrasado", "LATE")]
)
def test_a_reply_of_values_only_corrects_the_waiting_request(
    orders: Catalog, reply: str, reason: str
) -> None:
    waiting = _intent("CANCEL_ORDER", order_number_text="51230")
    corrected = FollowUps().correct(waiting, reply, orders)
    assert corrected is not None
    assert corrected.entities == {"order_number_text": "51230", "reason": reason}


@pytest.mark.parametrize("reply", ["yes", "no", "why is it late", "50017", "the weather is broken today"])
def test_other_replies_are_no_bare_correction(orders: Catalog, reply: str) -> None:
    # a yes or no, words beside the value, a value without evidence of its entity (a bare number
    # for a text entity) or a long message: not a correction
    assert FollowUps().correct(_intent("CANCEL_ORDER", order_number_text="51230"), reply, orders) is None


#: a goal whose entity takes plain words ("sertralina"): "deixa" could be read as one
REFILLS: dict[str, Any] = {
    "domain": "refills",
    "version": "1",
    "description": "Prescription refills (receitas)",
    "capabilities": [{"name": "refill", "description": "refill", "parameters": {"type": "object"}}],
    "goals": [
        _goal(
            "REFILL",
            [
                {"text": "renova a receita da sertralina", "entities": {"medicine_text": "sertralina"}},
                {"text": "refill my losartan", "entities": {"medicine_text": "losartan"}},
                {"text": "pede refil do omeprazol", "entities": {"medicine_text": "omeprazol"}},
            ],
            medicine_text={"type": "string", "required": True, "description": "the medicine"},
        )
    ],
}


@pytest.mark.parametrize(
    "reply",
    [
        *("não, deixa pra lá", "deixa pra lá", "nao, esquece", "esquece", "no, never mind", "forget it"),
        *("melhor não", "prefiro não", "better not"),
    ],
)
def test_a_reply_that_drops_the_request_is_a_no_not_a_correction(reply: str) -> None:
    assert is_no(reply) and is_dismissal(reply) and not is_yes(reply)
    refills = Catalog([validate_manifest(REFILLS)])
    waiting = IntentOutput(
        primary_domain="refills", goal="REFILL", entities={"medicine_text": "sertralina"}, confidence=0.9
    )
    # "deixa", "esquece" are no medicine: the waiting request is declined, not corrected
    assert FollowUps().correct(waiting, reply, refills) is None
    assert FollowUps().correct(waiting, "não, o omeprazol", refills) is not None


@pytest.mark.parametrize("reply", ["não, pedido 50017", "no, the order 50017", "deixa o pedido 50017"])
def test_a_correction_or_a_request_is_no_dismissal(reply: str) -> None:
    assert not is_dismissal(reply)


@pytest.mark.parametrize(
    ("reply", "language", "added"),
    [
        ("2 pessoas", "pt", {"guests": 2}),
        ("3 guests", "en", {"guests": 3}),
        ("4 noites", "pt", {"nights": 4}),
    ],
)
def test_a_count_with_its_noun_alone_corrects_the_waiting_booking(
    reply: str, language: str, added: dict[str, int]
) -> None:
    # the noun the examples say with a count ("2 pessoas") is part of the value, not another word
    stays = Catalog([hotel.service.manifest_with_lookups()])
    entities: Entities = {"city_text": "Salvador", "check_in": "2026-03-13", "nights": 2}
    waiting = IntentOutput(
        primary_domain="hotel", goal="BOOK_STAY", entities=entities, confidence=0.9, language=language
    )
    corrected = FollowUps().correct(waiting, reply, stays)
    assert corrected is not None
    assert corrected.entities == {**entities, **added}


def test_a_follow_up_of_only_the_last_goals_values_continues_it() -> None:
    # "folga" is also a leave a request takes: said alone after a balance, it asks the balance
    leave = Catalog([time_off.service.manifest_with_lookups()])
    balance = IntentOutput(
        primary_domain="time_off", goal="LEAVE_BALANCE", entities={"leave_type": "VACATION"}, confidence=0.9
    )
    request = IntentOutput(
        primary_domain="time_off", goal="REQUEST_LEAVE", entities={"leave_type": "PERSONAL"}, confidence=0.64
    )
    read = FollowUps().follow_up(request, "e de folga?", Memory(last_intent=balance), leave)
    assert (read.goal, read.entities) == ("LEAVE_BALANCE", {"leave_type": "PERSONAL"})
    # a verb of the other goal is that goal's request
    asked = FollowUps().follow_up(request, "e tirar folga sexta?", Memory(last_intent=balance), leave)
    assert asked.goal == "REQUEST_LEAVE"
