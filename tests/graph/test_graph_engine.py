"""The execution loop in memory: routing, loops, fan-out/join, runtime errors, the step limit."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

import pytest

from graph import (
    END,
    GraphBuilder,
    GraphEngine,
    GraphRecursionError,
    GraphRuntimeError,
    append,
    run,
)
from shared.status import RunStatus

State = Mapping[str, Any]


def increment(state: State) -> dict[str, Any]:
    return {"n": state["n"] + 1, "trail": [state["n"]]}


def until_three(state: State) -> str:
    return "done" if state["n"] >= 3 else "again"


def loop_graph(max_steps: int = 100) -> Any:
    return (
        GraphBuilder("loop", reducers={"trail": append}, max_steps=max_steps)
        .add_node("inc", increment)
        .add_conditional_edges("inc", until_three, {"again": "inc", "done": END})
        .set_entry("inc")
        .compile()
    )


async def test_loop_exits_when_the_router_says_so() -> None:
    result = await run(loop_graph(), {"n": 0})
    assert result.status == RunStatus.COMPLETED
    assert result.state == {"n": 3, "trail": [0, 1, 2]}
    assert result.path == ("inc", "inc", "inc")
    assert result.version == 3 and result.steps == 3


async def test_conditional_routing_picks_the_branch() -> None:
    def classify(state: State) -> dict[str, Any]:
        return {"kind": "quote" if "preço" in state["text"] else "chat"}

    def quote(state: State) -> dict[str, Any]:
        return {"answer": "R$ 10"}

    async def chat(state: State) -> dict[str, Any]:
        return {"answer": "olá"}

    graph = (
        GraphBuilder("route")
        .add_node("classify", classify)
        .add_node("quote", quote)
        .add_node("chat", chat)
        .add_conditional_edges("classify", lambda s: s["kind"], ["quote", "chat"])
        .add_edge("quote", END)
        .add_edge("chat", END)
        .set_entry("classify")
        .compile()
    )
    assert (await run(graph, {"text": "qual o preço da Vale?"})).path == ("classify", "quote")
    result = await run(graph, {"text": "oi"})
    assert result.path == ("classify", "chat") and result.state["answer"] == "olá"


async def test_step_limit_names_the_limit_and_the_last_nodes() -> None:
    def forever(state: State) -> str:
        return "again"

    graph = (
        GraphBuilder("runaway")
        .add_node("spin", increment)
        .add_conditional_edges("spin", forever, {"again": "spin", "done": END})
        .set_entry("spin")
        .compile()
    )
    with pytest.raises(GraphRecursionError) as info:
        await run(graph, {"n": 0}, max_steps=7)
    assert isinstance(info.value, GraphRuntimeError)
    assert info.value.limit == 7
    assert "max_steps=7" in str(info.value) and "spin -> spin" in str(info.value)
    # the same graph with an exit condition finishes under the default limit
    assert (await run(loop_graph(), {"n": 0})).status == RunStatus.COMPLETED


async def test_router_returning_an_unknown_label_is_a_runtime_error() -> None:
    graph = (
        GraphBuilder("bad-router")
        .add_node("inc", increment)
        .add_conditional_edges("inc", lambda s: "sideways", {"again": "inc", "done": END})
        .set_entry("inc")
        .compile()
    )
    with pytest.raises(GraphRuntimeError, match="returned 'sideways'") as info:
        await run(graph, {"n": 0})
    assert info.value.details == {"label": "sideways", "labels": ["again", "done"]}


async def test_node_returning_a_non_dict_is_a_runtime_error() -> None:
    graph = (
        GraphBuilder("bad-node").add_node("x", lambda s: ["oops"]).add_edge("x", END).set_entry("x").compile()
    )
    with pytest.raises(GraphRuntimeError, match="node 'x' returned list"):
        await run(graph, {})


async def test_node_exceptions_propagate_unchanged() -> None:
    class Boom(Exception):
        pass

    def explode(state: State) -> dict[str, Any]:
        raise Boom("domain down")

    graph = (
        GraphBuilder("boom")
        .add_node("explode", explode)
        .add_edge("explode", END)
        .set_entry("explode")
        .compile()
    )
    with pytest.raises(Boom, match="domain down"):
        await run(graph, {})


async def test_fan_out_runs_concurrently_and_merges_in_declared_order() -> None:
    c_started = asyncio.Event()
    finished: list[str] = []

    async def b(state: State) -> dict[str, Any]:
        await c_started.wait()  # would deadlock if branches ran one after the other
        finished.append("b")
        return {"hits": ["b"], "who": "b"}

    async def c(state: State) -> dict[str, Any]:
        c_started.set()
        finished.append("c")
        return {"hits": ["c"], "who": "c"}

    joined: list[list[str]] = []

    def join(state: State) -> dict[str, Any]:
        joined.append(list(state["hits"]))
        return {"joined": True}

    graph = (
        GraphBuilder("fan", reducers={"hits": append})
        .add_node("start", lambda s: None)
        .add_node("b", b)
        .add_node("c", c)
        .add_node("join", join)
        .add_edge("start", ["b", "c"])
        .add_edge("b", "join")
        .add_edge("c", "join")
        .add_edge("join", END)
        .set_entry("start")
        .compile()
    )
    result = await asyncio.wait_for(run(graph, {}), timeout=5)
    assert finished == ["c", "b"]  # c finished first ...
    assert result.state["hits"] == ["b", "c"]  # ... but deltas merge in declared order
    assert result.state["who"] == "c"
    assert joined == [["b", "c"]]  # the join ran once, after both
    assert result.path == ("start", "b", "c", "join")


async def test_join_barrier_waits_for_branches_of_different_length() -> None:
    calls: list[str] = []

    def node(name: str) -> Any:
        def fn(state: State) -> dict[str, Any]:
            calls.append(name)
            return {"seen": [name]}

        fn.__qualname__ = f"node_{name}"
        return fn

    graph = (
        GraphBuilder("barrier", reducers={"seen": append})
        .add_node("start", node("start"))
        .add_node("long1", node("long1"))
        .add_node("long2", node("long2"))
        .add_node("short", node("short"))
        .add_node("join", node("join"))
        .add_conditional_edges("start", lambda s: ["long1", "short"], ["long1", "short"])
        .add_edge("long1", "long2")
        .add_edge(["long2", "short"], "join")
        .add_edge("join", END)
        .set_entry("start")
        .compile()
    )
    result = await run(graph, {})
    assert calls == ["start", "long1", "short", "long2", "join"]
    assert result.state["seen"][-1] == "join" and calls.count("join") == 1


async def test_without_a_checkpointer_an_interrupt_still_reports_waiting() -> None:
    graph = (
        GraphBuilder("ask")
        .add_interrupt("ask", question="name?")
        .add_node("greet", lambda s: {"out": "hi " + s["name"]})
        .add_edge("ask", "greet")
        .add_edge("greet", END)
        .set_entry("ask")
        .compile()
    )
    engine = GraphEngine(graph)
    result = await engine.run({})
    assert result.status == RunStatus.WAITING_INPUT and result.next == ("ask",)
    with pytest.raises(GraphRuntimeError, match="needs a checkpointer"):
        await engine.resume(result.session_id, {"name": "Ana"})


async def test_a_node_may_return_values_it_read_from_the_state_with_a_checkpointer() -> None:
    """Nodes read through read-only views; handing such a value back must still be storable."""
    from graph import END, GraphBuilder, GraphEngine, InMemoryCheckpointer

    def copy_profile(state: Any) -> dict[str, Any]:
        return {"copy": state["profile"], "tags": state["profile"]["tags"]}

    graph = (
        GraphBuilder("echo").add_node("copy", copy_profile).add_edge("copy", END).set_entry("copy").compile()
    )
    engine = GraphEngine(graph, InMemoryCheckpointer())
    result = await engine.run({"profile": {"name": "Ana", "tags": ["a", "b"]}}, session_id="views")
    assert result.state["copy"] == {"name": "Ana", "tags": ["a", "b"]}
    assert (await engine.get_version("views", 1))["tags"] == ["a", "b"]


async def test_a_node_that_takes_deps_gets_the_calls_own_and_they_are_not_stored() -> None:
    """``deps=`` reaches the nodes of that call only (sequential and fanned-out ones alike);
    a node that takes the state alone is called as before."""
    from graph import InMemoryCheckpointer

    seen: list[tuple[str, object]] = []

    def ask(state: State, deps: object) -> dict[str, Any]:
        seen.append(("ask", deps))
        return {"asked": True}

    async def left(state: State, deps: object) -> dict[str, Any]:
        seen.append(("left", deps))
        return {}

    def right(state: State) -> dict[str, Any]:
        seen.append(("right", None))
        return {}

    graph = (
        GraphBuilder("deps")
        .add_node("ask", ask)
        .add_interrupt("wait")
        .add_node("left", left)
        .add_node("right", right)
        .add_edge("ask", "wait")
        .add_edge("wait", ["left", "right"])
        .add_edge("left", END)
        .add_edge("right", END)
        .set_entry("ask")
        .compile()
    )
    engine = GraphEngine(graph, InMemoryCheckpointer())
    first = await engine.run({}, session_id="d", deps="first call")
    assert first.status == RunStatus.WAITING_INPUT and "deps" not in first.state
    done = await engine.resume("d", {"answer": 1}, deps="second call")
    assert done.status == RunStatus.COMPLETED
    assert seen[0] == ("ask", "first call")
    assert sorted(seen[1:]) == [("left", "second call"), ("right", None)]  # a sync node runs first
