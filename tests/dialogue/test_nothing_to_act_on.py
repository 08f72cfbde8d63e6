"""A request to change something that names nothing of it ("quero cancelar uma visita") is asked
what it is about before the yes is asked for; a reply naming any of the goal's values fills it,
and only then the approval is asked. A request that names it goes to the approval at once."""

from __future__ import annotations

from typing import Any

import pytest

from dialogue.state import TurnState
from intent.embedded import EmbeddedIntentAdapter
from shared.catalog import Catalog
from shared.manifest import validate_manifest
from shared.models import ApprovalQuestion, DomainOutput, SlotQuestion
from shared.status import RunStatus
from tests.conftest import example
from tests.dialogue.conftest import VISITS as VISITS  # test_send_the_last_answer imports it from here
from tests.dialogue.conftest import FakeDomains
from tests.dialogue.test_graph import Conversation


def question(state: TurnState) -> object:
    return state.question


async def test_nothing_named_is_asked_then_the_reply_goes_to_the_approval(visits_chat: Conversation) -> None:
    asked = await visits_chat.say("quero cancelar uma visita")
    assert asked.status == RunStatus.WAITING_INPUT, asked.state.turn.answer
    pending = asked.state.question
    assert isinstance(pending, SlotQuestion), pending
    assert asked.state.turn.answer == "Para continuar, preciso saber: o dia ou o técnico."
    assert visits_chat.domains.calls == []

    named = await visits_chat.say("a do Carlos")
    assert isinstance(named.state.question, ApprovalQuestion), named.state.turn.answer
    assert named.state.turn.intent is not None
    assert named.state.turn.intent.entities == {"technician_text": "Carlos"}
    assert visits_chat.domains.calls == []  # still nothing changed before the yes


async def test_the_same_in_english(visits_chat: Conversation) -> None:
    asked = await visits_chat.say("I need to cancel the visit", session="en")
    assert isinstance(asked.state.question, SlotQuestion), asked.state.turn.answer
    assert asked.state.turn.answer.endswith("the day or the technician.")


async def test_a_request_that_names_it_is_asked_for_the_yes_at_once(visits_chat: Conversation) -> None:
    asked = await visits_chat.say("cancela a visita do Carlos")
    assert isinstance(asked.state.question, ApprovalQuestion), asked.state.turn.answer


#: A goal that names no thing (a day and a budget, both options) and whose own examples ask for it
#: naming nothing: "fecha o pedido" is a whole request, asked for its yes at once.
CART: dict[str, Any] = {
    "domain": "cart",
    "version": "1",
    "description": "O carrinho do mercado",
    "capabilities": [
        {
            "name": "place_order",
            "description": {"pt": "Fecha o pedido do carrinho", "en": "Place the cart's order"},
            "parameters": {
                "type": "object",
                "properties": {"delivery_day": {"type": "string"}, "budget": {"type": "object"}},
            },
            "metadata": {"policy": {"confirm": True}},
        }
    ],
    "goals": [
        {
            "goal": "PLACE_ORDER",
            "description": {"pt": "Fechar o pedido do mercado", "en": "Place the grocery order"},
            "capabilities": ["place_order"],
            "entities_schema": {
                "delivery_day": {
                    "type": "date",
                    "description": {"pt": "o dia da entrega", "en": "the delivery day"},
                },
                "budget": {"type": "money", "description": {"pt": "o máximo a gastar", "en": "your budget"}},
            },
            "examples": [
                example("fecha o pedido do mercado"),
                example("finaliza a compra pra entregar amanhã", delivery_day="amanhã"),
                example("pode fechar as compras, entrega no sábado", delivery_day="sábado"),
                example("place my grocery order"),
                example("checkout the cart for delivery tomorrow", delivery_day="tomorrow"),
            ],
        }
    ],
}


@pytest.fixture(scope="module")
def cart_chat() -> Conversation:
    catalog = Catalog([validate_manifest(CART)])
    placed = {"place_order": lambda i: DomainOutput(status="success", explanation="Pedido feito.")}
    return Conversation(
        EmbeddedIntentAdapter(catalog, use_embeddings=False),
        catalog,
        FakeDomains(threshold=0.0, replies=placed),
    )


@pytest.mark.parametrize(("text", "session"), [("fecha o pedido", "pt"), ("place my order", "en")])
async def test_a_goal_that_names_no_thing_is_asked_for_the_yes_at_once(
    cart_chat: Conversation, text: str, session: str
) -> None:
    asked = await cart_chat.say(text, session=session)
    assert isinstance(asked.state.question, ApprovalQuestion), asked.state.turn.answer
    assert cart_chat.domains.calls == []
