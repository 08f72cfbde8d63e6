"""Setup errors and Mermaid rendering of definitions."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest
from pydantic import BaseModel, ConfigDict

from graph import END, GraphBuilder, GraphSetupError, append


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


def test_two_lambdas_are_two_nodes() -> None:
    graph = (
        GraphBuilder()
        .add_node("a", lambda s: {"a": 1})
        .add_node("b", lambda s: {"b": 1})
        .add_edge("a", "b")
        .add_edge("b", END)
        .set_entry("a")
        .compile()
    )
    assert graph.nodes["a"].function is not graph.nodes["b"].function
    assert graph.node_fns["b"][0] is graph.nodes["b"].function


def test_node_and_reducer_must_be_callable() -> None:
    with pytest.raises(GraphSetupError, match=r"nodes\.a must be callable"):
        GraphBuilder().add_node("a", "step_a")  # type: ignore[arg-type]
    with pytest.raises(GraphSetupError, match=r"reducers\.log must be callable"):
        GraphBuilder().add_reducer("log", "append")  # type: ignore[arg-type]


class Turn(BaseModel):
    model_config = ConfigDict(frozen=True)
    messages: list[str] = []
    clarification: dict[str, Any] | None = None


def test_schema_reducer_and_payload_key_must_name_fields() -> None:
    with pytest.raises(GraphSetupError, match=r"reducers\.log: unknown field 'log' of Turn") as info:
        GraphBuilder(state_schema=Turn, reducers={"log": append}).add_node("a", step_a).add_edge(
            "a", END
        ).set_entry("a").compile()
    assert info.value.param == "reducers.log"
    with pytest.raises(GraphSetupError, match=r"nodes\.ask\.payload_key: unknown field 'question'"):
        GraphBuilder(state_schema=Turn).add_interrupt("ask", payload_key="question").add_edge(
            "ask", END
        ).set_entry("ask").compile()
    graph = (
        GraphBuilder(state_schema=Turn, reducers={"messages": append})
        .add_interrupt("ask", payload_key="clarification")
        .add_edge("ask", END)
        .set_entry("ask")
        .compile()
    )
    assert graph.state_schema is Turn


def test_state_schema_must_be_a_pydantic_model() -> None:
    with pytest.raises(GraphSetupError, match="state_schema must be a pydantic model class"):
        GraphBuilder(state_schema=dict).add_node("a", step_a).add_edge(  # type: ignore[type-var]
            "a", END
        ).set_entry("a").compile()


def test_setup_error_is_not_a_runtime_error() -> None:
    from graph import GraphRuntimeError
    from shared.errors import SetupError

    assert issubclass(GraphSetupError, SetupError)
    assert not issubclass(GraphSetupError, GraphRuntimeError)


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
