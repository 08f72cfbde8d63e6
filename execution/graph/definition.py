"""The static, serializable graph definition the builder produces (seed 000, "objeto de definição").

A :class:`GraphDefinition` is plain data — node names and kinds, edges, conditional edges with
every target they may lead to, join barriers, the entry, interrupts, reducer names — plus the
*bindings* from function references to the callables that implement them. ``to_json()`` writes the
data only (functions by ``module.qualname`` reference); ``from_json(data, registry)`` binds them
again and re-runs the same validation as ``GraphBuilder.compile()``.

>>> from execution.graph import GraphBuilder, END
>>> def greet(state):
...     return {"greeting": "hi " + state["name"]}
>>> graph = GraphBuilder("hello").add_node("greet", greet).add_edge("greet", END).set_entry("greet").compile()
>>> data = graph.to_json()
>>> data["nodes"]["greet"]["kind"], data["edges"]
('node', {'greet': ['__end__']})
>>> GraphDefinition.from_json(data, [greet]).to_json() == data
True
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from execution.graph.errors import GraphSetupError
from execution.graph.state import BUILTIN_REDUCERS, END, Reducer

NodeKind = Literal["node", "interrupt"]
#: A node function: ``(state_view) -> delta | None`` (sync or async).
NodeFn = Callable[[Mapping[str, Any]], Any]
#: A router: ``(state_view) -> label | node name | list of them`` (sync or async).
RouterFn = Callable[[Mapping[str, Any]], Any]

JSON_FORMAT_VERSION = 1
DEFAULT_MAX_STEPS = 100


def function_ref(fn: Callable[..., Any]) -> str:
    """How a definition names a function: ``module.qualname`` (stable across processes).

    >>> function_ref(function_ref)
    'execution.graph.definition.function_ref'
    """
    module = getattr(fn, "__module__", None) or "<unknown>"
    qualname = getattr(fn, "__qualname__", None) or getattr(fn, "__name__", None) or type(fn).__qualname__
    return f"{module}.{qualname}"


@dataclass(frozen=True, slots=True)
class NodeSpec:
    """One node. ``kind="interrupt"`` nodes have no function: reaching one pauses the run."""

    name: str
    kind: NodeKind = "node"
    function: str | None = None
    #: Interrupt only: a fixed question shown to the person.
    question: str | None = None
    #: Interrupt only: state key whose value becomes the interrupt payload (e.g. a clarification).
    payload_key: str | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind}
        if self.function is not None:
            data["function"] = self.function
        if self.question is not None:
            data["question"] = self.question
        if self.payload_key is not None:
            data["payload_key"] = self.payload_key
        return data


@dataclass(frozen=True, slots=True)
class ConditionalEdge:
    """A decision point: ``router`` returns a label of ``path_map`` (or a target node name)."""

    source: str
    router: str
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
class GraphDefinition:
    """A validated graph: data (serializable) plus the callables bound to its function references."""

    name: str
    entry: str
    nodes: Mapping[str, NodeSpec]
    edges: Mapping[str, tuple[str, ...]]
    conditional_edges: Mapping[str, ConditionalEdge]
    joins: tuple[Join, ...] = ()
    #: state key -> reducer reference (a builtin name such as ``"append"`` or a function ref).
    reducer_refs: Mapping[str, str] = field(default_factory=dict)
    max_steps: int = DEFAULT_MAX_STEPS
    functions: Mapping[str, Callable[..., Any]] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        validate(self)
        # Hot-path tables, precomputed once (the engine never re-derives them per step).
        reducers = {key: _resolve_reducer(ref, self.functions, key) for key, ref in self.reducer_refs.items()}
        object.__setattr__(self, "reducers", reducers)
        node_fns: dict[str, tuple[Callable[..., Any], bool]] = {}
        for spec in self.nodes.values():
            if spec.kind == "node":
                fn = self.functions[spec.function or ""]
                node_fns[spec.name] = (fn, _is_async(fn))
        object.__setattr__(self, "node_fns", node_fns)
        routers = {
            src: (self.functions[edge.router], _is_async(self.functions[edge.router]))
            for src, edge in self.conditional_edges.items()
        }
        object.__setattr__(self, "routers", routers)
        joins_by_source: dict[str, list[Join]] = {}
        for join in self.joins:
            for src in join.sources:
                joins_by_source.setdefault(src, []).append(join)
        object.__setattr__(self, "joins_by_source", {k: tuple(v) for k, v in joins_by_source.items()})
        object.__setattr__(
            self, "interrupt_names", frozenset(n for n, s in self.nodes.items() if s.kind == "interrupt")
        )

    # populated in __post_init__ (declared for type checkers)
    reducers: Mapping[str, Reducer] = field(init=False, repr=False, compare=False)
    node_fns: Mapping[str, tuple[Callable[..., Any], bool]] = field(init=False, repr=False, compare=False)
    routers: Mapping[str, tuple[Callable[..., Any], bool]] = field(init=False, repr=False, compare=False)
    joins_by_source: Mapping[str, tuple[Join, ...]] = field(init=False, repr=False, compare=False)
    interrupt_names: frozenset[str] = field(init=False, repr=False, compare=False)

    @property
    def interrupts(self) -> tuple[str, ...]:
        return tuple(n for n, s in self.nodes.items() if s.kind == "interrupt")

    # ------------------------------------------------------------------ JSON

    def to_json(self) -> dict[str, Any]:
        """The definition as JSON-ready data (functions by reference, never by value)."""
        return {
            "format": JSON_FORMAT_VERSION,
            "name": self.name,
            "entry": self.entry,
            "nodes": {name: spec.to_json() for name, spec in self.nodes.items()},
            "edges": {src: list(targets) for src, targets in self.edges.items()},
            "conditional_edges": {
                src: {
                    "router": edge.router,
                    "path_map": {label: list(t) for label, t in edge.path_map.items()},
                    "targets": list(edge.targets),
                }
                for src, edge in self.conditional_edges.items()
            },
            "joins": [{"sources": list(j.sources), "target": j.target} for j in self.joins],
            "interrupts": list(self.interrupts),
            "reducers": dict(self.reducer_refs),
            "max_steps": self.max_steps,
        }

    @classmethod
    def from_json(
        cls,
        data: Mapping[str, Any],
        registry: Mapping[str, Callable[..., Any]] | Iterable[Callable[..., Any]],
    ) -> GraphDefinition:
        """Rebuild a definition from :meth:`to_json` data and the functions it references.

        ``registry`` is either a mapping ``reference -> callable`` or an iterable of callables
        (each keyed by :func:`function_ref`). A missing function is a :class:`GraphSetupError`.
        """
        if isinstance(registry, Mapping):
            functions: dict[str, Callable[..., Any]] = dict(registry)
        else:
            functions = {function_ref(fn): fn for fn in registry}
        try:
            nodes = {
                name: NodeSpec(
                    name=name,
                    kind=spec.get("kind", "node"),
                    function=spec.get("function"),
                    question=spec.get("question"),
                    payload_key=spec.get("payload_key"),
                )
                for name, spec in data["nodes"].items()
            }
            edges = {src: tuple(t) for src, t in data.get("edges", {}).items()}
            conditional = {
                src: ConditionalEdge(
                    source=src,
                    router=edge["router"],
                    path_map={label: tuple(t) for label, t in edge["path_map"].items()},
                )
                for src, edge in data.get("conditional_edges", {}).items()
            }
            joins = tuple(Join(tuple(j["sources"]), j["target"]) for j in data.get("joins", []))
            name, entry = str(data["name"]), str(data.get("entry") or "")
        except (KeyError, TypeError, AttributeError) as exc:
            raise GraphSetupError(f"graph JSON is malformed: {exc!r}", param=str(exc)) from exc
        return cls(
            name=name,
            entry=entry,
            nodes=nodes,
            edges=edges,
            conditional_edges=conditional,
            joins=joins,
            reducer_refs=dict(data.get("reducers", {})),
            max_steps=int(data.get("max_steps", DEFAULT_MAX_STEPS)),
            functions=functions,
        )

    def to_mermaid(self, *, direction: str = "TD") -> str:
        """A Mermaid ``flowchart`` of the graph (see :mod:`execution.graph.mermaid`)."""
        from execution.graph.mermaid import to_mermaid

        return to_mermaid(self, direction=direction)

    def successors(self, node: str) -> tuple[str, ...]:
        """Every node ``node`` may lead to (static edges, router targets, join targets)."""
        out = list(self.edges.get(node, ()))
        if node in self.conditional_edges:
            out.extend(self.conditional_edges[node].targets)
        out.extend(j.target for j in self.joins_by_source.get(node, ()))
        return tuple(dict.fromkeys(out))


def _is_async(fn: Callable[..., Any]) -> bool:
    return inspect.iscoroutinefunction(fn) or inspect.iscoroutinefunction(getattr(fn, "__call__", None))  # noqa: B004


def _resolve_reducer(ref: str, functions: Mapping[str, Callable[..., Any]], key: str) -> Reducer:
    if ref in functions:
        return functions[ref]
    if ref in BUILTIN_REDUCERS:
        return BUILTIN_REDUCERS[ref]
    raise GraphSetupError(
        f"reducer {ref!r} of state key {key!r} is neither a builtin ({', '.join(BUILTIN_REDUCERS)}) "
        "nor in the function registry",
        param=f"reducers.{key}",
    )


def validate(graph: GraphDefinition) -> None:
    """Every static check, shared by ``compile()`` and ``from_json``; raises :class:`GraphSetupError`."""
    nodes = graph.nodes
    if END in nodes:
        raise GraphSetupError(f"{END!r} is reserved for the end of the run", param=f"nodes.{END}")
    if not graph.entry:
        raise GraphSetupError("graph has no entry node; call set_entry(name)", param="entry")
    if graph.entry not in nodes:
        raise GraphSetupError(f"entry {graph.entry!r} is not a node", param="entry")
    if graph.max_steps < 1:
        raise GraphSetupError("max_steps must be >= 1", param="max_steps")
    for name, spec in nodes.items():
        if spec.kind not in ("node", "interrupt"):
            raise GraphSetupError(f"node {name!r} has unknown kind {spec.kind!r}", param=f"nodes.{name}.kind")
        if spec.kind == "node" and spec.function not in graph.functions:
            raise GraphSetupError(
                f"node {name!r}: function {spec.function!r} is not in the function registry",
                param=f"nodes.{name}.function",
            )

    def check_target(where: str, target: str) -> None:
        if target != END and target not in nodes:
            raise GraphSetupError(f"{where} points to unknown node {target!r}", param=where)

    for src, targets in graph.edges.items():
        if src not in nodes:
            raise GraphSetupError(f"edge from unknown node {src!r}", param=f"edges.{src}")
        if not targets:
            raise GraphSetupError(f"edge from {src!r} has no target", param=f"edges.{src}")
        for t in targets:
            check_target(f"edges.{src}", t)
    for src, edge in graph.conditional_edges.items():
        if src not in nodes:
            raise GraphSetupError(
                f"conditional edge from unknown node {src!r}", param=f"conditional_edges.{src}"
            )
        if src in graph.edges:
            raise GraphSetupError(
                f"node {src!r} has both an edge and a conditional edge; let the router return every target",
                param=f"conditional_edges.{src}",
            )
        if edge.router not in graph.functions:
            raise GraphSetupError(
                f"router {edge.router!r} of {src!r} is not in the function registry",
                param=f"conditional_edges.{src}.router",
            )
        if not edge.path_map:
            raise GraphSetupError(
                f"conditional edge from {src!r} lists no targets", param=f"conditional_edges.{src}"
            )
        for label, targets in edge.path_map.items():
            for t in targets:
                check_target(f"conditional_edges.{src}.path_map.{label}", t)
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
        for s in join.sources:
            if s not in nodes:
                raise GraphSetupError(f"join source {s!r} is not a node", param=f"joins[{i}].sources")
        if join.target not in nodes:
            raise GraphSetupError(f"join target {join.target!r} is not a node", param=f"joins[{i}].target")

    has_out = set(graph.edges) | set(graph.conditional_edges) | {s for j in graph.joins for s in j.sources}
    for name in nodes:
        if name not in has_out:
            raise GraphSetupError(
                f"node {name!r} has no outgoing edge; add_edge({name!r}, END) if the run should stop there",
                param=f"nodes.{name}",
            )

    succ: dict[str, list[str]] = {n: [] for n in nodes}
    for src, targets in graph.edges.items():
        succ[src].extend(targets)
    for src, edge in graph.conditional_edges.items():
        succ[src].extend(edge.targets)
    for join in graph.joins:
        for s in join.sources:
            succ[s].append(join.target)
    seen = {graph.entry}
    stack = [graph.entry]
    while stack:
        for nxt in succ.get(stack.pop(), ()):
            if nxt != END and nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    unreachable = [n for n in nodes if n not in seen]
    if unreachable:
        raise GraphSetupError(
            f"unreachable from entry {graph.entry!r}: {', '.join(unreachable)}",
            param=f"nodes.{unreachable[0]}",
        )
