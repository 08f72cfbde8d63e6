"""Deterministic planning: ``IntentOutput`` -> ``ExecutionIntent`` -> ``ExecutionPlan``.

Everything here reads manifests through :class:`shared.catalog.Catalog`; no module names a
domain, a goal or a capability (seed 003, "Anti-Patterns").
"""

from planner.goal_resolver import GoalResolver
from planner.memory import SessionMemory
from planner.service import PlannerService
from planner.task_decomposer import TaskDecomposer

__all__ = ["GoalResolver", "PlannerService", "SessionMemory", "TaskDecomposer"]
