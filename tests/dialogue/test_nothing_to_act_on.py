"""A request to change something that names nothing of it ("quero cancelar uma visita") is asked
what it is about before the yes is asked for; a reply naming any of the goal's values fills it,
and only then the approval is asked. A request that names it goes to the approval at once."""

from __future__ import annotations

from dialogue.state import TurnState
from shared.models import ApprovalQuestion, SlotQuestion
from shared.status import RunStatus
from tests.dialogue.conftest import VISITS as VISITS  # test_send_the_last_answer imports it from here
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
