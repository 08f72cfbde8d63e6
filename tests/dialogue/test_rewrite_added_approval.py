"""A rewrite that adds a send nobody asked for is asked about, naming the action; the trace keeps
the plan that ran and the held one apart (``RunResult.held_plan``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from intent.embedded import EmbeddedIntentAdapter
from shared.models import ApprovalQuestion
from shared.status import RunStatus
from tests.dialogue.test_llm_after_planner_error import TEXT
from tests.dialogue.test_rewrite_approval import CATALOG, PLAN, REWRITE, Conversation
from tests.planner.scripted_llm import ScriptedLlm, ToolCall, serve

QUOTES = {"steps": PLAN["steps"][:2], "combine_mode": "report"}


@pytest.fixture(scope="module")
def adapter() -> EmbeddedIntentAdapter:
    return EmbeddedIntentAdapter(CATALOG, use_embeddings=False)


@pytest.fixture
def llm() -> Iterator[ScriptedLlm]:
    with serve(ScriptedLlm(by_text={TEXT: [ToolCall(QUOTES), ToolCall(REWRITE)]})) as server:
        yield server


async def test_an_added_send_is_named_and_the_trace_shows_the_held_plan(
    adapter: EmbeddedIntentAdapter, llm: ScriptedLlm
) -> None:
    chat = Conversation(adapter, llm)
    state = await chat.say(TEXT)
    assert isinstance(state.question, ApprovalQuestion), state.turn.answer
    assert "o novo plano acrescenta o que você não pediu: " in state.turn.answer
    assert state.question.steps == [5]
    trace = state.run_result()
    assert trace.plan is not None and [s.id for s in trace.plan.steps] == [1, 2]
    assert trace.held_plan is not None and [s.id for s in trace.held_plan.steps] == [1, 2, 4, 5]
    assert chat.sent() == []
    done = await chat.say("sim")
    assert done.turn.status == RunStatus.COMPLETED, done.turn.answer
    assert done.run_result().held_plan is None
    assert len(chat.sent()) == 1
