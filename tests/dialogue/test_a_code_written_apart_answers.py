"""A code annotated as letters then digits ("PD48213") is read joined when written apart ("PD
48213"); a reply that is nothing but such a code, and words naming what was asked, answers the
pending question even when the classifier is sure of another goal in it: its letters and digits
are the value's words."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from intent.embedded import EmbeddedIntentAdapter
from shared.catalog import Catalog
from shared.manifest import validate_manifest
from shared.models import ApprovalQuestion, SlotQuestion
from tests.conftest import example
from tests.dialogue.conftest import FakeDomains
from tests.dialogue.test_graph import Conversation

ORDERS: dict[str, Any] = {
    "domain": "orders",
    "version": "1",
    "description": {"pt": "Pedidos da loja", "en": "Shop orders"},
    "capabilities": [
        {
            "name": "return_order",
            "description": {"pt": "Devolve um pedido", "en": "Return an order"},
            "parameters": {"type": "object"},
            "metadata": {"policy": {"confirm": True, "idempotent": False}},
        },
        {
            "name": "track_order",
            "description": {"pt": "Onde está um pedido", "en": "Where an order is"},
            "parameters": {"type": "object"},
        },
    ],
    "goals": [
        {
            "goal": "RETURN_ORDER",
            "description": {"pt": "Devolver um pedido", "en": "Return an order"},
            "capabilities": ["return_order"],
            "entities_schema": {
                "order_code_text": {
                    "type": "string",
                    "required": True,
                    "description": {"pt": "O código do pedido", "en": "The order code"},
                }
            },
            "examples": [
                example("quero devolver a compra PD48213", order_code_text="PD48213"),
                example("devolução da PD50931, veio quebrado", order_code_text="PD50931"),
                example("quero devolver uma compra"),
                example("return PD48213, it came broken", order_code_text="PD48213"),
                example("I want to send something back"),
            ],
        },
        {
            "goal": "TRACK_ORDER",
            "description": {"pt": "Onde está meu pedido", "en": "Where is my order"},
            "capabilities": ["track_order"],
            "entities_schema": {},
            "examples": [
                example("onde está meu pedido?"),
                example("meu pedido ainda não chegou"),
                example("rastrear o pedido"),
                example("status do pedido"),
                example("qual o código de rastreio do pedido?"),
                example("o pedido foi enviado?"),
                example("cadê o pedido"),
                example("where is my order?"),
                example("track my order"),
                example("order status"),
                example("what is the tracking code of my order"),
            ],
        },
    ],
}


class Chat(Conversation):
    def __init__(self, manifest: dict[str, Any] | None = None) -> None:
        catalog = Catalog([validate_manifest(manifest or ORDERS)])
        self.adapter = EmbeddedIntentAdapter(catalog, use_embeddings=False)
        super().__init__(self.adapter, catalog, FakeDomains())


def tracking_by_code() -> dict[str, Any]:
    """:data:`ORDERS` whose tracking takes the code too: the code alone then names neither goal
    (a code no other goal of the domain takes names the one that does)."""
    orders = copy.deepcopy(ORDERS)
    track = orders["goals"][1]
    track["entities_schema"] = {
        "order_code_text": {
            "type": "string",
            "description": {"pt": "O código do pedido", "en": "The order code"},
        }
    }
    track["examples"].append(example("cadê o pedido PD48213?", order_code_text="PD48213"))
    return orders


@pytest.mark.parametrize("reply", ["código do pedido PD 48213", "order code PD-48213"])
async def test_a_code_written_apart_answers_though_the_classifier_reads_another_goal(reply: str) -> None:
    conversation = Chat(tracking_by_code())
    asked = await conversation.say("quero devolver uma compra")
    assert isinstance(asked.state.question, SlotQuestion)
    # the classifier alone reads the tracking of an order in the reply, and is sure of it
    read = conversation.adapter.parse_sync(reply)
    assert read.goal == "TRACK_ORDER" and read.confidence >= conversation.domains.threshold
    given = await conversation.say(reply)
    assert isinstance(given.state.question, ApprovalQuestion), given.state.turn.answer
    assert "PD48213" in given.state.turn.answer


async def test_a_code_written_apart_corrects_the_request_waiting_for_a_yes() -> None:
    """A bare value corrects a request waiting for its yes when its table lists it: "PD 48214"
    says nothing but the listed "PD48214"."""
    orders = copy.deepcopy(ORDERS)
    codes: list[dict[str, Any]] = [{"value": code, "aliases": []} for code in ("PD48213", "PD48214")]
    orders["goals"][0]["entities_schema"]["order_code_text"]["lookup"] = codes
    conversation = Chat(orders)
    waiting = await conversation.say("quero devolver a compra PD48213")
    assert isinstance(waiting.state.question, ApprovalQuestion)
    corrected = await conversation.say("PD 48214")
    assert isinstance(corrected.state.question, ApprovalQuestion), corrected.state.turn.answer
    assert "PD48214" in corrected.state.turn.answer and "PD48213" not in corrected.state.turn.answer
    assert corrected.state.turn.intent is not None
    assert any("correction of RETURN_ORDER" in note for note in corrected.state.turn.intent.notes)
