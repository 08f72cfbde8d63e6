"""Replanning after a recoverable failure (seed 004 ``REPLANNING``): a new plan from that point.

The run loop hands the planner a :class:`ReplanContext` (the failed step, its output, which replan
this is). Three generic moves, tried in order — nothing here knows a domain:

(b) **re-issue with a correction**: the failure output carries ``metadata.suggestions`` (a "did you
    mean" list). Each suggestion is either a parameter patch (``{"symbol": "AAPL"}``) or a bare value
    for ``metadata.suggestion_param`` (or ``metadata.choice_param``). The first suggestion not tried
    yet is applied to the same step; everything that depends on it runs again too.
(a) **drop the failed branch**: when the failed step is optional, or it is one of several independent
    primary branches of a ``report`` plan, it (and what depends on it) becomes optional, so the
    report answers with the rest and names the gap.
(c) **give up**: ``None``; the run ends with a definitive failure.

Steps that already completed are kept (the executor resumes them, it does not call them again).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from execution.references import escape
from shared.models import DomainOutput, ExecutionPlan, ExecutionStep


@dataclass(frozen=True)
class ReplanContext:
    failed_step: ExecutionStep
    output: DomainOutput | None
    #: 1 for the first replan of the run, 2 for the second...
    attempt: int
    #: Parameter patches already tried for this step (so a suggestion is never tried twice).
    tried: list[dict[str, Any]] = field(default_factory=list)


@dataclass(frozen=True)
class Replan:
    plan: ExecutionPlan
    #: "reissue" or "drop_branch"
    action: str
    note: str
    #: Step ids whose earlier results are void (they run again).
    rerun: frozenset[int] = frozenset()
    patch: dict[str, Any] = field(default_factory=dict)


def suggestions(output: DomainOutput | None) -> list[dict[str, Any]]:
    """The failure's suggestions as parameter patches."""
    if output is None:
        return []
    raw = output.metadata.get("suggestions")
    if not isinstance(raw, list):
        return []
    param = output.metadata.get("suggestion_param") or output.metadata.get("choice_param")
    patches: list[dict[str, Any]] = []
    for item in raw:
        if isinstance(item, dict) and item:
            patches.append(dict(item))
        elif isinstance(item, str | int | float) and isinstance(param, str):
            patches.append({param: item})
    return patches


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
    def replan(self, plan: ExecutionPlan, ctx: ReplanContext) -> Replan | None:
        failed = ctx.failed_step
        for patch in suggestions(ctx.output):
            if patch in ctx.tried:
                continue
            new = plan.model_copy(deep=True)
            for step in new.steps:
                if step.id == failed.id:
                    step.params = {**step.params, **escape(patch)}
            note = f"replan {ctx.attempt}: re-issue step {failed.id} ({failed.capability}) with {patch}"
            new.notes = [*new.notes, note]
            return Replan(new, "reissue", note, frozenset(_dependents(plan, failed.id)), patch)
        independent = not failed.depends_on and sum(1 for s in plan.steps if not s.depends_on) > 1
        if failed.required and (plan.combine_mode == "report" and independent):
            new = plan.model_copy(deep=True)
            dropped = _dependents(plan, failed.id)
            for step in new.steps:
                if step.id in dropped:
                    step.required = False
            note = f"replan {ctx.attempt}: drop the failed branch of step {failed.id} ({failed.capability})"
            new.notes = [*new.notes, note]
            return Replan(new, "drop_branch", note)
        return None
