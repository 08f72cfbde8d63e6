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
