"""The LLM planner behind the run loop's contract (:class:`shared.planning.RunPlanner`), and the
one entry point the dialogue calls before a turn runs.

The run loop plans as before (the deterministic planner: the LLM plans a turn in the dialogue,
where slot filling and approval gates see its plan); after a recoverable failure of an LLM plan,
the LLM rewrites the rest, and the deterministic replanner is the fallback when it cannot.
"""

from __future__ import annotations

from collections.abc import Callable

from planner.llm.planner import LlmPlanner, Planned, PlanRequest
from planner.llm.settings import PlannerLlmSettings
from planner.run_planner import DeterministicRunPlanner
from shared.catalog import Catalog
from shared.models import ExecutionIntent, ExecutionPlan
from shared.planning import Replan, ReplanContext, RunPlanner


class LlmRunPlanner:
    def __init__(self, llm: LlmPlanner, deterministic: DeterministicRunPlanner | None = None):
        self.llm = llm
        self.deterministic = deterministic or DeterministicRunPlanner()

    def plan(self, intent: ExecutionIntent, catalog: Catalog) -> ExecutionPlan:
        return self.deterministic.plan(intent, catalog)

    async def replan(self, plan: ExecutionPlan, context: ReplanContext) -> Replan | None:
        rewritten = await self.llm.rewrite(plan, context)
        if rewritten is not None:
            return rewritten
        return await self.deterministic.replan(plan, context)


def build_run_planner(settings: PlannerLlmSettings, catalog: Callable[[], Catalog]) -> RunPlanner:
    """The deterministic planner, or the LLM one when ``PLANNER_LLM`` and an endpoint are set."""
    if not settings.enabled:
        return DeterministicRunPlanner()
    return LlmRunPlanner(LlmPlanner(settings, catalog))


async def plan_with_llm(run_planner: RunPlanner | None, request: PlanRequest) -> Planned | None:
    """What the LLM planner makes of a turn the deterministic planner planned: None when there is
    no LLM planner or the deterministic plan is enough (nothing is called)."""
    if not isinstance(run_planner, LlmRunPlanner):
        return None
    reason = run_planner.llm.reason_to_plan(request)
    if reason is None:
        return None
    return await run_planner.llm.plan(request, reason)
