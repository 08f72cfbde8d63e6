"""Pause/resume, versions, history and fork on every checkpointer (memory, SQLite, PostgreSQL)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from graph import (
    END,
    INPUT,
    START,
    Checkpointer,
    GraphBuilder,
    GraphDefinition,
    GraphEngine,
    GraphRecursionError,
    GraphRuntimeError,
    SessionConflictError,
    SessionNotFoundError,
    SqlCheckpointer,
    StateNotSerializableError,
    append,
)
from shared.status import RunStatus

State = Mapping[str, Any]
CALLS: Counter[str] = Counter()


def intent(state: State) -> dict[str, Any]:
    CALLS["intent"] += 1
    return {
        "candidates": ["NDA-SE.ST", "NDA-FI.HE"],
        "clarification": {"options": ["NDA-SE.ST", "NDA-FI.HE"]},
    }


def needs_person(state: State) -> str:
    return "ask" if len(state["candidates"]) > 1 else "quote"


def understand(state: State) -> str:
    answer = state["messages"][-1]
    if answer in state["candidates"]:
        return "chosen"
    return "fresh"


async def quote(state: State) -> dict[str, Any]:
    CALLS["quote"] += 1
    ticker = state["messages"][-1]
    return {"messages": [f"{ticker}: 42.0"], "answered": ticker}


def turn_graph() -> GraphDefinition:
    return (
        GraphBuilder("turn", reducers={"messages": append})
        .add_node("intent", intent)
        .add_interrupt("ask", question="Which ticker?", payload_key="clarification")
        .add_node("quote", quote)
        .add_conditional_edges("intent", needs_person, ["ask", "quote"])
        .add_conditional_edges("ask", understand, {"chosen": "quote", "fresh": "intent"})
        .add_edge("quote", END)
        .set_entry("intent")
        .compile()
    )


@pytest.fixture(autouse=True)
def _reset_calls() -> None:
    CALLS.clear()


async def test_interrupt_waits_then_resume_continues_without_rerunning(checkpointer: Checkpointer) -> None:
    engine = GraphEngine(turn_graph(), checkpointer)
    first = await engine.run({"messages": ["qual o preço da Nordea?"]}, session_id="s-1")
    assert first.status == RunStatus.WAITING_INPUT
    assert first.interrupt is not None and first.interrupt.name == "ask"
    assert first.interrupt.question == "Which ticker?"
    assert first.interrupt.payload == {"options": ["NDA-SE.ST", "NDA-FI.HE"]}
    assert CALLS == {"intent": 1}

    stored = await engine.get_session("s-1")
    assert stored.session.status == RunStatus.WAITING_INPUT
    assert stored.session.interrupt == {
        "name": "ask",
        "question": "Which ticker?",
        "payload": {"options": ["NDA-SE.ST", "NDA-FI.HE"]},
    }
    assert stored.state == first.state

    # a fresh engine (as on another gateway process) resumes from storage alone
    other = GraphEngine(turn_graph(), checkpointer)
    done = await other.resume("s-1", {"messages": ["NDA-SE.ST"]})
    assert done.status == RunStatus.COMPLETED
    assert done.path == ("ask", "quote")
    assert done.state["messages"] == ["qual o preço da Nordea?", "NDA-SE.ST", "NDA-SE.ST: 42.0"]
    assert CALLS == {"intent": 1, "quote": 1}  # intent did not run again

    with pytest.raises(GraphRuntimeError, match="completed and cannot be resumed"):
        await other.resume("s-1", {"messages": ["again"]})
    with pytest.raises(SessionNotFoundError):
        await other.resume("nope", {})
    with pytest.raises(SessionConflictError):
        await engine.run({"messages": []}, session_id="s-1")


async def test_a_fresh_request_abandons_the_question(checkpointer: Checkpointer) -> None:
    engine = GraphEngine(turn_graph(), checkpointer)
    await engine.run({"messages": ["qual o preço da Nordea?"]}, session_id="s-2")
    again = await engine.resume("s-2", {"messages": ["e a Vale?"]})
    assert again.status == RunStatus.WAITING_INPUT  # routed back to intent, which asks again
    assert again.path == ("ask", "intent")
    assert CALLS == {"intent": 2}


async def test_history_versions_and_fork(checkpointer: Checkpointer) -> None:
    engine = GraphEngine(turn_graph(), checkpointer)
    await engine.run({"messages": ["qual o preço da Nordea?"]}, session_id="s-3")
    await engine.resume("s-3", {"messages": ["NDA-SE.ST"]})

    history = await engine.history("s-3")
    assert [(v.version, v.node) for v in history] == [(0, START), (1, "intent"), (2, "ask"), (3, "quote")]
    assert all(v.delta_bytes > 0 for v in history)
    assert history[0].snapshot and not history[2].snapshot
    assert history[1].created_at <= history[3].created_at

    v1 = await engine.get_version("s-3", 1)
    assert v1["messages"] == ["qual o preço da Nordea?"] and "answered" not in v1
    v3 = await engine.get_version("s-3", 3)
    assert v3["answered"] == "NDA-SE.ST"
    with pytest.raises(SessionNotFoundError):
        await engine.get_version("s-3", 99)

    # time travel: go back to just before the question and answer differently
    fork = await engine.fork("s-3", 1, "s-3b")
    assert fork.status == RunStatus.WAITING_INPUT
    assert fork.interrupt is not None and fork.interrupt["name"] == "ask"
    other = await engine.resume("s-3b", {"messages": ["NDA-FI.HE"]})
    assert other.status == RunStatus.COMPLETED and other.state["answered"] == "NDA-FI.HE"
    assert CALLS == {"intent": 1, "quote": 2}
    assert [v.node for v in await engine.history("s-3b")] == [START, "intent", "ask", "quote"]
    # the original session is untouched
    assert (await engine.get_session("s-3")).state["answered"] == "NDA-SE.ST"


async def test_fork_from_a_finished_step_reruns_the_rest(checkpointer: Checkpointer) -> None:
    def a(state: State) -> dict[str, Any]:
        CALLS["a"] += 1
        return {"log": ["a"]}

    def b(state: State) -> dict[str, Any]:
        CALLS["b"] += 1
        return {"log": ["b"], "extra": state.get("extra")}

    graph = (
        GraphBuilder("ab", reducers={"log": append})
        .add_node("a", a)
        .add_node("b", b)
        .add_edge("a", "b")
        .add_edge("b", END)
        .set_entry("a")
        .compile()
    )
    engine = GraphEngine(graph, checkpointer)
    await engine.run({"log": []}, session_id="ab")
    fork = await engine.fork("ab", 1, "ab-2")
    assert fork.status == RunStatus.PENDING and fork.frontier.next == ("b",)
    result = await engine.resume("ab-2", {"extra": "changed"})
    assert result.state == {"log": ["a", "b"], "extra": "changed"}
    assert CALLS == {"a": 1, "b": 2}
    assert [v.node for v in await engine.history("ab-2")] == [START, "a", INPUT, "b"]


async def test_failed_run_is_recorded_and_can_be_forked(checkpointer: Checkpointer) -> None:
    def flaky(state: State) -> dict[str, Any]:
        if not state.get("fixed"):
            raise RuntimeError("upstream 503")
        return {"ok": True}

    graph = (
        GraphBuilder("flaky")
        .add_node("prep", lambda s: {"prepared": True})
        .add_node("flaky", flaky)
        .add_edge("prep", "flaky")
        .add_edge("flaky", END)
        .set_entry("prep")
        .compile()
    )
    engine = GraphEngine(graph, checkpointer)
    with pytest.raises(RuntimeError, match="upstream 503"):
        await engine.run({}, session_id="f")
    stored = await engine.get_session("f")
    assert stored.session.status == RunStatus.FAILED
    assert stored.session.frontier.next == ("flaky",) and stored.state == {"prepared": True}
    with pytest.raises(GraphRuntimeError, match="failed and cannot be resumed"):
        await engine.resume("f", {})
    await engine.fork("f", 1, "f-retry")
    retried = await engine.resume("f-retry", {"fixed": True})
    assert retried.status == RunStatus.COMPLETED and retried.state["ok"] is True


async def test_step_limit_marks_the_session_failed(checkpointer: Checkpointer) -> None:
    graph = (
        GraphBuilder("spin", max_steps=5)
        .add_node("spin", lambda s: {"n": s.get("n", 0) + 1})
        .add_conditional_edges("spin", lambda s: "again", {"again": "spin", "stop": END})
        .set_entry("spin")
        .compile()
    )
    engine = GraphEngine(graph, checkpointer)
    with pytest.raises(GraphRecursionError, match="max_steps=5"):
        await engine.run({}, session_id="spin")
    stored = await engine.get_session("spin")
    assert stored.session.status == RunStatus.FAILED and stored.state == {"n": 5}


async def test_non_json_state_is_a_clear_error(checkpointer: Checkpointer) -> None:
    graph = (
        GraphBuilder("bad")
        .add_node("n", lambda s: {"when": object()})
        .add_edge("n", END)
        .set_entry("n")
        .compile()
    )
    with pytest.raises(StateNotSerializableError, match="delta of node 'n': key 'when'") as info:
        await GraphEngine(graph, checkpointer).run({}, session_id="bad")
    assert info.value.param == "when"
    with pytest.raises(StateNotSerializableError, match="initial state: key 'x'"):
        await GraphEngine(graph, checkpointer).run({"x": {1, 2}}, session_id="bad-2")


async def test_a_node_may_hand_back_what_it_read(checkpointer: Checkpointer) -> None:
    # the values are read-only views of the state; what is stored (and resumed) is plain data
    graph = (
        GraphBuilder("echo")
        .add_node("copy", lambda s: {"again": s["profile"], "tags": s["tags"], "first": s["tags"][0]})
        .add_interrupt("idle")
        .add_edge("copy", "idle")
        .add_edge("idle", END)
        .set_entry("copy")
        .compile()
    )
    initial = {"profile": {"name": "ana", "langs": ["pt"]}, "tags": [{"t": 1}]}
    paused = await GraphEngine(graph, checkpointer).run(initial, session_id="views")
    assert type(paused.state["again"]) is dict and type(paused.state["tags"]) is list
    assert type(paused.state["first"]) is dict
    stored = await GraphEngine(graph, checkpointer).get_session("views")
    assert stored.state["again"] == {"name": "ana", "langs": ["pt"]} and stored.state["first"] == {"t": 1}


async def test_delete_removes_the_session(checkpointer: Checkpointer) -> None:
    engine = GraphEngine(turn_graph(), checkpointer)
    await engine.run({"messages": ["oi"]}, session_id="del")
    assert await engine.delete("del") is True
    assert await engine.delete("del") is False
    with pytest.raises(SessionNotFoundError):
        await engine.history("del")


async def test_delta_storage_stays_constant_per_version_as_history_grows(tmp_path: Path) -> None:
    """100 conversation turns: each version stores one turn, not the whole message list."""

    def reply(state: State) -> dict[str, Any]:
        return {
            "messages": [{"role": "assistant", "content": f"answer {len(state['messages'])} " + "x" * 80}]
        }

    graph = (
        GraphBuilder("chat", reducers={"messages": append})
        .add_interrupt("wait")
        .add_node("reply", reply)
        .add_edge("wait", "reply")
        .add_edge("reply", "wait")
        .set_entry("wait")
        .compile()
    )
    ck = SqlCheckpointer.from_url(f"sqlite+aiosqlite:///{tmp_path / 'chat.sqlite3'}", snapshot_every=50)
    await ck.create_tables()
    try:
        engine = GraphEngine(graph, ck)
        await engine.run({"messages": []}, session_id="chat")
        for turn in range(100):
            user = {"role": "user", "content": f"question {turn} " + "y" * 80}
            result = await engine.resume("chat", {"messages": [user]})
        assert len(result.state["messages"]) == 200
        history = await engine.history("chat")
        assert len(history) == 201
        deltas = [v.delta_bytes for v in history[1:]]
        early, late = sum(deltas[:20]) / 20, sum(deltas[-20:]) / 20
        assert late < early * 1.2  # ~constant: a full copy would be ~100x larger at the end
        full_state_bytes = len(str(result.state))
        assert max(deltas) < full_state_bytes / 50
        assert [v.version for v in history if v.snapshot] == [0, 50, 100, 150, 200]
        assert await engine.get_version("chat", 137) == await GraphEngine(graph, ck).get_version("chat", 137)
        assert len((await engine.get_version("chat", 137))["messages"]) == 137
    finally:
        await ck.close()


async def test_a_run_in_flight_is_visible_at_its_latest_step(checkpointer: Checkpointer) -> None:
    """Intermediate steps only append versions; readers still see the newest frontier."""
    seen: list[Any] = []
    engine: GraphEngine

    async def peek(state: State) -> dict[str, Any]:
        stored = await engine.get_session("live")
        seen.append(
            (stored.session.status, stored.session.version, stored.session.frontier.next, stored.state)
        )
        return {"peeked": True}

    graph = (
        GraphBuilder("live")
        .add_node("one", lambda s: {"one": 1})
        .add_node("two", lambda s: {"two": 2})
        .add_node("peek", peek)
        .add_edge("one", "two")
        .add_edge("two", "peek")
        .add_edge("peek", END)
        .set_entry("one")
        .compile()
    )
    engine = GraphEngine(graph, checkpointer)
    result = await engine.run({}, session_id="live")
    assert seen == [(RunStatus.EXECUTING, 2, ("peek",), {"one": 1, "two": 2})]
    final = await engine.get_session("live")
    assert final.session.status == RunStatus.COMPLETED and final.session.version == result.version == 3


def six_steps_and_a_question() -> GraphDefinition:
    def step(name: str) -> Any:
        def fn(state: State) -> dict[str, Any]:
            return {"log": [name], "last": name}

        fn.__qualname__ = f"step_{name}"
        return fn

    b = GraphBuilder("durable", reducers={"log": append})
    names = [f"s{i}" for i in range(6)]
    for i, name in enumerate(names):
        b.add_node(name, step(name)).add_edge(name, names[i + 1] if i + 1 < len(names) else "ask")
    return (
        b.add_interrupt("ask")
        .add_node("after", step("after"))
        .add_edge("ask", "after")
        .add_edge("after", END)
        .set_entry("s0")
        .compile()
    )


async def test_async_durability_stores_every_version_by_the_pause(checkpointer: Checkpointer) -> None:
    graph = six_steps_and_a_question()
    engine = GraphEngine(graph, checkpointer, durability="async")
    first = await engine.run({"log": []}, session_id="d")
    assert first.status == RunStatus.WAITING_INPUT
    assert [v.node for v in await engine.history("d")] == [START, *(f"s{i}" for i in range(6))]
    done = await GraphEngine(graph, checkpointer, durability="async").resume("d", {"log": ["answer"]})
    assert done.state["log"] == [*(f"s{i}" for i in range(6)), "answer", "after"]
    assert (await engine.get_session("d")).session.status == RunStatus.COMPLETED


async def test_exit_durability_stores_one_version_per_call(checkpointer: Checkpointer) -> None:
    graph = six_steps_and_a_question()
    names = [f"s{i}" for i in range(6)]
    engine = GraphEngine(graph, checkpointer, durability="exit")
    first = await engine.run({"log": []}, session_id="d")
    assert first.status == RunStatus.WAITING_INPUT and first.version == 1
    history = await engine.history("d")
    assert [(v.version, v.node, v.step_boundary) for v in history] == [
        (0, START, True),
        (1, ">".join(names), True),
    ]
    # the six deltas of the call are squashed: "last" once, the reducer's "log" once per value
    squashed = '[{"log":["s0"]},{"log":["s1"]},{"log":["s2"]},{"log":["s3"]},{"log":["s4"]},'
    assert history[1].delta_bytes == len(squashed + '{"log":["s5"],"last":"s5"}]')
    done = await GraphEngine(graph, checkpointer, durability="exit").resume("d", {"log": ["answer"]})
    assert done.state["log"] == [*names, "answer", "after"] and done.state["last"] == "after"
    assert done.version == 2 and done.path == ("ask", "after")
    assert [v.node for v in await engine.history("d")] == [START, ">".join(names), "ask>after"]
    # time travel steps from call to call: version 1 is the state at the question
    assert (await engine.get_version("d", 1))["log"] == names
    fork = await engine.fork("d", 1, "d-again")
    assert fork.status == RunStatus.WAITING_INPUT and fork.version == 1
    other = await engine.resume("d-again", {"log": ["other"]})
    assert other.state["log"] == [*names, "other", "after"] and other.version == 2


async def test_exit_durability_folds_to_the_state_every_step_would(checkpointer: Checkpointer) -> None:
    """The one version of a call rebuilds the very state the per-step versions do."""
    graph = six_steps_and_a_question()
    per_call = GraphEngine(graph, checkpointer, durability="exit")
    per_step = GraphEngine(graph, checkpointer, durability="sync")
    for engine, sid in ((per_call, "call"), (per_step, "step")):
        await engine.run({"log": ["start"]}, session_id=sid)
        await engine.resume(sid, {"log": ["answer"]})
    # read back from the store by an engine that kept no state of its own
    reader = GraphEngine(graph, checkpointer)
    call, step = await reader.get_session("call"), await reader.get_session("step")
    assert call.state == step.state and call.state["log"][-2:] == ["answer", "after"]
    assert len(await reader.history("call")) == 3 and len(await reader.history("step")) == 9


async def test_a_call_that_fails_stores_the_steps_before_the_failing_one(checkpointer: Checkpointer) -> None:
    def boom(state: State) -> dict[str, Any]:
        raise RuntimeError("node failed")

    graph = (
        GraphBuilder("fails", reducers={"log": append})
        .add_interrupt("idle")
        .add_node("one", lambda s: {"log": ["one"]})
        .add_node("boom", boom)
        .add_edge("idle", "one")
        .add_edge("one", "boom")
        .add_edge("boom", "idle")
        .set_entry("idle")
        .compile()
    )
    engine = GraphEngine(graph, checkpointer, durability="exit")
    await engine.run({"log": []}, session_id="f")
    with pytest.raises(RuntimeError, match="node failed"):
        await engine.resume("f", {"log": ["hi"]})
    session = (await engine.get_session("f")).session
    assert session.status == RunStatus.FAILED and session.version == 1
    assert session.frontier.next == ("boom",)  # forkable at the failing step, nothing of it stored
    assert [v.node for v in await engine.history("f")] == [START, "idle>one"]
    assert (await GraphEngine(graph, checkpointer).get_version("f", 1))["log"] == ["hi", "one"]
