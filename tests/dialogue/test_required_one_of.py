"""A goal that needs one of several entities (``required_one_of``: a bill needs a biller or a
barcode) asks for the group, naming the alternatives, before the approval of a gated step: the
yes is never asked for a step that still lacks its object. A reply with either fills it, and
only then the approval is asked; a request that names one goes to the approval at once."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from dialogue.slots import answer_slot, group_question
from dialogue.state import new_turn
from intent.embedded import EmbeddedIntentAdapter
from intent.entities import GoalEntityExtractor
from shared.catalog import Catalog
from shared.manifest import validate_manifest
from shared.models import (
    ApprovalQuestion,
    DomainOutput,
    ExecutionIntent,
    ExecutionPlan,
    IntentOutput,
    SlotQuestion,
)
from shared.status import RunStatus
from tests.conftest import example
from tests.dialogue.conftest import FakeDomains
from tests.dialogue.test_graph import Conversation

BARCODE = "23793381286000000001234567890123456789012345678"

BILLS: dict[str, Any] = {
    "domain": "bills",
    "version": "1",
    "description": {"pt": "Contas a pagar", "en": "Bills to pay"},
    "capabilities": [
        {
            "name": "pay_bill",
            "description": {"pt": "Paga uma conta", "en": "Pay a bill"},
            "parameters": {"type": "object"},
            "metadata": {"policy": {"confirm": True, "idempotent": False}},
        }
    ],
    "goals": [
        {
            "goal": "PAY_BILL",
            "description": {"pt": "Pagar uma conta", "en": "Pay a bill"},
            "capabilities": ["pay_bill"],
            "entities_schema": {
                "biller_text": {
                    "type": "string",
                    "description": {"pt": "A conta a pagar", "en": "The bill to pay"},
                    "lookup": [
                        {"value": "Enel", "aliases": ["conta de luz", "luz", "electricity", "power"]},
                        {"value": "Sabesp", "aliases": ["conta de água", "água", "water"]},
                    ],
                },
                "barcode_text": {
                    "type": "string",
                    "description": {"pt": "O código de barras", "en": "The barcode"},
                },
                "amount": {"type": "money", "description": {"pt": "O valor", "en": "The amount"}},
            },
            "required_one_of": [["biller_text", "barcode_text"]],
            "examples": [
                example("paga a conta de luz", biller_text="conta de luz"),
                example("paga a Sabesp", biller_text="Sabesp"),
                example("pagar a conta de água, 80 reais", biller_text="conta de água", amount="80 reais"),
                example(f"paga o boleto {BARCODE}", barcode_text=BARCODE),
                example("pagar uma conta"),
                example("pay my electricity bill", biller_text="electricity"),
                example("pay the water bill, R$ 90", biller_text="water", amount="R$ 90"),
                example("pay a bill"),
            ],
        }
    ],
}


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return Catalog([validate_manifest(BILLS)])


@pytest.fixture(scope="module")
def adapter(catalog: Catalog) -> EmbeddedIntentAdapter:
    return EmbeddedIntentAdapter(catalog, use_embeddings=False)


@pytest.fixture
def chat(adapter: EmbeddedIntentAdapter, catalog: Catalog) -> Conversation:
    paid = {"pay_bill": lambda i: DomainOutput(status="success", explanation="Paga.")}
    return Conversation(adapter, catalog, FakeDomains(threshold=0.0, replies=paid))


async def test_an_amount_without_a_bill_is_asked_for_the_bill_not_for_the_yes(chat: Conversation) -> None:
    asked = await chat.say("paga uma conta de 50 reais")
    pending = asked.state.question
    assert isinstance(pending, SlotQuestion), asked.state.turn.answer
    assert asked.state.turn.answer == "Para continuar, preciso saber: a conta a pagar ou o código de barras."
    assert chat.domains.calls == []

    named = await chat.say("a de luz")
    assert isinstance(named.state.question, ApprovalQuestion), named.state.turn.answer
    assert named.state.turn.intent is not None
    assert named.state.turn.intent.entities["biller_text"] == "luz"  # the words; the domain resolves them
    assert named.state.turn.intent.entities["amount"] == {"amount": 50, "currency": "BRL"}
    assert chat.domains.calls == []  # nothing paid before the yes

    done = await chat.say("sim")
    assert done.state.turn.status == RunStatus.COMPLETED, done.state.turn.answer
    assert [c.parameters["biller_text"] for c in chat.domains.calls] == ["luz"]


async def test_the_other_alternative_fills_the_group(chat: Conversation) -> None:
    await chat.say("quero pagar uma conta")
    named = await chat.say(BARCODE)
    assert isinstance(named.state.question, ApprovalQuestion), named.state.turn.answer
    assert named.state.turn.intent is not None
    assert named.state.turn.intent.entities.get("barcode_text") == BARCODE


async def test_the_question_is_in_the_persons_language(chat: Conversation) -> None:
    asked = await chat.say("I want to pay a bill of R$ 90", session="en")
    assert isinstance(asked.state.question, SlotQuestion), asked.state.turn.answer
    assert asked.state.turn.answer == "To go on, I need to know: the bill to pay or the barcode."


async def test_a_request_that_names_one_is_asked_for_the_yes_at_once(chat: Conversation) -> None:
    asked = await chat.say("paga a conta de luz")
    assert isinstance(asked.state.question, ApprovalQuestion), asked.state.turn.answer
    assert chat.domains.calls == []


@pytest.mark.parametrize("any_of", [False, True], ids=["group only", "group and parameters anyOf"])
async def test_without_a_gate_the_group_is_asked_before_the_call(any_of: bool) -> None:
    """A capability without ``policy.confirm``: the group is asked all the same, naming its
    alternatives (whether or not ``parameters`` states it too, as an ``anyOf``); a reply with
    the other alternative fills it, and only then is it called."""
    manifest: dict[str, Any] = copy.deepcopy(BILLS)
    capability = manifest["capabilities"][0]
    capability["metadata"]["policy"]["confirm"] = False
    if any_of:
        capability["parameters"] = {
            "type": "object",
            "anyOf": [{"required": ["biller_text"]}, {"required": ["barcode_text"]}],
        }
    ungated = Catalog([validate_manifest(manifest)])
    paid = {"pay_bill": lambda i: DomainOutput(status="success", explanation="Paga.")}
    chat = Conversation(
        EmbeddedIntentAdapter(ungated, use_embeddings=False),
        ungated,
        FakeDomains(threshold=0.0, replies=paid),
    )
    asked = await chat.say("paga uma conta de 50 reais")
    assert asked.state.turn.answer == "Para continuar, preciso saber: a conta a pagar ou o código de barras."
    assert chat.domains.calls == []
    done = await chat.say(BARCODE)
    assert done.state.turn.status == RunStatus.COMPLETED, done.state.turn.answer
    assert [c.parameters["barcode_text"] for c in chat.domains.calls] == [BARCODE]


@pytest.mark.parametrize(
    ("reply", "kept"), [(f"o código de barras é {BARCODE}", True), ("rastreia o pedido", False)]
)
def test_a_reply_with_the_other_alternative_is_an_answer_not_another_request(
    catalog: Catalog, reply: str, kept: bool
) -> None:
    """A reply read (confidently) as another goal still answers a group question when it says
    nothing but one of the group's alternatives and the words naming it; a request of its own
    drops the question."""
    goal = catalog.find_goal("bills", "PAY_BILL")
    assert goal is not None
    asked = IntentOutput(
        primary_domain="bills",
        goal="PAY_BILL",
        confidence=0.9,
        entities={"amount": {"amount": 50, "currency": "BRL"}},
    )
    execution_intent = ExecutionIntent(domain="bills", capability="pay_bill", goal="PAY_BILL")
    question = group_question(goal, asked, execution_intent, ExecutionPlan(steps=[]))
    assert question is not None and question.entity == "biller_text"
    elsewhere = IntentOutput(
        primary_domain="parcels", goal="TRACK_PARCEL", confidence=0.95, original_query=reply
    )
    answered = answer_slot(
        question, reply, elsewhere, new_turn("run-2", reply), GoalEntityExtractor(goal), 0.7
    )
    if not kept:
        assert answered is None
        return
    assert answered is not None
    turn, pending = answered
    assert pending is None and turn.intent is not None
    assert turn.intent.entities["barcode_text"] == BARCODE


async def test_two_replies_that_name_neither_end_naming_both(chat: Conversation) -> None:
    await chat.say("paga uma conta de 50 reais")
    again = await chat.say("hmm")
    assert again.state.turn.answer.startswith(
        "Não entendi. Para continuar, preciso saber: a conta a pagar ou"
    )
    ended = await chat.say("sei lá")
    assert ended.state.turn.answer.startswith(
        "Sem a conta a pagar ou o código de barras não consigo continuar."
    )
    assert ended.state.question is None and chat.domains.calls == []
