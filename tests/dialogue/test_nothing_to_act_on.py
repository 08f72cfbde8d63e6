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
from tests.dialogue.conftest import FakeDomains
from tests.dialogue.test_graph import Conversation

VISITS: dict[str, Any] = {
    "domain": "visits",
    "version": "1",
    "description": "Visitas técnicas agendadas",
    "capabilities": [
        {
            "name": "cancel_visit",
            "description": {"pt": "Cancela uma visita técnica", "en": "Cancel a technician's visit"},
            "parameters": {
                "type": "object",
                "properties": {"day_text": {"type": "string"}, "technician_text": {"type": "string"}},
            },
            "metadata": {"policy": {"confirm": True}},
        },
        {
            "name": "list_visits",
            "description": {"pt": "Lista as visitas", "en": "List the visits"},
            "parameters": {"type": "object", "properties": {}},
        },
    ],
    "goals": [
        {
            "goal": "CANCEL_VISIT",
            "description": {"pt": "Cancelar uma visita técnica", "en": "Cancel a technician's visit"},
            "capabilities": ["cancel_visit"],
            "entities_schema": {
                "day_text": {"type": "date", "description": {"pt": "o dia", "en": "the day"}},
                "technician_text": {
                    "type": "string",
                    "description": {"pt": "o técnico", "en": "the technician"},
                    "lookup": [{"value": "Carlos"}, {"value": "Marta"}],
                },
            },
            "examples": [
                example("cancela a visita de sexta", day_text="sexta"),
                example("quero cancelar a visita do Carlos", technician_text="Carlos"),
                example("desmarca a visita técnica de amanhã", day_text="amanhã"),
                example("cancel the technician visit on friday", day_text="friday"),
                example("cancel Marta's visit", technician_text="Marta"),
                example("cancelar visita"),
                example("cancel a visit"),
            ],
        },
        {
            "goal": "LIST_VISITS",
            "description": {"pt": "Ver as visitas agendadas", "en": "See the scheduled visits"},
            "capabilities": ["list_visits"],
            "examples": [
                example("quais visitas tenho agendadas?"),
                example("tenho alguma visita técnica marcada?"),
                example("lista minhas visitas"),
                example("what visits do I have?"),
                example("show my scheduled visits"),
            ],
        },
    ],
}


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return Catalog([validate_manifest(VISITS)])


@pytest.fixture(scope="module")
def adapter(catalog: Catalog) -> EmbeddedIntentAdapter:
    return EmbeddedIntentAdapter(catalog, use_embeddings=False)


@pytest.fixture
def chat(adapter: EmbeddedIntentAdapter, catalog: Catalog) -> Conversation:
    cancelled = {"cancel_visit": lambda i: DomainOutput(status="success", explanation="Cancelada.")}
    return Conversation(adapter, catalog, FakeDomains(threshold=0.0, replies=cancelled))


def question(state: TurnState) -> object:
    return state.question


async def test_nothing_named_is_asked_then_the_reply_goes_to_the_approval(chat: Conversation) -> None:
    asked = await chat.say("quero cancelar uma visita")
    assert asked.status == RunStatus.WAITING_INPUT, asked.state.turn.answer
    pending = asked.state.question
    assert isinstance(pending, SlotQuestion), pending
    assert asked.state.turn.answer == "Para continuar, preciso saber: o dia ou o técnico."
    assert chat.domains.calls == []

    named = await chat.say("a do Carlos")
    assert isinstance(named.state.question, ApprovalQuestion), named.state.turn.answer
    assert named.state.turn.intent is not None
    assert named.state.turn.intent.entities == {"technician_text": "Carlos"}
    assert chat.domains.calls == []  # still nothing changed before the yes


async def test_the_same_in_english(chat: Conversation) -> None:
    asked = await chat.say("I need to cancel the visit", session="en")
    assert isinstance(asked.state.question, SlotQuestion), asked.state.turn.answer
    assert asked.state.turn.answer.endswith("the day or the technician.")


async def test_a_request_that_names_it_is_asked_for_the_yes_at_once(chat: Conversation) -> None:
    asked = await chat.say("cancela a visita do Carlos")
    assert isinstance(asked.state.question, ApprovalQuestion), asked.state.turn.answer
