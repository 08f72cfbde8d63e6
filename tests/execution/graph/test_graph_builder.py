"""Setup errors, JSON round trip and Mermaid rendering of definitions."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import pytest

from execution.graph import END, GraphBuilder, GraphDefinition, GraphSetupError, append, function_ref


def step_a(state: Mapping[str, Any]) -> dict[str, Any]:
    return {"a": 1}


def step_b(state: Mapping[str, Any]) -> dict[str, Any]:
    return {"b": 1}


def step_c(state: Mapping[str, Any]) -> dict[str, Any]:
    return {"c": 1}


def route(state: Mapping[str, Any]) -> str:
    return "more" if state.get("n", 0) < 3 else "stop"


def keep_last(current: Any, update: Any) -> Any:
    return update


def full_builder() -> GraphBuilder:
    return (
        GraphBuilder("full", reducers={"messages": append, "last": keep_last}, max_steps=42)
        .add_node("a", step_a)
        .add_node("b", step_b)
        .add_node("c", step_c)
        .add_node("j", step_a)
        .add_interrupt("ask", question="which one?", payload_key="clarification")
        .add_conditional_edges("a", route, {"more": ["b", "c"], "stop": END})
        .add_edge(["b", "c"], "j")
        .add_edge("j", "ask")
        .add_edge("ask", "a")
        .set_entry("a")
    )


@pytest.mark.parametrize(
    ("builder", "message"),
    [
        (
            lambda: GraphBuilder().add_node("a", step_a).add_edge("a", "ghost").set_entry("a"),
            "unknown node 'ghost'",
        ),
        (
            lambda: GraphBuilder().add_node("a", step_a).add_edge("ghost", "a").set_entry("a"),
            "unknown node 'ghost'",
        ),
        (
            lambda: (
                GraphBuilder()
                .add_node("a", step_a)
                .add_conditional_edges("a", route, {"x": "ghost"})
                .set_entry("a")
            ),
            "unknown node 'ghost'",
        ),
        (lambda: GraphBuilder().add_node("a", step_a).add_edge("a", END), "no entry"),
        (
            lambda: GraphBuilder().add_node("a", step_a).add_edge("a", END).set_entry("zz"),
            "entry 'zz' is not a node",
        ),
        (
            lambda: (
                GraphBuilder()
                .add_node("a", step_a)
                .add_node("island", step_b)
                .add_edge("a", END)
                .add_edge("island", END)
                .set_entry("a")
            ),
            "unreachable from entry 'a': island",
        ),
        (
            lambda: (
                GraphBuilder().add_node("a", step_a).add_node("b", step_b).add_edge("a", "b").set_entry("a")
            ),
            "node 'b' has no outgoing edge",
        ),
        (
            lambda: (
                GraphBuilder()
                .add_node("a", step_a)
                .add_node("b", step_b)
                .add_edge("a", "b")
                .add_conditional_edges("a", route, ["b"])
                .add_edge("b", END)
                .set_entry("a")
            ),
            "both an edge and a conditional edge",
        ),
    ],
    ids=[
        "edge-to-unknown",
        "edge-from-unknown",
        "router-to-unknown",
        "missing-entry",
        "entry-not-a-node",
        "unreachable",
        "no-outgoing-edge",
        "edge-and-router",
    ],
)
def test_compile_rejects_bad_graphs(builder: Any, message: str) -> None:
    with pytest.raises(GraphSetupError) as info:
        builder().compile()
    assert message in str(info.value)


def test_duplicate_and_reserved_names_are_setup_errors() -> None:
    with pytest.raises(GraphSetupError, match="duplicate node name 'a'"):
        GraphBuilder().add_node("a", step_a).add_node("a", step_b)
    with pytest.raises(GraphSetupError, match="duplicate node name 'a'"):
        GraphBuilder().add_node("a", step_a).add_interrupt("a")
    with pytest.raises(GraphSetupError, match="reserved"):
        GraphBuilder().add_node(END, step_a)


def test_two_lambdas_get_distinct_references() -> None:
    graph = (
        GraphBuilder()
        .add_node("a", lambda s: {"a": 1})
        .add_node("b", lambda s: {"b": 1})
        .add_edge("a", "b")
        .add_edge("b", END)
        .set_entry("a")
        .compile()
    )
    refs = [graph.nodes["a"].function, graph.nodes["b"].function]
    assert refs[1] == f"{refs[0]}#2"
    again = GraphDefinition.from_json(graph.to_json(), graph.functions)
    assert again.functions[refs[1]] is graph.functions[refs[1]]


def test_setup_error_is_not_a_runtime_error() -> None:
    from execution.graph import GraphRuntimeError
    from shared.errors import SetupError

    assert issubclass(GraphSetupError, SetupError)
    assert not issubclass(GraphSetupError, GraphRuntimeError)


def test_json_round_trip_is_lossless_and_json_serializable() -> None:
    graph = full_builder().compile()
    data = graph.to_json()
    text = json.dumps(data)
    assert data["nodes"]["ask"] == {
        "kind": "interrupt",
        "question": "which one?",
        "payload_key": "clarification",
    }
    assert data["nodes"]["a"] == {"kind": "node", "function": function_ref(step_a)}
    assert data["conditional_edges"]["a"]["targets"] == ["b", "c", END]
    assert data["joins"] == [{"sources": ["b", "c"], "target": "j"}]
    assert data["interrupts"] == ["ask"]
    assert data["reducers"] == {"messages": "append", "last": function_ref(keep_last)}
    assert data["entry"] == "a" and data["max_steps"] == 42

    again = GraphDefinition.from_json(json.loads(text), [step_a, step_b, step_c, route, keep_last])
    assert again.to_json() == data
    assert again == graph  # data equality (bindings excluded)
    assert again.reducers["last"] is keep_last


def test_from_json_missing_function_is_a_setup_error() -> None:
    data = full_builder().compile().to_json()
    with pytest.raises(GraphSetupError, match="not in the function registry") as info:
        GraphDefinition.from_json(data, [step_a, step_b, step_c, keep_last])  # no router
    assert info.value.param == "conditional_edges.a.router"


def test_from_json_validates_like_compile() -> None:
    data = full_builder().compile().to_json()
    data["edges"]["j"] = ["nowhere"]
    with pytest.raises(GraphSetupError, match="unknown node 'nowhere'"):
        GraphDefinition.from_json(data, [step_a, step_b, step_c, route, keep_last])


def test_mermaid_contains_every_edge() -> None:
    text = full_builder().compile().to_mermaid()
    assert text.startswith("flowchart TD")
    for line in (
        "__start__ --> a",
        "a -.->|more| b",
        "a -.->|more| c",
        "a -.->|stop| __end__",
        "b ==> j",
        "c ==> j",
        "j --> ask",
        "ask --> a",
        "ask{{ask}}",
    ):
        assert line in text, line
