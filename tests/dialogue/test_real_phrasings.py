"""Whole turns on phrasings people really use: a verb the goal does not do is named in the
answer, and an elliptical "e ontem?" is no company name."""

from __future__ import annotations

from dialogue.state import TurnState
from shared.status import RunStatus
from tests.dialogue.test_graph import Conversation
from tests.dialogue.test_slots import chat, slot_adapter

__all__ = ["chat", "slot_adapter"]  # the fixtures this module uses


def calls_with(chat: Conversation, param: str) -> list[object]:
    return [c.parameters.get(param) for c in chat.domains.calls]


async def test_an_unsupported_verb_is_said_and_the_quote_offered(chat: Conversation) -> None:
    # (the small catalog here knows "ação"; the shipped one is tested through the gateway)
    result = await chat.say("compra a ação da Petrobras")
    turn = result.state.turn
    assert turn.status == RunStatus.COMPLETED, turn.answer
    assert calls_with(chat, "symbol_text") == ["Petrobras"]
    first, rest = turn.answer.split("\n", 1)
    assert first == "Não sei fazer isto (“compra”); o que posso fazer é: cotação de uma empresa."
    assert rest == "Petrobras: 20.00"


async def test_an_action_on_an_amount_runs_nothing(chat: Conversation) -> None:
    result = await chat.say("compra 50 ação da Petrobras")
    turn = result.state.turn
    assert turn.status == RunStatus.COMPLETED, turn.answer
    assert chat.domains.calls == []  # no quote run as if it had been asked for
    assert turn.answer == "Não sei fazer isto (“compra”); o que posso fazer é: cotação de uma empresa."
    assert turn.intent is not None and turn.intent.goal is None
    # what is offered runs when it is asked for
    await chat.say("cotação da Petrobras")
    assert calls_with(chat, "symbol_text") == ["Petrobras"]


async def test_the_same_in_english(chat: Conversation) -> None:
    result = await chat.say("buy the Apple stock")
    assert result.state.turn.answer.startswith("I can't do that (“buy”); what I can do is: stock price.")
    assert calls_with(chat, "symbol_text") == ["Apple"]
    refused = await chat.say("sell 10 of the Apple stock")
    assert refused.state.turn.answer == "I can't do that (“sell”); what I can do is: stock price."
    assert calls_with(chat, "symbol_text") == ["Apple"]  # the first request's quote only


async def test_a_polite_paragraph_runs_one_quote(chat: Conversation) -> None:
    text = (
        "Olá, bom dia! Desculpe o incômodo, estou pensando em investir e queria saber, "
        "se não for pedir demais, qual é o preço da Petrobras hoje?"
    )
    result = await chat.say(text)
    assert result.state.turn.status == RunStatus.COMPLETED, result.state.turn.answer
    assert calls_with(chat, "symbol_text") == ["Petrobras"]


async def test_e_ontem_is_not_a_company(chat: Conversation) -> None:
    await chat.say("qual o preço da Petrobras?")
    later: TurnState = (await chat.say("e ontem?")).state
    assert "ontem" not in calls_with(chat, "symbol_text")
    assert later.turn.intent is None or later.turn.intent.entities.get("symbol_text") != "ontem"
