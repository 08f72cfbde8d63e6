"""Deltas, reducers and the read-only state view."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from graph import END, GraphBuilder, StateView, add, append, merge, merge_delta, run


def test_merge_replaces_keys_without_reducer_and_accumulates_keys_with_one() -> None:
    state = {"messages": [{"role": "user", "content": "oi"}], "intent": None, "n": 1, "memory": {"a": 1}}
    delta = {
        "messages": [{"role": "assistant", "content": "olá"}],
        "intent": "quote",
        "n": 2,
        "memory": {"b": 2},
    }
    new = merge_delta(state, delta, {"messages": append, "n": add, "memory": merge})
    assert new == {
        "messages": [{"role": "user", "content": "oi"}, {"role": "assistant", "content": "olá"}],
        "intent": "quote",
        "n": 3,
        "memory": {"a": 1, "b": 2},
    }
    # the previous version is untouched (it is a stored version of the session)
    assert state["messages"] == [{"role": "user", "content": "oi"}]
    assert state["n"] == 1 and state["memory"] == {"a": 1}


def test_reducer_sees_none_for_a_missing_key() -> None:
    assert merge_delta({}, {"messages": ["x"]}, {"messages": append}) == {"messages": ["x"]}


def test_view_is_read_only_at_every_depth() -> None:
    view = StateView({"messages": [{"content": "a"}], "meta": {"tags": ["t"]}})
    with pytest.raises(TypeError):
        view["new"] = 1  # type: ignore[index]
    with pytest.raises(AttributeError):
        view["messages"].append("b")
    with pytest.raises(TypeError):
        view["messages"][0]["content"] = "changed"
    with pytest.raises(AttributeError):
        view["meta"]["tags"].append("u")
    assert view["messages"][0]["content"] == "a"
    assert list(view["meta"]["tags"]) == ["t"]


async def test_a_node_cannot_mutate_the_state_even_by_trying() -> None:
    seen: list[str] = []

    def vandal(state: Mapping[str, Any]) -> dict[str, Any]:
        loose: Any = state  # what a careless node would do, unchecked
        for attempt in (
            lambda: loose["items"].append("evil"),
            lambda: loose.__setitem__("items", []),
            lambda: loose["nested"].__setitem__("k", "evil"),
        ):
            try:
                attempt()
            except (AttributeError, TypeError):
                seen.append("blocked")
        # returning values read from the view is fine: the engine stores plain data
        return {"copy": state["nested"], "items": ["ok"]}

    graph = (
        GraphBuilder("vandal", reducers={"items": append})
        .add_node("vandal", vandal)
        .add_edge("vandal", END)
        .set_entry("vandal")
        .compile()
    )
    initial = {"items": ["a"], "nested": {"k": "v"}}
    result = await run(graph, initial)
    assert seen == ["blocked", "blocked", "blocked"]
    assert result.state == {"items": ["a", "ok"], "nested": {"k": "v"}, "copy": {"k": "v"}}
    assert type(result.state["copy"]) is dict  # thawed, not a view
    assert initial == {"items": ["a"], "nested": {"k": "v"}}
