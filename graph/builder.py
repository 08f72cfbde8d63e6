"""The fluent, declarative graph builder.

The builder runs nothing: it records nodes, edges and the entry, and :meth:`GraphBuilder.compile`
turns them into a validated, immutable :class:`GraphDefinition`. Every mistake that can be found
statically is a :class:`GraphSetupError` raised here, never halfway through a conversation.

>>> from graph import END, GraphBuilder, append, run
>>> import asyncio
>>> def draft(state):
...     return {"messages": [f"draft {state['tries'] + 1}"], "tries": state["tries"] + 1}
>>> def good_enough(state):
...     return "ok" if state["tries"] >= 3 else "again"
>>> graph = (
...     GraphBuilder("writer", reducers={"messages": append})
...     .add_node("draft", draft)
...     .add_conditional_edges("draft", good_enough, {"ok": END, "again": "draft"})
...     .set_entry("draft")
...     .compile()
... )
>>> result = asyncio.run(run(graph, {"tries": 0, "messages": []}))
>>> result.status, result.state["messages"]
(<RunStatus.COMPLETED: 'completed'>, ['draft 1', 'draft 2', 'draft 3'])
>>> GraphBuilder().add_node("a", draft).add_edge("a", "b").set_entry("a").compile()
Traceback (most recent call last):
...
graph.errors.GraphSetupError: edges.a points to unknown node 'b'

With ``state_schema`` the state is a frozen pydantic model: nodes read its fields and return a
delta of typed values, and ``result.state`` is an instance of the model.

>>> from pydantic import BaseModel, ConfigDict
>>> class Message(BaseModel):
...     model_config = ConfigDict(frozen=True)
...     role: str
...     text: str
>>> class Chat(BaseModel):
...     model_config = ConfigDict(frozen=True)
...     messages: list[Message] = []
...     tries: int = 0
>>> def reply(state: Chat) -> dict[str, object]:
...     echo = Message(role="bot", text=f"echo {state.messages[-1].text}")
...     return {"messages": [echo], "tries": state.tries + 1}
>>> chat = (
...     GraphBuilder("chat", state_schema=Chat, reducers={"messages": append})
...     .add_node("reply", reply)
...     .add_edge("reply", END)
...     .set_entry("reply")
...     .compile()
... )
>>> done = asyncio.run(run(chat, Chat(messages=[Message(role="user", text="hi")])))
>>> [m.text for m in done.state.messages], done.state.tries
(['hi', 'echo hi'], 1)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Generic, overload

from pydantic import BaseModel
from typing_extensions import TypeVar

from graph.codec import StateT
from graph.definition import (
    DEFAULT_MAX_STEPS,
    ConditionalEdge,
    GraphDefinition,
    Join,
    NodeFn,
    NodeSpec,
    RouterFn,
)
from graph.errors import GraphSetupError
from graph.state import END, Reducer
from graph.update import StateUpdate, updates_returned

Targets = str | Sequence[str]
ModelT = TypeVar("ModelT", bound=BaseModel)


def _as_tuple(targets: Targets) -> tuple[str, ...]:
    return (targets,) if isinstance(targets, str) else tuple(targets)


def _require_callable(fn: Any, what: str) -> None:
    if not callable(fn):
        raise GraphSetupError(f"{what} must be callable, got {type(fn).__name__}", param=what)


class GraphBuilder(Generic[StateT]):
    """Fluent builder: every method returns ``self``; :meth:`compile` validates and freezes.

    ``state_schema`` (a pydantic model, declared ``frozen``) makes the state typed; without it
    the state is a plain dict. ``reducers`` maps a state key (a field name with a schema) to the
    function that folds its updates, e.g. ``{"messages": append}``.
    """

    @overload
    def __init__(
        self: GraphBuilder[dict[str, Any]],
        name: str = ...,
        *,
        state_schema: None = None,
        reducers: Mapping[str, Reducer] | None = None,
        max_steps: int = DEFAULT_MAX_STEPS,
    ) -> None: ...
    @overload
    def __init__(
        self: GraphBuilder[ModelT],
        name: str = ...,
        *,
        state_schema: type[ModelT],
        reducers: Mapping[str, Reducer] | None = None,
        max_steps: int = DEFAULT_MAX_STEPS,
    ) -> None: ...
    def __init__(
        self,
        name: str = "graph",
        *,
        state_schema: type[BaseModel] | None = None,
        reducers: Mapping[str, Reducer] | None = None,
        max_steps: int = DEFAULT_MAX_STEPS,
    ) -> None:
        self._name = name
        self._state_schema = state_schema
        self._max_steps = max_steps
        self._nodes: dict[str, NodeSpec] = {}
        self._edges: dict[str, list[str]] = {}
        self._conditional: dict[str, ConditionalEdge] = {}
        self._joins: list[Join] = []
        self._entry: str | None = None
        #: nodes whose edges come from their return type (no edge may be added to them)
        self._typed: set[str] = set()
        self._reducers: dict[str, Reducer] = {}
        for key, reducer in (reducers or {}).items():
            self.add_reducer(key, reducer)

    # ------------------------------------------------------------------ registration

    def _new_name(self, name: str) -> None:
        if not isinstance(name, str) or not name:
            raise GraphSetupError("node names must be non-empty strings", param="nodes")
        if name == END:
            raise GraphSetupError(f"{END!r} is reserved for the end of the run", param=f"nodes.{name}")
        if name in self._nodes:
            raise GraphSetupError(f"duplicate node name {name!r}", param=f"nodes.{name}")

    def add_node(self, name: str | NodeFn, fn: NodeFn | None = None) -> GraphBuilder[StateT]:
        """Register ``fn`` under ``name`` (or ``add_node(fn)``: named after the function).

        When ``fn`` is annotated to return :class:`~graph.update.StateUpdate` classes that name
        their next node (``goes_to=``), its edges are those: one class, an edge to its node;
        several, a conditional edge labelled with the class names, followed by the class the
        node returns. Such a node takes no other edge.
        """
        if fn is None:
            if not callable(name):
                raise GraphSetupError(f"node {name!r} needs a function", param=f"nodes.{name}")
            fn, name = name, name.__name__
        assert isinstance(name, str)
        self._new_name(name)
        _require_callable(fn, f"nodes.{name}")
        self._nodes[name] = NodeSpec(name=name, kind="node", function=fn)
        routed = updates_returned(fn)
        if routed is not None:
            self._edges_from_updates(name, routed)
        return self

    def _edges_from_updates(self, name: str, updates: Sequence[type[StateUpdate]]) -> None:
        if name in self._edges or name in self._conditional:
            raise GraphSetupError(
                f"node {name!r} has its edges from its return type; an edge was added to it before",
                param=f"nodes.{name}",
            )
        targets = list(dict.fromkeys(update.next_node for update in updates if update.next_node))
        if len(targets) == 1:
            self._edges[name] = targets
        else:
            path_map = {update.__name__: (update.next_node or END,) for update in updates}
            self._conditional[name] = ConditionalEdge(source=name, router=None, path_map=path_map)
        self._typed.add(name)

    def _check_untyped(self, source: str, where: str) -> None:
        if source in self._typed:
            raise GraphSetupError(
                f"node {source!r} has its edges from its return type; name the next node there",
                param=where,
            )

    def add_interrupt(
        self, name: str, *, question: str | None = None, payload_key: str | None = None
    ) -> GraphBuilder[StateT]:
        """A node that does no work: reaching it pauses the run with ``status="waiting_input"``.

        ``question`` is a fixed text; ``payload_key`` names a state key (a field with a schema)
        whose value, written by an earlier node, becomes the interrupt's payload. The input given
        to ``resume`` is merged as this node's delta, then its outgoing edges are followed.
        """
        self._new_name(name)
        self._nodes[name] = NodeSpec(name=name, kind="interrupt", question=question, payload_key=payload_key)
        return self

    def add_reducer(self, key: str, reducer: Reducer) -> GraphBuilder[StateT]:
        """Make state key ``key`` accumulate through ``reducer(current, update) -> new``."""
        _require_callable(reducer, f"reducers.{key}")
        self._reducers[key] = reducer
        return self

    # ------------------------------------------------------------------ edges

    def add_edge(self, source: Targets, target: Targets) -> GraphBuilder[StateT]:
        """Unconditional edge(s).

        * ``add_edge("a", "b")`` — after ``a`` always ``b``;
        * ``add_edge("a", ["b", "c"])`` — fan-out: ``b`` and ``c`` run concurrently;
        * ``add_edge(["b", "c"], "j")`` — join barrier: ``j`` runs once, after both ``b`` and ``c``.
        """
        sources, targets = _as_tuple(source), _as_tuple(target)
        if not sources or not targets:
            raise GraphSetupError("add_edge needs a source and a target", param="edges")
        for name in sources:
            self._check_untyped(name, f"edges.{name}")
        if len(sources) > 1:
            if len(targets) != 1:
                raise GraphSetupError("a join has exactly one target", param="joins")
            self._joins.append(Join(sources, targets[0]))
            return self
        current = self._edges.setdefault(sources[0], [])
        current.extend(t for t in targets if t not in current)
        return self

    def add_conditional_edges(
        self,
        source: str,
        router: RouterFn,
        path_map: Mapping[str, Targets] | Sequence[str],
    ) -> GraphBuilder[StateT]:
        """A decision point after ``source``: ``router(state)`` returns a label, a node name, or a list.

        ``path_map`` maps each label to its target(s); a plain list of node names means
        "the router returns node names". Every possible target is declared here, which keeps the
        definition static (validation, reachability and Mermaid all see them).
        """
        where = f"conditional_edges.{source}"
        self._check_untyped(source, where)
        if source in self._conditional:
            raise GraphSetupError(f"node {source!r} already has conditional edges", param=where)
        _require_callable(router, f"{where}.router")
        mapping = (
            {label: _as_tuple(t) for label, t in path_map.items()}
            if isinstance(path_map, Mapping)
            else {name: (name,) for name in path_map}
        )
        self._conditional[source] = ConditionalEdge(source=source, router=router, path_map=mapping)
        return self

    def set_entry(self, name: str) -> GraphBuilder[StateT]:
        self._entry = name
        return self

    # ------------------------------------------------------------------ compile

    def compile(self, *, max_steps: int | None = None) -> GraphDefinition[StateT]:
        """Validate everything and return the immutable :class:`GraphDefinition`."""
        return GraphDefinition(
            name=self._name,
            entry=self._entry or "",
            nodes=dict(self._nodes),
            edges={src: tuple(t) for src, t in self._edges.items()},
            conditional_edges=dict(self._conditional),
            joins=tuple(self._joins),
            reducers=dict(self._reducers),
            max_steps=max_steps if max_steps is not None else self._max_steps,
            state_schema=self._state_schema,
        )
