"""The planner's front door: memory fill, then resolve, then decompose, with the reasons in
``plan.notes`` so a trace explains why the plan looks the way it does."""

from __future__ import annotations

from planner.goal_resolver import GoalResolver
from planner.memory import SessionMemory, fill_from_memory
from planner.task_decomposer import TaskDecomposer
from shared.catalog import Catalog
from shared.models import ExecutionIntent, ExecutionPlan, IntentOutput


class PlannerService:
    def __init__(self, catalog: Catalog):
        self.update_catalog(catalog)

    def update_catalog(self, catalog: Catalog) -> None:
        """Swap the catalog (the registry calls this when domains change)."""
        self.catalog = catalog
        self.resolver = GoalResolver(catalog)
        self.decomposer = TaskDecomposer(catalog)

    def plan(
        self, intent: IntentOutput, memory: SessionMemory | None = None
    ) -> tuple[ExecutionIntent, ExecutionPlan]:
        intent, notes = fill_from_memory(intent, memory, self.catalog)
        execution_intent = self.resolver.resolve(intent)
        if execution_intent.goal is None:
            notes.append(f"out of scope: answered by fallback capability {execution_intent.capability}")
        plan = self.decomposer.decompose(execution_intent)
        plan.notes = [*notes, *plan.notes]
        return execution_intent, plan
