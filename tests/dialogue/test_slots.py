"""Slot filling through whole turns: a required entity the person left out is asked for in their
language before any domain is called; the reply fills it (and may change what was said), a new
request drops the question, two replies that name nothing end it with what is needed."""

from __future__ import annotations

from typing import Any

import pytest

from dialogue.slots import describe
from dialogue.state import TurnState
from intent.embedded import EmbeddedIntentAdapter
from shared.catalog import Catalog
from shared.manifest import validate_manifest
from shared.models import SlotQuestion
from shared.status import RunStatus
from tests.dialogue.conftest import STOCKS, FakeDomains, build_catalog
from tests.dialogue.test_graph import Conversation
from tests.fixtures.currency_domain import convert_currency, service

#: A capability whose schema needs a parameter no goal entity gives: nothing can be asked.
LEDGER: dict[str, Any] = {
    "domain": "ledger",
    "version": "1",
    "description": "Extrato bancário (bank statements)",
    "capabilities": [
        {
            "name": "statement",
            "description": "statement of an account",
            "parameters": {
                "type": "object",
                "properties": {"account_id": {"type": "string"}},
                "required": ["account_id"],
            },
        }
    ],
    "goals": [
        {
            "goal": "GET_STATEMENT",
            "description": "Extrato da conta bancária (bank account statement)",
            "capabilities": ["statement"],
            "examples": [
                "quero ver meu extrato bancário",
                "extrato da minha conta corrente",
                "show my bank statement",
                "bank account statement please",
                "me mostra o extrato do banco",
            ],
        }
    ],
}


def slot_catalog() -> Catalog:
    return Catalog([*build_catalog().manifests(), service.manifest(), validate_manifest(LEDGER)])


@pytest.fixture(scope="module")
def slot_adapter() -> EmbeddedIntentAdapter:
    return EmbeddedIntentAdapter(slot_catalog(), use_embeddings=False)


@pytest.fixture
def chat(slot_adapter: EmbeddedIntentAdapter) -> Conversation:
    domains = FakeDomains(replies={"convert_currency": convert_currency})
    return Conversation(slot_adapter, slot_catalog(), domains)


def pending(state: TurnState) -> SlotQuestion:
    assert isinstance(state.question, SlotQuestion), state.turn.answer
    return state.question


async def test_a_missing_role_is_asked_in_portuguese_and_the_reply_fills_it(chat: Conversation) -> None:
    asked = await chat.say("converte 100 dólares")
    assert asked.status == RunStatus.WAITING_INPUT
    question = pending(asked.state)
    assert question.entity == "to_currency"
    assert asked.state.turn.answer.startswith("Para continuar, preciso saber: a moeda de destino.")
    assert chat.domains.calls == []  # never called with parameters its schema rejects

    answered = await chat.say("reais")
    assert answered.state.turn.status == RunStatus.COMPLETED, answered.state.turn.answer
    assert answered.state.question is None
    assert chat.domains.calls[-1].parameters == {
        "amount_text": "100",
        "from_currency": "USD",
        "to_currency": "BRL",
    }
    assert answered.state.turn.answer == "100 USD = 500.0 BRL (taxas de amostra)."


async def test_the_question_is_in_english_for_an_english_request(chat: Conversation) -> None:
    asked = await chat.say("can you convert 100 dollars?")
    assert pending(asked.state).entity == "to_currency"
    assert asked.state.turn.answer.startswith("To go on, I need to know: the currency to convert to.")
    answered = await chat.say("yen")
    assert chat.domains.calls[-1].parameters["to_currency"] == "JPY", answered.state.turn.answer


async def test_the_reply_may_change_what_was_said(chat: Conversation) -> None:
    asked = await chat.say("converte dólares para reais")
    assert pending(asked.state).entity == "amount_text"
    answered = await chat.say("300, não, em euros")
    assert answered.state.turn.status == RunStatus.COMPLETED, answered.state.turn.answer
    assert chat.domains.calls[-1].parameters == {
        "amount_text": "300",
        "from_currency": "USD",
        "to_currency": "EUR",
    }


async def test_a_missing_name_is_asked_and_answered(chat: Conversation) -> None:
    asked = await chat.say("qual o preço?")
    assert pending(asked.state).entity == "symbol_text"
    assert chat.domains.calls == []
    answered = await chat.say("Petrobras")
    assert answered.state.turn.status == RunStatus.COMPLETED, answered.state.turn.answer
    assert chat.domains.calls[-1].parameters["symbol_text"] == "Petrobras"


async def test_a_new_request_drops_the_question(chat: Conversation) -> None:
    await chat.say("converte 100 dólares")
    fresh = await chat.say("qual o preço da Vale?")
    turn = fresh.state.turn
    assert turn.intent is not None and turn.intent.goal == "GET_QUOTE"
    assert turn.status == RunStatus.COMPLETED and fresh.state.question is None
    assert any("abandoned" in note for note in turn.notes)


async def test_two_replies_that_name_nothing_end_with_what_is_needed(chat: Conversation) -> None:
    await chat.say("converte 100 dólares")
    again = await chat.say("sei lá")
    assert again.status == RunStatus.WAITING_INPUT
    assert pending(again.state).attempts == 1
    assert again.state.turn.answer.startswith(
        "Não entendi. Para continuar, preciso saber: a moeda de destino."
    )
    done = await chat.say("tanto faz")
    assert done.state.question is None
    assert done.state.turn.status == RunStatus.COMPLETED
    assert done.state.turn.answer.startswith("Sem a moeda de destino não consigo continuar.")
    assert chat.domains.calls == []


async def test_a_parameter_no_entity_gives_is_named_and_nothing_is_called(chat: Conversation) -> None:
    result = await chat.say("quero ver meu extrato bancário")
    turn = result.state.turn
    assert turn.intent is not None and turn.intent.goal == "GET_STATEMENT"
    assert turn.status == RunStatus.FAILED and result.state.question is None
    assert "account_id" in turn.answer and turn.answer.startswith("Não posso atender a este pedido")
    assert chat.domains.calls == []


async def test_a_waiting_slot_question_survives_the_stored_form(chat: Conversation) -> None:
    asked = await chat.say("converte 100 dólares")
    stored = TurnState.model_validate_json(asked.state.model_dump_json())
    assert stored.question == asked.state.question
    assert TurnState.model_validate({"question": None}).question is None


def test_descriptions_are_read_in_the_persons_language() -> None:
    description = STOCKS["goals"][0]["description"]
    assert describe(description, "en") == "stock price"
    assert describe(description, "pt") == "cotação de uma empresa"
