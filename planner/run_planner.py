"""The planner side of the run loop (:class:`shared.planning.RunPlanner`): the plan for a
resolved intent, and a new plan after a recoverable failure."""

from __future__ import annotations

from planner.replanner import Replanner
from planner.task_decomposer import TaskDecomposer
from shared.catalog import Catalog
from shared.models import ExecutionIntent, ExecutionPlan
from shared.planning import Replan, ReplanContext


class DeterministicRunPlanner:
    """Plans from the catalog alone (the decomposer); a request of one call is a one-step plan,
    so it keeps validation, retries and replanning."""

    def __init__(self, replanner: Replanner | None = None):
        self._replanner = replanner or Replanner()

    def plan(self, intent: ExecutionIntent, catalog: Catalog) -> ExecutionPlan:
        return TaskDecomposer(catalog).decompose(intent)

    async def replan(self, plan: ExecutionPlan, context: ReplanContext) -> Replan | None:
        return self._replanner.replan(plan, context)
