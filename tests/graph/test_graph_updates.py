"""Typed node updates (graph.update.StateUpdate): checked at class definition, folded as the
dict delta of the fields given, and stored exactly as a dict delta is (old sessions read on)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from pydantic import BaseModel, ConfigDict, ValidationError

from graph import (
    END,
    GraphBuilder,
    GraphDefinition,
    GraphEngine,
    GraphRuntimeError,
    GraphSetupError,
    InMemoryCheckpointer,
    StateUpdate,
    append,
)
from shared.status import RunStatus


class Chat(BaseModel):
    model_config = ConfigDict(frozen=True)
    messages: list[str] = []
    topic: str | None = None
    tries: int = 0


class Asked(StateUpdate, state=Chat):
    messages: list[str]
    topic: str | None = None
    #: None: unchanged (Chat.tries cannot be None)
    tries: int | None = None


class Answered(StateUpdate, state=Chat):
    messages: list[str]


def chat_graph(ask: Callable[[Chat], Any], answer: Callable[[Chat], Any]) -> GraphDefinition[Chat]:
    return (
        GraphBuilder("chat", state_schema=Chat, reducers={"messages": append})
        .add_node("ask", ask)
        .add_interrupt("wait")
        .add_node("answer", answer)
        .add_edge("ask", "wait")
        .add_edge("wait", "answer")
        .add_edge("answer", END)
        .set_entry("ask")
        .compile()
    )


def ask_update(state: Chat) -> Asked:
    return Asked(messages=["which topic?"], topic=None, tries=state.tries + 1)


def answer_update(state: Chat) -> Answered:
    return Answered(messages=[f"about {state.topic}"])


def ask_dict(state: Chat) -> dict[str, Any]:
    return {"messages": ["which topic?"], "topic": None, "tries": state.tries + 1}


def answer_dict(state: Chat) -> dict[str, Any]:
    return {"messages": [f"about {state.topic}"]}


def test_only_the_fields_given_are_folded_and_none_means_unchanged_where_the_state_cannot_hold_it() -> None:
    assert Asked(messages=["a"]).delta() == {"messages": ["a"]}
    assert Asked(messages=["a"], topic=None, tries=None).delta() == {"messages": ["a"], "topic": None}
    assert Asked.none_is_unchanged == frozenset({"tries"})
    chat = Chat(messages=["x"], topic="tea", tries=2)
    assert Asked(messages=[], tries=3).apply(chat) == Chat(messages=[], topic="tea", tries=3)


def test_a_field_the_state_lacks_or_types_otherwise_fails_when_the_class_is_defined() -> None:
    with pytest.raises(GraphSetupError, match="Chat has no field 'mood'"):

        class Mood(StateUpdate, state=Chat):
            mood: str

    with pytest.raises(GraphSetupError, match=r"Tries\.tries: typed <class 'str'>"):

        class Tries(StateUpdate, state=Chat):
            tries: str


def test_values_are_validated_and_unknown_keywords_refused() -> None:
    with pytest.raises(ValidationError):
        Asked.model_validate({"messages": ["a"], "tries": "many"})
    with pytest.raises(ValidationError):
        Answered(messages=["a"], mood="x")  # type: ignore[call-arg]


async def test_updates_are_stored_as_the_same_deltas_as_dicts() -> None:
    stored: list[list[str]] = []
    for graph in (chat_graph(ask_dict, answer_dict), chat_graph(ask_update, answer_update)):
        ck = InMemoryCheckpointer()
        engine = GraphEngine(graph, ck)
        await engine.run(Chat(), session_id="s")
        done = await engine.resume("s", {"topic": "tea"})
        assert done.status == RunStatus.COMPLETED
        assert done.state == Chat(messages=["which topic?", "about tea"], topic="tea", tries=1)
        stored.append([r.delta for r in await ck.records("s", done.version)])
    assert stored[0] == stored[1]


async def test_a_session_stored_from_dict_deltas_resumes_under_typed_updates() -> None:
    ck = InMemoryCheckpointer()
    await GraphEngine(chat_graph(ask_dict, answer_dict), ck).run(Chat(), session_id="s")
    typed = GraphEngine(chat_graph(ask_update, answer_update), ck)
    done = await typed.resume("s", {"topic": "tea"})
    assert done.state.messages == ["which topic?", "about tea"]
    assert (await typed.get_version("s", 1)).tries == 1  # time travel reads the old version


async def test_a_typed_update_is_a_resume_input() -> None:
    class Topic(StateUpdate, state=Chat):
        topic: str | None

    engine = GraphEngine(chat_graph(ask_update, answer_update), InMemoryCheckpointer())
    await engine.run(Chat(), session_id="s")
    done = await engine.resume("s", Topic(topic="rain"))
    assert done.state.messages[-1] == "about rain"


async def test_a_node_returning_another_object_is_still_refused() -> None:
    engine = GraphEngine(chat_graph(lambda s: ["not", "a", "delta"], answer_update))
    with pytest.raises(GraphRuntimeError, match="a node returns a dict delta, a StateUpdate or None"):
        await engine.run(Chat())


class Drafted(StateUpdate, state=Chat):
    messages: list[str]
    tries: int


class DraftAgain(Drafted, goes_to="draft"):
    """Not good enough yet."""


class DraftDone(Drafted, goes_to="publish"):
    """Good enough."""


class Published(StateUpdate, state=Chat, goes_to=END):
    topic: str | None


def draft(state: Chat) -> DraftAgain | DraftDone:
    tries = state.tries + 1
    update = DraftDone if tries >= 3 else DraftAgain
    return update(messages=[f"draft {tries}"], tries=tries)


def publish(state: Chat) -> Published:
    return Published(topic=state.messages[-1])


def writer() -> GraphBuilder[Chat]:
    return (
        GraphBuilder("writer", state_schema=Chat, reducers={"messages": append})
        .add_node("draft", draft)
        .add_node("publish", publish)
        .set_entry("draft")
    )


async def test_a_nodes_edges_come_from_the_updates_its_return_type_names() -> None:
    graph = writer().compile()
    assert graph.successors("draft") == ("draft", "publish") and graph.successors("publish") == (END,)
    drawing = graph.to_mermaid()
    assert "draft -.->|DraftAgain| draft" in drawing and "draft -.->|DraftDone| publish" in drawing
    assert "publish --> __end__" in drawing
    done = await GraphEngine(graph).run(Chat())
    assert done.path == ("draft", "draft", "draft", "publish")
    assert done.state.topic == "draft 3" and done.status == RunStatus.COMPLETED


def test_a_node_with_typed_edges_takes_no_other_edge_and_its_targets_are_checked() -> None:
    with pytest.raises(GraphSetupError, match="has its edges from its return type"):
        writer().add_edge("draft", END)
    with pytest.raises(GraphSetupError, match="has its edges from its return type"):
        writer().add_conditional_edges("publish", lambda state: "x", {"x": END})
    with pytest.raises(GraphSetupError, match="an edge was added to it before"):
        GraphBuilder("early", state_schema=Chat).add_edge("publish", END).add_node("publish", publish)
    with pytest.raises(GraphSetupError, match="points to unknown node 'publish'"):
        GraphBuilder("half", state_schema=Chat).add_node("draft", draft).set_entry("draft").compile()


def test_a_return_type_mixing_routed_and_unrouted_updates_is_a_setup_error() -> None:
    def unclear(state: Chat) -> DraftDone | Asked:
        return Asked(messages=[])

    with pytest.raises(GraphSetupError, match=r"others that do not \(Asked\)"):
        GraphBuilder("mixed", state_schema=Chat).add_node("unclear", unclear)


async def test_a_node_that_returns_no_update_naming_its_next_node_fails_the_run() -> None:
    def wrong(state: Chat) -> DraftAgain | DraftDone:
        return {"tries": 1}  # type: ignore[return-value]

    graph = (
        GraphBuilder("liar", state_schema=Chat)
        .add_node("draft", wrong)
        .add_node("publish", publish)
        .set_entry("draft")
        .compile()
    )
    with pytest.raises(GraphRuntimeError, match="returned no update naming one of its next nodes"):
        await GraphEngine(graph).run(Chat(messages=["x"]))
