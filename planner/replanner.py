"""Replanning after a recoverable failure: a new plan from the failed step on.

The run loop hands over a :class:`~shared.planning.ReplanContext` (the failed step, its output,
which replan this is). Three generic moves, tried in order; nothing here knows a domain:

(b) **re-issue with a correction**: the failure carries ``failure.suggestions`` (parameter
    patches, "did you mean"). The first one not tried yet, and that changes something, is applied
    to the same step; everything that depends on it runs again too. The new plan says which
    values it changed (``Replan.changes``): the run loop tells the person, or, for a capability
    that changes something, asks them before calling it.
(a) **drop the failed branch**: when the failed step is one of several independent primary
    branches of a ``report`` plan, it (and what depends on it) becomes optional, so the report
    answers with the rest and names the gap.
(c) **give up**: ``None``; the run ends with a definitive failure.

Steps that already completed are kept (the executor resumes them, it does not call them again).
"""

from __future__ import annotations

from typing import Any

from shared.models import DomainOutput, ExecutionPlan
from shared.planning import ParamChange, Replan, ReplanContext, param_changes
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
        found: tuple[dict[str, Any], list[ParamChange]] | None = None
        for patch in suggestions(context.output):
            # a suggestion is domain data, never a reference the planner wrote
            changes = param_changes(failed, escape(patch))
            # a patch the step already carries (a yes to it ran it) would only fail the same way
            if patch not in context.tried and changes:
                found = patch, changes
                break
        if found is None:
            return None
        patch, changes = found
        new = plan.model_copy(deep=True)
        for step in new.steps:
            if step.id == failed.id:
                step.params = {**step.params, **escape(patch)}
        note = f"replan {context.attempt}: re-issue step {failed.id} ({failed.capability}) with {patch}"
        new.notes = [*new.notes, note]
        return Replan(new, "reissue", note, frozenset(_dependents(plan, failed.id)), patch, changes)

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
