"""A graph whose state is a frozen pydantic model: typed deltas in memory, JSON only at the checkpoint."""

from __future__ import annotations

from typing import Any, Literal

import pytest
from pydantic import BaseModel, ConfigDict, model_validator

from graph import (
    END,
    Checkpointer,
    GraphBuilder,
    GraphDefinition,
    GraphEngine,
    GraphRuntimeError,
    InMemoryCheckpointer,
    StateNotSerializableError,
    append,
    run,
)
from shared.status import RunStatus

VALIDATIONS: list[str] = []


class Message(BaseModel):
    model_config = ConfigDict(frozen=True)
    role: Literal["user", "assistant"]
    text: str


class Question(BaseModel):
    model_config = ConfigDict(frozen=True)
    text: str
    options: list[str]


class Turn(BaseModel):
    model_config = ConfigDict(frozen=True)
    messages: list[Message] = []
    question: Question | None = None
    answered: str | None = None
    tries: int = 0
    scratch: Any = None

    @model_validator(mode="before")
    @classmethod
    def _count(cls, data: Any) -> Any:
        VALIDATIONS.append("turn")
        return data


@pytest.fixture(autouse=True)
def _reset() -> None:
    VALIDATIONS.clear()


def ask_which(state: Turn) -> dict[str, Any]:
    question = Question(text=f"Which ticker for {state.messages[-1].text!r}?", options=["VALE3", "VALE"])
    return {"question": question, "tries": state.tries + 1}


def understand(state: Turn) -> str:
    return (
        "chosen" if state.messages[-1].text in (state.question.options if state.question else []) else "fresh"
    )


async def quote(state: Turn) -> dict[str, Any]:
    ticker = state.messages[-1].text
    return {"messages": [Message(role="assistant", text=f"{ticker}: 61.2")], "answered": ticker}


def turn_graph() -> GraphDefinition[Turn]:
    return (
        GraphBuilder("typed-turn", state_schema=Turn, reducers={"messages": append})
        .add_node("intent", ask_which)
        .add_interrupt("ask", question="Which one?", payload_key="question")
        .add_node("quote", quote)
        .add_edge("intent", "ask")
        .add_conditional_edges("ask", understand, {"chosen": "quote", "fresh": "intent"})
        .add_edge("quote", END)
        .set_entry("intent")
        .compile()
    )


def user(text: str) -> Message:
    return Message(role="user", text=text)


async def test_a_delta_is_folded_without_copying_or_revalidating_its_values() -> None:
    sent = Message(role="assistant", text="olá")

    def reply(state: Turn) -> dict[str, Any]:
        assert isinstance(state, Turn)  # nodes get the model itself
        return {"messages": [sent], "tries": state.tries + 1}

    graph = (
        GraphBuilder("reply", state_schema=Turn, reducers={"messages": append})
        .add_node("reply", reply)
        .add_edge("reply", END)
        .set_entry("reply")
        .compile()
    )
    start = Turn(messages=[user("oi")])
    VALIDATIONS.clear()
    result = await run(graph, start)
    assert isinstance(result.state, Turn)
    assert [m.text for m in result.state.messages] == ["oi", "olá"] and result.state.tries == 1
    assert result.state.messages[-1] is sent  # folded as is: no copy, no validation
    assert VALIDATIONS == []
    assert start.messages == [user("oi")] and start.tries == 0  # the older state is untouched


async def test_a_mapping_initial_state_is_validated_once_and_a_bad_one_is_refused() -> None:
    graph = (
        GraphBuilder("n", state_schema=Turn)
        .add_node("n", lambda s: {"tries": s.tries + 1})
        .add_edge("n", END)
        .set_entry("n")
        .compile()
    )
    result = await run(graph, {"messages": [{"role": "user", "text": "oi"}]})
    assert result.state.messages == [user("oi")] and VALIDATIONS == ["turn"]
    with pytest.raises(GraphRuntimeError, match="initial state is not a valid Turn"):
        await run(graph, {"tries": "many"})
    with pytest.raises(GraphRuntimeError, match="initial state must be a Turn or a mapping"):
        await run(graph, ["not", "a", "state"])  # type: ignore[misc]


@pytest.mark.parametrize("stored", [False, True], ids=["in-memory", "checkpointed"])
async def test_an_unknown_field_names_the_node_and_the_field(stored: bool) -> None:
    graph = (
        GraphBuilder("typo", state_schema=Turn)
        .add_node("remember", lambda s: {"answerd": "VALE3"})
        .add_edge("remember", END)
        .set_entry("remember")
        .compile()
    )
    engine = GraphEngine(graph, InMemoryCheckpointer() if stored else None)
    with pytest.raises(
        GraphRuntimeError, match="delta of node 'remember': unknown field 'answerd' of Turn"
    ) as info:
        await engine.run(Turn())
    assert info.value.param == "answerd"


async def test_a_value_pydantic_cannot_serialise_names_its_field() -> None:
    graph = (
        GraphBuilder("bad", state_schema=Turn)
        .add_node("n", lambda s: {"scratch": object()})
        .add_edge("n", END)
        .set_entry("n")
        .compile()
    )
    with pytest.raises(StateNotSerializableError, match="delta of node 'n': key 'scratch'") as info:
        await GraphEngine(graph, InMemoryCheckpointer()).run(Turn(), session_id="bad")
    assert info.value.param == "scratch"
    with pytest.raises(StateNotSerializableError, match="initial state: key 'scratch'"):
        await GraphEngine(graph, InMemoryCheckpointer()).run(Turn(scratch={1, object()}), session_id="bad")
    # without a checkpointer nothing is encoded, so any value is fine in memory
    assert (await run(graph, Turn())).state.scratch is not None


async def test_pause_reload_and_resume_round_trip_through_the_checkpoint(checkpointer: Checkpointer) -> None:
    engine = GraphEngine(turn_graph(), checkpointer)
    first = await engine.run(Turn(messages=[user("vale")]), session_id="t-1")
    assert first.status == RunStatus.WAITING_INPUT and first.interrupt is not None
    assert first.interrupt.payload == Question(text="Which ticker for 'vale'?", options=["VALE3", "VALE"])
    stored = await engine.get_session("t-1")
    assert stored.session.interrupt == {
        "name": "ask",
        "question": "Which one?",
        "payload": {"text": "Which ticker for 'vale'?", "options": ["VALE3", "VALE"]},
    }
    assert isinstance(stored.state, Turn) and stored.state == first.state

    VALIDATIONS.clear()
    other = GraphEngine(turn_graph(), checkpointer)  # another process: state comes from storage alone
    done = await other.resume("t-1", {"messages": [user("VALE3")]})
    assert VALIDATIONS == ["turn"]  # the stored JSON is validated once, steps fold typed values
    assert done.status == RunStatus.COMPLETED and done.path == ("ask", "quote")
    assert isinstance(done.state.question, Question)
    assert [m.text for m in done.state.messages] == ["vale", "VALE3", "VALE3: 61.2"]
    assert all(isinstance(m, Message) for m in done.state.messages)
    assert done.state.answered == "VALE3"
    assert (await GraphEngine(turn_graph(), checkpointer).get_session("t-1")).state == done.state


async def test_the_engine_keeps_the_typed_state_between_turns(checkpointer: Checkpointer) -> None:
    chat = (
        GraphBuilder("typed-chat", state_schema=Turn, reducers={"messages": append})
        .add_interrupt("wait")
        .add_node("reply", lambda s: {"messages": [Message(role="assistant", text=f"#{len(s.messages)}")]})
        .add_edge("wait", "reply")
        .add_edge("reply", "wait")
        .set_entry("wait")
        .compile()
    )
    engine = GraphEngine(chat, checkpointer)
    await engine.run(Turn(), session_id="chat")
    VALIDATIONS.clear()
    for turn in range(5):
        result = await engine.resume("chat", {"messages": [user(f"q{turn}")]})
    assert len(result.state.messages) == 10
    # at most one validation per turn (a store handing back new records); none when it hands back ours
    assert len(VALIDATIONS) <= 5


async def test_history_get_version_and_fork_are_typed(checkpointer: Checkpointer) -> None:
    engine = GraphEngine(turn_graph(), checkpointer)
    await engine.run(Turn(messages=[user("vale")]), session_id="t-3")
    await engine.resume("t-3", {"messages": [user("VALE3")]})

    v1 = await engine.get_version("t-3", 1)
    assert isinstance(v1, Turn) and v1.question is not None and v1.answered is None
    v3 = await engine.get_version("t-3", 3)
    assert v3.answered == "VALE3" and isinstance(v3.messages[-1], Message)

    fork = await engine.fork("t-3", 1, "t-3b")
    assert fork.status == RunStatus.WAITING_INPUT
    assert fork.interrupt is not None and fork.interrupt["payload"]["options"] == ["VALE3", "VALE"]
    other = await engine.resume("t-3b", {"messages": [user("VALE")]})
    assert other.state.answered == "VALE"
    assert (await engine.get_session("t-3")).state.answered == "VALE3"


async def test_a_fresh_request_at_the_question_loops_back_with_typed_state(
    checkpointer: Checkpointer,
) -> None:
    engine = GraphEngine(turn_graph(), checkpointer, durability="exit")
    await engine.run(Turn(messages=[user("vale")]), session_id="t-4")
    again = await engine.resume("t-4", {"messages": [user("e a petrobras?")]})
    assert again.status == RunStatus.WAITING_INPUT and again.path == ("ask", "intent")
    assert again.state.tries == 2 and again.interrupt is not None
    assert again.interrupt.payload.text == "Which ticker for 'e a petrobras?'?"


async def test_fan_out_folds_typed_deltas_in_declared_order(checkpointer: Checkpointer) -> None:
    async def left(state: Turn) -> dict[str, Any]:
        return {"messages": [Message(role="assistant", text="left")]}

    async def right(state: Turn) -> dict[str, Any]:
        return {"messages": [Message(role="assistant", text="right")], "tries": 7}

    graph = (
        GraphBuilder("typed-fan", state_schema=Turn, reducers={"messages": append})
        .add_node("start", lambda s: None)
        .add_node("left", left)
        .add_node("right", right)
        .add_node("join", lambda s: {"answered": "+".join(m.text for m in s.messages)})
        .add_edge("start", ["left", "right"])
        .add_edge(["left", "right"], "join")
        .add_edge("join", END)
        .set_entry("start")
        .compile()
    )
    engine = GraphEngine(graph, checkpointer, durability="async")
    result = await engine.run(Turn(), session_id="fan")
    assert result.state.answered == "left+right" and result.state.tries == 7
    assert await GraphEngine(graph, checkpointer).get_version("fan", result.version) == result.state


async def test_a_node_returning_the_whole_state_is_told_to_return_a_delta() -> None:
    graph = (
        GraphBuilder("whole", state_schema=Turn)
        .add_node("n", lambda s: s.model_copy(update={"tries": 1}))
        .add_edge("n", END)
        .set_entry("n")
        .compile()
    )
    with pytest.raises(GraphRuntimeError, match="node 'n' returned Turn; a node returns a dict delta"):
        await run(graph, Turn())
