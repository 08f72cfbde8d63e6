"""Render a :class:`~graph.definition.GraphDefinition` as a Mermaid flowchart.

Solid arrows are unconditional edges, dotted arrows carry the router label that selects them,
thick arrows feed a join barrier; interrupt nodes are drawn as hexagons (a person acts there).

>>> from graph import GraphBuilder, END
>>> def ask_llm(state): return {}
>>> def route(state): return "done"
>>> graph = (
...     GraphBuilder("demo")
...     .add_node("llm", ask_llm)
...     .add_interrupt("human", question="ok?")
...     .add_conditional_edges("llm", route, {"done": END, "ask": "human"})
...     .add_edge("human", "llm")
...     .set_entry("llm")
...     .compile()
... )
>>> print(graph.to_mermaid())
flowchart TD
    __start__([start])
    __end__([end])
    llm[llm]
    human{{human}}
    __start__ --> llm
    human --> llm
    llm -.->|done| __end__
    llm -.->|ask| human
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from graph.state import END

if TYPE_CHECKING:
    from graph.definition import GraphDefinition

_SAFE = re.compile(r"[^A-Za-z0-9_]")


def _id(name: str) -> str:
    return _SAFE.sub("_", name)


def _label(text: str) -> str:
    return text.replace('"', "'").replace("|", "/")


def to_mermaid(graph: GraphDefinition[Any], *, direction: str = "TD") -> str:
    lines = [f"flowchart {direction}", "    __start__([start])", f"    {END}([end])"]
    for name, spec in graph.nodes.items():
        shape = f"{{{{{_label(name)}}}}}" if spec.kind == "interrupt" else f"[{_label(name)}]"
        lines.append(f"    {_id(name)}{shape}")
    lines.append(f"    __start__ --> {_id(graph.entry)}")
    for src, targets in graph.edges.items():
        lines.extend(f"    {_id(src)} --> {_id(t)}" for t in targets)
    for src, edge in graph.conditional_edges.items():
        for label, targets in edge.path_map.items():
            lines.extend(f"    {_id(src)} -.->|{_label(label)}| {_id(t)}" for t in targets)
    for join in graph.joins:
        lines.extend(f"    {_id(s)} ==> {_id(join.target)}" for s in join.sources)
    return "\n".join(lines)
