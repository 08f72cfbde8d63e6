"""Does a request need a plan at all?

A request that resolves to one capability, with no list parameter to fan out and no composition
switched on, is one call: the run loop makes it directly instead of building and walking a DAG.
"""

from __future__ import annotations

from planner.task_decomposer import TaskDecomposer
from shared.catalog import Catalog
from shared.models import ExecutionIntent


def needs_plan(intent: ExecutionIntent, catalog: Catalog) -> bool:
    if len(intent.capabilities or [intent.capability]) > 1:
        return True
    ref = catalog.find_capability(intent.capability, intent.domain)
    if ref is None:
        return True  # let the planner produce the plain "no such capability" error
    meta = ref.capability.metadata
    for rule in meta.decomposition.array_params:
        value = intent.parameters.get(rule.param_name)
        if isinstance(value, list) and len(value) > 1:
            return True
    if meta.composition is not None:
        # the decomposer is the one judge of enabled_if; one step means no composition
        return len(TaskDecomposer(catalog).decompose(intent).steps) > 1
    return False
