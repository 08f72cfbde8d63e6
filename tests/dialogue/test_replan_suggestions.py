"""A suggestion for a step that changes something, in a plan whose earlier step answered: the
person is asked (an approval naming the change), and the yes calls only the step that failed."""

from __future__ import annotations

import copy
from typing import Any

from intent.embedded import EmbeddedIntentAdapter
from sdk.service import fail
from shared.catalog import Catalog
from shared.manifest import validate_manifest
from shared.models import ApprovalQuestion, DomainOutput, ExecutionIntent
from shared.status import RunStatus
from tests.conftest import example
from tests.dialogue.conftest import NOTIFIER, STOCKS, FakeDomains
from tests.dialogue.test_graph import Conversation


def confirmed_notifier() -> dict[str, Any]:
    manifest = copy.deepcopy(NOTIFIER)
    manifest["capabilities"][0]["metadata"] = {"policy": {"confirm": True}}
    return manifest


def send_to_ana(intent: ExecutionIntent) -> DomainOutput:
    """The notifier: no chat but @ana, which it suggests."""
    if intent.parameters.get("chat") != "@ana":
        return fail("Chat desconhecido.", "chat_not_found", recoverable=True, suggestions=[{"chat": "@ana"}])
    return DomainOutput(status="success", explanation="Enviado.", result=intent.parameters)


def conversation() -> Conversation:
    catalog = Catalog([validate_manifest(STOCKS), validate_manifest(confirmed_notifier())])
    domains = FakeDomains(replies={"send_message": send_to_ana})
    return Conversation(EmbeddedIntentAdapter(catalog, use_embeddings=False), catalog, domains)


async def test_the_yes_to_a_suggested_change_calls_only_the_step_that_failed() -> None:
    chat = conversation()
    approval = await chat.say("manda a cotação da Ambev no telegram")
    assert isinstance(approval.state.question, ApprovalQuestion)
    asked = await chat.say("sim")
    question = asked.state.question
    assert isinstance(question, ApprovalQuestion), asked.state.turn.answer
    assert question.approval_id != approval.state.question.approval_id  # a new approval, listed too
    assert asked.state.turn.answer.startswith(
        "Não deu certo: Chat desconhecido. O serviço sugere tentar de novo com “@ana” para chat. "
    )
    assert [c.capability for c in chat.domains.calls] == ["get_quote", "send_message"]
    done = await chat.say("sim")
    assert done.state.turn.status == RunStatus.COMPLETED, done.state.turn.answer
    assert [c.capability for c in chat.domains.calls] == ["get_quote", "send_message", "send_message"]
    sent = chat.domains.calls[-1].parameters
    assert sent["chat"] == "@ana" and sent["message"] == "Ambev: 20.00"  # the kept quote's answer


#: A ticket office whose purchase asks for a yes and has six seats left, which it suggests.
SEATS: dict[str, Any] = {
    "domain": "seats",
    "version": "1",
    "description": "Ingressos",
    "capabilities": [
        {
            "name": "buy_seats",
            "description": {"pt": "Compra ingressos", "en": "Buy tickets"},
            "parameters": {"type": "object", "properties": {"quantity": {"type": "number"}}},
            "metadata": {"policy": {"confirm": True}},
        }
    ],
    "goals": [
        {
            "goal": "BUY_SEATS",
            "description": {"pt": "Comprar ingressos", "en": "Buy tickets"},
            "capabilities": ["buy_seats"],
            "entities_schema": {
                "quantity": {
                    "type": "number",
                    "required": True,
                    "description": {"pt": "quantos ingressos", "en": "how many tickets"},
                }
            },
            "examples": [
                example("compra 2 ingressos", quantity="2"),
                example("quero 4 ingressos pro show", quantity="4"),
                example("buy 3 tickets", quantity="3"),
                example("get me 5 tickets for the show", quantity="5"),
            ],
        }
    ],
}


def six_left(intent: ExecutionIntent) -> DomainOutput:
    if intent.parameters.get("quantity", 0) > 6:
        return fail("Só restam 6 lugares.", "sold_out", recoverable=True, suggestions=[{"quantity": 6}])
    return DomainOutput(status="success", explanation="Comprados.", result=intent.parameters)


async def test_the_request_that_waits_carries_the_suggested_value() -> None:
    """After "6 no lugar de 8", the request the yes runs is for six: the pending question's
    request says six, so the trace and a follow-up read what will run."""
    catalog = Catalog([validate_manifest(SEATS)])
    chat = Conversation(
        EmbeddedIntentAdapter(catalog, use_embeddings=False),
        catalog,
        FakeDomains(threshold=0.0, replies={"buy_seats": six_left}),
    )
    first = await chat.say("compra 8 ingressos")
    assert isinstance(first.state.question, ApprovalQuestion), first.state.turn.answer
    asked = await chat.say("sim")
    question = asked.state.question
    assert isinstance(question, ApprovalQuestion), asked.state.turn.answer
    assert question.resume.intent.entities == {"quantity": 6}
    assert asked.state.turn.intent is not None and asked.state.turn.intent.entities == {"quantity": 6}
    assert [c.parameters["quantity"] for c in chat.domains.calls] == [8]
    done = await chat.say("sim")
    assert done.state.turn.status == RunStatus.COMPLETED, done.state.turn.answer
    assert [c.parameters["quantity"] for c in chat.domains.calls] == [8, 6]
