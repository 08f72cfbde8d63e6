"""Planning: ``IntentOutput`` -> ``ExecutionIntent`` -> ``ExecutionPlan``, deterministically, and
optionally by an LLM (``planner.llm``, off unless ``PLANNER_LLM`` is set; docs/planning.md) for
requests the decomposer cannot express.

Everything here reads manifests through :class:`shared.catalog.Catalog`; no module names a
domain, a goal or a capability, so a new domain needs no planner change. The run loop reaches the
planner only through :class:`shared.planning.RunPlanner` (:class:`DeterministicRunPlanner`, or
``planner.llm.LlmRunPlanner``).
``planner.slots`` checks a plan's parameters against the capabilities' schemas before any call.
"""

from planner.goal_resolver import GoalResolver
from planner.memory import SessionMemory
from planner.run_planner import DeterministicRunPlanner
from planner.service import PlannerService
from planner.task_decomposer import TaskDecomposer

__all__ = ["DeterministicRunPlanner", "GoalResolver", "PlannerService", "SessionMemory", "TaskDecomposer"]
