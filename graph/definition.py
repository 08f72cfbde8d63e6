"""The static, validated graph definition the builder produces.

A :class:`GraphDefinition` holds node names and kinds with the callables behind them, edges,
conditional edges with every target they may lead to, join barriers, the entry, interrupts,
reducers and the optional state schema. Every target is declared up front, so validation,
reachability and :meth:`GraphDefinition.to_mermaid` all see the whole graph before anything runs.

>>> from graph import GraphBuilder, END
>>> def greet(state):
...     return {"greeting": "hi " + state["name"]}
>>> graph = GraphBuilder("hello").add_node("greet", greet).add_edge("greet", END).set_entry("greet").compile()
>>> graph.nodes["greet"].kind, graph.successors("greet")
('node', ('__end__',))
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, Literal

from pydantic import BaseModel

from graph.codec import StateCodec, StateT, codec_for
from graph.errors import GraphSetupError
from graph.state import END, Reducer

NodeKind = Literal["node", "interrupt"]
#: A node function: ``(state) -> delta | None`` or ``(state, deps) -> delta | None`` (sync or
#: async); the state is a read-only ``StateView`` without a schema, the schema's model instance
#: with one. A delta is a mapping of state keys, or with a schema a typed
#: :class:`~graph.update.StateUpdate`. ``deps`` is what the caller of ``run`` / ``resume`` handed
#: that call (``deps=``): per call, never stored, so a node is given what belongs to the call in
#: flight (where its progress goes) without a table kept on the graph's owner.
NodeFn = Callable[..., Any]
#: A router: ``(state) -> label | node name | list of them`` (sync or async).
RouterFn = Callable[[Any], Any]

DEFAULT_MAX_STEPS = 100


@dataclass(frozen=True, slots=True)
class NodeSpec:
    """One node. ``kind="interrupt"`` nodes have no function: reaching one pauses the run."""

    name: str
    kind: NodeKind = "node"
    function: NodeFn | None = None
    #: Interrupt only: a fixed question shown to the person.
    question: str | None = None
    #: Interrupt only: state key whose value becomes the interrupt payload (e.g. a clarification).
    payload_key: str | None = None


@dataclass(frozen=True, slots=True)
class ConditionalEdge:
    """A decision point: ``router`` returns a label of ``path_map`` (or a target node name).

    Without a router the edge comes from the source node's return type: each label is a
    :class:`~graph.update.StateUpdate` class the node may return, leading to the node that class
    names (``goes_to=``), and the run follows the class the node did return."""

    source: str
    router: RouterFn | None
    #: label -> the target node names it leads to (several = fan-out).
    path_map: Mapping[str, tuple[str, ...]]

    @property
    def targets(self) -> tuple[str, ...]:
        """Every node this edge may lead to, in declaration order, without duplicates."""
        return tuple(dict.fromkeys(t for targets in self.path_map.values() for t in targets))


@dataclass(frozen=True, slots=True)
class Join:
    """A barrier: ``target`` runs once after *every* node of ``sources`` has run."""

    sources: tuple[str, ...]
    target: str


@dataclass(frozen=True)
class GraphDefinition(Generic[StateT]):
    """A validated graph; build it with :class:`~graph.builder.GraphBuilder`."""

    name: str
    entry: str
    nodes: Mapping[str, NodeSpec]
    edges: Mapping[str, tuple[str, ...]]
    conditional_edges: Mapping[str, ConditionalEdge]
    joins: tuple[Join, ...] = ()
    #: state key (field name with a schema) -> the reducer that folds its updates.
    reducers: Mapping[str, Reducer] = field(default_factory=dict)
    max_steps: int = DEFAULT_MAX_STEPS
    #: the pydantic model of the state, or ``None`` for a plain dict state.
    state_schema: type[BaseModel] | None = None

    def __post_init__(self) -> None:
        validate(self)
        codec = codec_for(self.state_schema, self.reducers)
        for name, spec in self.nodes.items():
            if spec.payload_key is not None:
                codec.check_key(spec.payload_key, where=f"nodes.{name}.payload_key")
        # Hot-path tables, derived once so the engine never recomputes them per step.
        object.__setattr__(self, "codec", codec)
        object.__setattr__(
            self,
            "node_fns",
            {
                s.name: (s.function, _is_async(s.function), takes_deps(s.function))
                for s in self.nodes.values()
                if s.function is not None
            },
        )
        object.__setattr__(
            self,
            "routers",
            {
                src: (e.router, _is_async(e.router))
                for src, e in self.conditional_edges.items()
                if e.router is not None
            },
        )
        joins_by_source: dict[str, list[Join]] = {}
        for join in self.joins:
            for src in join.sources:
                joins_by_source.setdefault(src, []).append(join)
        object.__setattr__(self, "joins_by_source", {k: tuple(v) for k, v in joins_by_source.items()})
        object.__setattr__(self, "interrupt_names", frozenset(self.interrupts))

    # populated in __post_init__ (declared for type checkers)
    codec: StateCodec[StateT] = field(init=False, repr=False, compare=False)
    #: node -> (function, is async, takes the call's ``deps``)
    node_fns: Mapping[str, tuple[NodeFn, bool, bool]] = field(init=False, repr=False, compare=False)
    routers: Mapping[str, tuple[RouterFn, bool]] = field(init=False, repr=False, compare=False)
    joins_by_source: Mapping[str, tuple[Join, ...]] = field(init=False, repr=False, compare=False)
    interrupt_names: frozenset[str] = field(init=False, repr=False, compare=False)

    @property
    def interrupts(self) -> tuple[str, ...]:
        return tuple(n for n, s in self.nodes.items() if s.kind == "interrupt")

    def to_mermaid(self, *, direction: str = "TD") -> str:
        """A Mermaid ``flowchart`` of the graph (see :mod:`graph.mermaid`)."""
        from graph.mermaid import to_mermaid

        return to_mermaid(self, direction=direction)

    def successors(self, node: str) -> tuple[str, ...]:
        """Every node ``node`` may lead to (static edges, router targets, join targets)."""
        out = list(self.edges.get(node, ()))
        if node in self.conditional_edges:
            out.extend(self.conditional_edges[node].targets)
        out.extend(j.target for j in self.joins_by_source.get(node, ()))
        return tuple(dict.fromkeys(out))


def takes_deps(fn: Callable[..., Any]) -> bool:
    """Whether a node function takes a second positional parameter: the call's ``deps``.

    >>> takes_deps(lambda state: {}), takes_deps(lambda state, deps: {})
    (False, True)
    """
    try:
        parameters = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):  # a builtin without a signature: the state only
        return False
    positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    if any(p.kind is inspect.Parameter.VAR_POSITIONAL for p in parameters):
        return True
    return sum(p.kind in positional for p in parameters) >= 2


def _is_async(fn: Callable[..., Any]) -> bool:
    return inspect.iscoroutinefunction(fn) or inspect.iscoroutinefunction(getattr(fn, "__call__", None))  # noqa: B004


# --------------------------------------------------------------------------- validation


def validate(graph: GraphDefinition[Any]) -> None:
    """Every static check ``compile()`` runs; raises :class:`GraphSetupError` on the first problem."""
    _check_entry(graph)
    _check_nodes(graph)
    _check_edges(graph)
    _check_conditional_edges(graph)
    _check_joins(graph)
    _check_every_node_leads_somewhere(graph)
    _check_reachable(graph)


def _check_entry(graph: GraphDefinition[Any]) -> None:
    if END in graph.nodes:
        raise GraphSetupError(f"{END!r} is reserved for the end of the run", param=f"nodes.{END}")
    if not graph.entry:
        raise GraphSetupError("graph has no entry node; call set_entry(name)", param="entry")
    if graph.entry not in graph.nodes:
        raise GraphSetupError(f"entry {graph.entry!r} is not a node", param="entry")
    if graph.max_steps < 1:
        raise GraphSetupError("max_steps must be >= 1", param="max_steps")


def _check_nodes(graph: GraphDefinition[Any]) -> None:
    for name, spec in graph.nodes.items():
        if spec.kind not in ("node", "interrupt"):
            raise GraphSetupError(f"node {name!r} has unknown kind {spec.kind!r}", param=f"nodes.{name}.kind")
        if spec.kind == "node" and not callable(spec.function):
            raise GraphSetupError(f"node {name!r} has no function", param=f"nodes.{name}.function")


def _check_target(graph: GraphDefinition[Any], where: str, target: str) -> None:
    if target != END and target not in graph.nodes:
        raise GraphSetupError(f"{where} points to unknown node {target!r}", param=where)


def _check_edges(graph: GraphDefinition[Any]) -> None:
    for src, targets in graph.edges.items():
        if src not in graph.nodes:
            raise GraphSetupError(f"edge from unknown node {src!r}", param=f"edges.{src}")
        if not targets:
            raise GraphSetupError(f"edge from {src!r} has no target", param=f"edges.{src}")
        for target in targets:
            _check_target(graph, f"edges.{src}", target)


def _check_conditional_edges(graph: GraphDefinition[Any]) -> None:
    for src, edge in graph.conditional_edges.items():
        where = f"conditional_edges.{src}"
        if src not in graph.nodes:
            raise GraphSetupError(f"conditional edge from unknown node {src!r}", param=where)
        if src in graph.edges:
            raise GraphSetupError(
                f"node {src!r} has both an edge and a conditional edge; let the router return every target",
                param=where,
            )
        if edge.router is not None and not callable(edge.router):
            raise GraphSetupError(f"router of {src!r} is not callable", param=f"{where}.router")
        if edge.router is None and any(len(targets) != 1 for targets in edge.path_map.values()):
            raise GraphSetupError(f"a typed update of {src!r} leads to one node", param=where)
        if not edge.path_map:
            raise GraphSetupError(f"conditional edge from {src!r} lists no targets", param=where)
        for label, targets in edge.path_map.items():
            for target in targets:
                _check_target(graph, f"{where}.path_map.{label}", target)


def _check_joins(graph: GraphDefinition[Any]) -> None:
    join_targets: set[str] = set()
    for i, join in enumerate(graph.joins):
        if join.target in join_targets:
            raise GraphSetupError(
                f"node {join.target!r} is the target of two joins; "
                "list every source in one add_edge([...], target)",
                param=f"joins[{i}].target",
            )
        join_targets.add(join.target)
        if len(join.sources) < 2:
            raise GraphSetupError("a join needs at least two sources", param=f"joins[{i}]")
        for source in join.sources:
            if source not in graph.nodes:
                raise GraphSetupError(f"join source {source!r} is not a node", param=f"joins[{i}].sources")
        if join.target not in graph.nodes:
            raise GraphSetupError(f"join target {join.target!r} is not a node", param=f"joins[{i}].target")


def _check_every_node_leads_somewhere(graph: GraphDefinition[Any]) -> None:
    has_out = set(graph.edges) | set(graph.conditional_edges) | {s for j in graph.joins for s in j.sources}
    for name in graph.nodes:
        if name not in has_out:
            raise GraphSetupError(
                f"node {name!r} has no outgoing edge; add_edge({name!r}, END) if the run should stop there",
                param=f"nodes.{name}",
            )


def _check_reachable(graph: GraphDefinition[Any]) -> None:
    succ: dict[str, list[str]] = {n: [] for n in graph.nodes}
    for src, targets in graph.edges.items():
        succ[src].extend(targets)
    for src, edge in graph.conditional_edges.items():
        succ[src].extend(edge.targets)
    for join in graph.joins:
        for source in join.sources:
            succ[source].append(join.target)
    seen = {graph.entry}
    stack = [graph.entry]
    while stack:
        for nxt in succ.get(stack.pop(), ()):
            if nxt != END and nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    unreachable = [n for n in graph.nodes if n not in seen]
    if unreachable:
        raise GraphSetupError(
            f"unreachable from entry {graph.entry!r}: {', '.join(unreachable)}",
            param=f"nodes.{unreachable[0]}",
        )
