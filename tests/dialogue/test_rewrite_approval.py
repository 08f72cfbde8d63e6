"""A plan the LLM wrote, rewritten after a failure with a value the person did not say for a step
that changes something (a send: not idempotent): whole turns through ConversationGraph with the
real classifier and planners, the fake remote domains, and a scripted OpenAI-compatible server on
loopback (the LLM, the only thing faked). The person is asked, naming the value; a yes runs the
rewritten plan (what ran kept), a no ends it with nothing of it called."""

from __future__ import annotations

import copy
import itertools
from collections.abc import Iterator
from typing import Any

import pytest

from dialogue.state import TurnState
from graph import GraphEngine, GraphResult, InMemoryCheckpointer, SessionNotFoundError
from intent.embedded import EmbeddedIntentAdapter
from sdk.service import fail
from shared.catalog import Catalog
from shared.manifest import validate_manifest
from shared.models import ApprovalQuestion, DomainOutput, EntryRequest, ExecutionIntent
from shared.status import RunStatus
from tests.dialogue.conftest import COACH, NOTIFIER, STOCKS, FakeDomains, conversation_graph, quote
from tests.dialogue.test_llm_after_planner_error import COMPARE, TEXT, llm_planner
from tests.planner.scripted_llm import ScriptedLlm, ToolCall, serve


def sending_notifier() -> dict[str, Any]:
    """The notifier, whose send is not idempotent (sending twice sends two messages)."""
    manifest = copy.deepcopy(NOTIFIER)
    manifest["capabilities"][0]["metadata"] = {"policy": {"idempotent": False}}
    return manifest


CATALOG = Catalog([validate_manifest(m) for m in (STOCKS, sending_notifier(), COACH, COMPARE)])
PLAN = {
    "steps": [
        {"id": 1, "domain": "stocks", "capability": "get_quote", "params": {"symbol_text": "Petrobras"}},
        {"id": 2, "domain": "stocks", "capability": "get_quote", "params": {"symbol_text": "Valle"}},
        {
            "id": 3,
            "domain": "notifier",
            "capability": "send_message",
            "params": {"message": "${2.explanation}"},
        },
    ],
    "combine_mode": "last",
}
#: The rest of the plan: the quote again, and the send to a chat nobody named.
REWRITE = {
    "steps": [
        {"id": 4, "domain": "stocks", "capability": "get_quote", "params": {"symbol_text": "Vale"}},
        {
            "id": 5,
            "domain": "notifier",
            "capability": "send_message",
            "params": {"message": "${4.explanation}", "chat": "@vale_fans"},
        },
    ]
}


def typo(intent: ExecutionIntent) -> DomainOutput:
    if intent.parameters.get("symbol_text") == "Valle":
        return fail("Não encontrei 'Valle'.", "symbol_not_found", recoverable=True)
    return quote(intent)


@pytest.fixture(scope="module")
def adapter() -> EmbeddedIntentAdapter:
    return EmbeddedIntentAdapter(CATALOG, use_embeddings=False)


@pytest.fixture
def llm() -> Iterator[ScriptedLlm]:
    with serve(ScriptedLlm(by_text={TEXT: [ToolCall(PLAN), ToolCall(REWRITE)]})) as server:
        yield server
    assert server.wire_errors == []


class Conversation:
    """One session over the LLM planner, message by message, as the gateway drives it."""

    def __init__(self, adapter: EmbeddedIntentAdapter, llm: ScriptedLlm):
        self.domains = FakeDomains(replies={"get_quote": typo})
        self.graph = conversation_graph(adapter, CATALOG, self.domains, llm_planner(llm.base_url))
        self.engine: GraphEngine[TurnState] = GraphEngine(self.graph.definition(), InMemoryCheckpointer())
        self.runs = itertools.count(1)

    async def say(self, text: str) -> TurnState:
        entry = EntryRequest(session_id="s1", input_text=text)
        run_id = f"run-{next(self.runs)}"
        result: GraphResult[TurnState]
        try:
            result = await self.engine.resume("s1", self.graph.message(entry, run_id))
        except SessionNotFoundError:
            result = await self.engine.run(self.graph.first_state(entry, run_id), session_id="s1")
        return result.state

    def sent(self) -> list[dict[str, Any]]:
        return [c.parameters for c in self.domains.calls if c.capability == "send_message"]

    def quoted(self) -> list[str]:
        return [c.parameters["symbol_text"] for c in self.domains.calls if c.capability == "get_quote"]


async def asked(chat: Conversation) -> ApprovalQuestion:
    state = await chat.say(TEXT)
    question = state.question
    assert isinstance(question, ApprovalQuestion), state.turn.answer
    assert state.turn.status == RunStatus.WAITING_INPUT
    assert state.turn.answer.startswith(
        "Não deu certo: Não encontrei 'Valle'. Para seguir, o novo plano usa “@vale_fans” para chat, "
        "que você não disse. Próximo passo: "
    ), state.turn.answer
    assert question.steps == [5]
    assert chat.sent() == [] and sorted(chat.quoted()) == ["Petrobras", "Valle"]
    return question


async def test_the_yes_runs_the_rewritten_plan(adapter: EmbeddedIntentAdapter, llm: ScriptedLlm) -> None:
    chat = Conversation(adapter, llm)
    await asked(chat)
    done = await chat.say("sim")
    assert done.turn.status == RunStatus.COMPLETED, done.turn.answer
    assert sorted(chat.quoted()) == ["Petrobras", "Vale", "Valle"]  # what ran is not called again
    assert chat.sent() == [{"message": "Vale: 20.00", "chat": "@vale_fans"}]


async def test_the_no_ends_it_with_nothing_of_it_called(
    adapter: EmbeddedIntentAdapter, llm: ScriptedLlm
) -> None:
    chat = Conversation(adapter, llm)
    await asked(chat)
    calls = len(chat.domains.calls)
    declined = await chat.say("não")
    assert declined.turn.status == RunStatus.CANCELLED, declined.turn.answer
    assert len(chat.domains.calls) == calls and chat.sent() == []
