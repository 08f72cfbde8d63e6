"""Replanning after a recoverable failure: a new plan from the failed step on.

The run loop hands over a :class:`~shared.planning.ReplanContext` (the failed step, its output,
which replan this is). Three generic moves, tried in order; nothing here knows a domain:

(b) **re-issue with a correction**: the failure carries ``failure.suggestions`` (parameter
    patches, "did you mean"). The first one not tried yet is applied to the same step; everything
    that depends on it runs again too.
(a) **drop the failed branch**: when the failed step is one of several independent primary
    branches of a ``report`` plan, it (and what depends on it) becomes optional, so the report
    answers with the rest and names the gap.
(c) **give up**: ``None``; the run ends with a definitive failure.

Steps that already completed are kept (the executor resumes them, it does not call them again).
"""

from __future__ import annotations

from typing import Any

from shared.models import DomainOutput, ExecutionPlan
from shared.planning import Replan, ReplanContext
from shared.references import escape

__all__ = ["Replan", "ReplanContext", "Replanner", "suggestions"]


def suggestions(output: DomainOutput | None) -> list[dict[str, Any]]:
    """The failure's suggestions as parameter patches."""
    if output is None or output.failure is None:
        return []
    return [dict(patch) for patch in output.failure.suggestions if patch]


def _dependents(plan: ExecutionPlan, root: int) -> set[int]:
    found = {root}
    changed = True
    while changed:
        changed = False
        for step in plan.steps:
            if step.id not in found and found & set(step.depends_on):
                found.add(step.id)
                changed = True
    return found


class Replanner:
    def replan(self, plan: ExecutionPlan, context: ReplanContext) -> Replan | None:
        return self._reissue(plan, context) or self._drop_branch(plan, context)

    @staticmethod
    def _reissue(plan: ExecutionPlan, context: ReplanContext) -> Replan | None:
        failed = context.failed_step
        patch = next((p for p in suggestions(context.output) if p not in context.tried), None)
        if patch is None:
            return None
        new = plan.model_copy(deep=True)
        for step in new.steps:
            if step.id == failed.id:
                # a suggestion is domain data, never a reference the planner wrote
                step.params = {**step.params, **escape(patch)}
        note = f"replan {context.attempt}: re-issue step {failed.id} ({failed.capability}) with {patch}"
        new.notes = [*new.notes, note]
        return Replan(new, "reissue", note, frozenset(_dependents(plan, failed.id)), patch)

    @staticmethod
    def _drop_branch(plan: ExecutionPlan, context: ReplanContext) -> Replan | None:
        failed = context.failed_step
        independent = not failed.depends_on and sum(1 for s in plan.steps if not s.depends_on) > 1
        if not (failed.required and plan.combine_mode == "report" and independent):
            return None
        new = plan.model_copy(deep=True)
        dropped = _dependents(plan, failed.id)
        for step in new.steps:
            if step.id in dropped:
                step.required = False
        note = f"replan {context.attempt}: drop the failed branch of step {failed.id} ({failed.capability})"
        new.notes = [*new.notes, note]
        return Replan(new, "drop_branch", note)
