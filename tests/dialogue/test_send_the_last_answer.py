"""A request for the notifier's own goal that names nothing to send, right after an answer, sends
that answer, whichever domain gave it: "manda isso no meu telegram" after a list of visits, a
domain that declares no notify flag of its own. One that names its message sends the message."""

from __future__ import annotations

from typing import Any

import pytest

from intent.embedded import EmbeddedIntentAdapter
from shared.catalog import Catalog
from shared.manifest import validate_manifest
from shared.models import DomainOutput, SlotQuestion
from tests.conftest import example
from tests.dialogue.conftest import STOCKS, FakeDomains
from tests.dialogue.test_graph import Conversation
from tests.dialogue.test_nothing_to_act_on import VISITS

NOTIFIER: dict[str, Any] = {
    "domain": "notifier",
    "version": "1",
    "description": {"pt": "Envia mensagens pelo Telegram", "en": "Sends Telegram messages"},
    "capabilities": [
        {
            "name": "send_message",
            "description": {"pt": "Envia uma mensagem", "en": "Send a message"},
            "role": "notifier",
            "parameters": {"type": "object", "properties": {"message": {"type": "string"}}},
        }
    ],
    "goals": [
        {
            "goal": "SEND_MESSAGE",
            "description": {"pt": "Enviar uma mensagem pelo Telegram", "en": "Send a Telegram message"},
            "capabilities": ["send_message"],
            "entities_schema": {
                "message": {
                    "type": "string",
                    "required": True,
                    "description": {"pt": "a mensagem a enviar", "en": "the message to send"},
                }
            },
            "examples": [
                example("manda no telegram: reunião às 15h", message="reunião às 15h"),
                example("envia uma mensagem no telegram dizendo que chego tarde", message="que chego tarde"),
                example(
                    "send a telegram message saying the meeting is at 3pm", message="the meeting is at 3pm"
                ),
                example("message me on telegram: call the bank", message="call the bank"),
                example("me avisa no telegram: comprar pão", message="comprar pão"),
                example("telegram me: pick up the kids", message="pick up the kids"),
            ],
        }
    ],
}


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return Catalog([validate_manifest(m) for m in (VISITS, STOCKS, NOTIFIER)])


@pytest.fixture(scope="module")
def adapter(catalog: Catalog) -> EmbeddedIntentAdapter:
    return EmbeddedIntentAdapter(catalog, use_embeddings=False)


@pytest.fixture
def chat(adapter: EmbeddedIntentAdapter, catalog: Catalog) -> Conversation:
    replies = {
        "list_visits": lambda i: DomainOutput(status="success", explanation="Visitas: Carlos na sexta."),
        "send_message": lambda i: DomainOutput(status="success", explanation="Enviado."),
    }
    return Conversation(adapter, catalog, FakeDomains(threshold=0.0, replies=replies))


@pytest.mark.parametrize("resend", ["manda isso no meu telegram", "send that to my telegram"])
async def test_the_last_answer_of_any_domain_is_sent(chat: Conversation, resend: str) -> None:
    listed = await chat.say("lista as visitas")
    assert listed.state.turn.answer == "Visitas: Carlos na sexta."
    sent = await chat.say(resend)
    assert sent.state.question is None, sent.state.turn.answer
    call = chat.domains.calls[-1]
    assert (call.capability, call.parameters) == ("send_message", {"message": "Visitas: Carlos na sexta."})


async def test_a_message_named_is_the_one_sent(chat: Conversation) -> None:
    await chat.say("lista as visitas")
    await chat.say("manda no telegram: chego às 15h")
    assert chat.domains.calls[-1].parameters == {"message": "chego às 15h"}


async def test_with_no_answer_before_it_asks_what_to_send(chat: Conversation) -> None:
    asked = await chat.say("manda isso no meu telegram")
    assert isinstance(asked.state.question, SlotQuestion), asked.state.turn.answer
    assert chat.domains.calls == []
