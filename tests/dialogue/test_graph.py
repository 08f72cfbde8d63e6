"""Whole turns: ConversationGraph driven by the graph engine over a checkpointer, the real
classifier and planner, and the fake remote domains."""

from __future__ import annotations

import itertools

import pytest

from dialogue.state import TurnState
from graph import GraphEngine, GraphResult, InMemoryCheckpointer, SessionNotFoundError
from intent.embedded import EmbeddedIntentAdapter
from shared.catalog import Catalog
from shared.models import ClarificationQuestion, ConfirmationQuestion, EntryRequest
from shared.status import RunStatus
from tests.dialogue.conftest import FakeDomains, conversation_graph


class Conversation:
    """One session, message by message, as the gateway drives it."""

    def __init__(self, adapter: EmbeddedIntentAdapter, catalog: Catalog, domains: FakeDomains):
        self.domains = domains
        self.checkpointer = InMemoryCheckpointer()
        self.graph = conversation_graph(adapter, catalog, domains)
        self.engine: GraphEngine[TurnState] = GraphEngine(self.graph.definition(), self.checkpointer)
        self.runs = itertools.count(1)

    async def say(self, text: str, session: str = "s1") -> GraphResult[TurnState]:
        entry = EntryRequest(session_id=session, input_text=text)
        run_id = f"run-{next(self.runs)}"
        try:
            return await self.engine.resume(session, self.graph.message(entry, run_id))
        except SessionNotFoundError:
            return await self.engine.run(self.graph.first_state(entry, run_id), session_id=session)


@pytest.fixture
def chat(adapter: EmbeddedIntentAdapter, catalog: Catalog, domains: FakeDomains) -> Conversation:
    return Conversation(adapter, catalog, domains)


async def test_a_clarification_pauses_the_turn_and_the_answer_resumes_it(chat: Conversation) -> None:
    asked = await chat.say("qual o preço da Nordea?")
    assert asked.status == RunStatus.WAITING_INPUT and asked.next == ("ask",)
    question = asked.state.question
    assert isinstance(question, ClarificationQuestion) and question.resume.param == "symbol"
    assert asked.state.turn.answer.splitlines()[1:3] == [
        "1. Nordea (Stockholm) — NDA-SE.ST",
        "2. Nordea (Helsinki) — NDA-FI.HE",
    ]
    run = asked.state.run_result()
    assert run.status == RunStatus.WAITING_INPUT and run.question == question and run.event_id == "evt-0002"

    answered = await chat.say("a finlandesa")
    assert answered.state.turn.status == RunStatus.COMPLETED, answered.state.turn.answer
    assert answered.state.question is None
    assert chat.domains.calls[-1].parameters["symbol"] == "NDA-FI.HE"
    assert answered.state.turn.answer == "NDA-FI.HE: 10.00"
    assert [m.event_id for m in answered.state.messages] == ["evt-0001", "evt-0002", "evt-0003", "evt-0004"]
    assert answered.state.memory.last_answer == "NDA-FI.HE: 10.00"


async def test_a_new_request_abandons_the_question(chat: Conversation) -> None:
    await chat.say("qual o preço da Nordea?")
    fresh = await chat.say("quais as maiores altas da bolsa?")
    turn = fresh.state.turn
    assert turn.intent is not None and turn.intent.goal == "TOP_GAINERS"
    assert turn.status == RunStatus.COMPLETED and fresh.state.question is None
    assert any("abandoned" in note for note in turn.notes)


async def test_follow_ups_and_a_resend_use_the_session_memory(chat: Conversation) -> None:
    await chat.say("cotação da Petrobras")
    follow = await chat.say("e a Vale?")
    assert follow.state.turn.intent is not None and follow.state.turn.intent.goal == "GET_QUOTE"
    assert chat.domains.calls[-1].parameters["symbol_text"] in ("Vale", ["Vale"])
    last_answer = follow.state.turn.answer

    sent = await chat.say("manda isso no telegram")
    assert sent.state.turn.status == RunStatus.COMPLETED, sent.state.turn.answer
    call = chat.domains.calls[-1]
    assert (call.domain, call.capability, call.parameters) == (
        "notifier",
        "send_message",
        {"message": last_answer},
    )


async def test_the_gate_waits_for_a_yes_before_anything_runs(
    adapter: EmbeddedIntentAdapter, catalog: Catalog
) -> None:
    chat = Conversation(adapter, catalog, FakeDomains(threshold=1.01))  # every goal is uncertain
    asked = await chat.say("cotação da Vale")
    assert isinstance(asked.state.question, ConfirmationQuestion)
    assert asked.state.question.options[0].goal == "GET_QUOTE"
    assert asked.state.turn.steps == [] and chat.domains.calls == []

    done = await chat.say("sim")
    assert done.state.turn.status == RunStatus.COMPLETED
    assert [c.capability for c in chat.domains.calls] == ["get_quote"]


async def test_a_domain_conversation_goes_on_until_the_domain_is_done(chat: Conversation) -> None:
    started = await chat.say("quero discutir uma ideia de pesquisa")
    assert isinstance(started.state.question, ClarificationQuestion)
    going = await chat.say("sobre sono e memória")
    assert going.status == RunStatus.WAITING_INPUT
    assert chat.domains.calls[-1].capability == "chat_reply"
    assert chat.domains.calls[-1].parameters == {"reply": "sobre sono e memória"}
    done = await chat.say("pronto")
    assert done.state.turn.answer == "Resumo da sua ideia." and done.state.question is None


async def test_the_stored_state_reads_back_as_the_same_typed_state(chat: Conversation) -> None:
    await chat.say("cotação da Petrobras")
    asked = await chat.say("qual o preço da Nordea?")
    # a second engine on the same store has nothing in memory: it folds the stored JSON
    cold = GraphEngine(chat.graph.definition(), chat.checkpointer)
    stored = await cold.get_session("s1")
    assert stored.state == asked.state
    assert isinstance(stored.state.question, ClarificationQuestion)


async def test_a_reply_to_the_gate_that_names_an_entity_confirms_with_it(
    adapter: EmbeddedIntentAdapter, catalog: Catalog
) -> None:
    chat = Conversation(adapter, catalog, FakeDomains(threshold=1.01))  # every goal is uncertain
    asked = await chat.say("qual a cotação?")
    assert isinstance(asked.state.question, ConfirmationQuestion)
    done = await chat.say("da Vale")  # no "sim": the detail it adds is the answer
    assert done.state.turn.status == RunStatus.COMPLETED, done.state.turn.answer
    assert [c.capability for c in chat.domains.calls] == ["get_quote"]
    assert done.state.turn.intent is not None and done.state.turn.intent.entities.get("symbol_text") == "Vale"
