"""Forks: a plan's independent branches, each run over its own isolated copy of the run state.

:func:`independent_branches` splits a plan into its weakly connected components. The executor
runs each as its own fork (own outputs, a deep copy of the context), so a branch can neither
read nor clobber another's state; the branches share the plan's concurrency limit.

>>> from shared.models import ExecutionStep as S
>>> steps = [S(id=1, domain="d", capability="a"), S(id=2, domain="d", capability="b", depends_on=[1]),
...          S(id=3, domain="d", capability="c")]
>>> [[s.id for s in b] for b in independent_branches(steps, {1: set(), 2: {1}, 3: set()})]
[[1, 2], [3]]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from shared.models import ExecutionStep


def independent_branches(
    steps: Sequence[ExecutionStep], deps: Mapping[int, set[int]]
) -> list[list[ExecutionStep]]:
    """The plan's independent sub-graphs (weakly connected components), each in plan order,
    ordered by their first step."""
    parent = {s.id: s.id for s in steps}

    def root(node: int) -> int:
        while parent[node] != node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    for step in steps:
        for dep in deps.get(step.id, set()):
            if dep in parent:
                parent[root(step.id)] = root(dep)
    groups: dict[int, list[ExecutionStep]] = {}
    for step in steps:
        groups.setdefault(root(step.id), []).append(step)
    return list(groups.values())
