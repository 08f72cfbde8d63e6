"""A plan the LLM proposed, checked before anything runs.

Every problem is reported (not only the first), worded so the model can fix it in one round
and so an operator reading the trace knows what was refused:

* the reply has the tool's shape (its JSON Schema, errors with field paths);
* at most ``max_steps`` steps, ids above those of the steps already kept (a rewrite);
* each step names a capability of the catalog, in the domain that offers it;
* its parameters satisfy that capability's ``parameters`` schema (values an earlier step gives
  at run time, ``${N.field}`` and ``${= ...}``, are only checked to be resolvable);
* references and expressions parse and read only earlier steps, and the graph has no cycle
  (:func:`shared.plan_graph.validate_plan`).

Referenced steps are added to ``depends_on``, so the plan's graph (and the inspector) shows every
edge the executor will wait on.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import pydantic

from planner.late_params import answered_late, split_late
from shared.catalog import CapabilityRef, Catalog
from shared.errors import PlanError
from shared.json_schema import validators
from shared.models import CombineMode, ExecutionPlan, ExecutionStep
from shared.plan_graph import validate_plan


@dataclass(frozen=True)
class Proposal:
    """What the model proposed, read: a valid plan, or the errors, or its reason not to plan."""

    plan: ExecutionPlan | None = None
    errors: list[str] = field(default_factory=list)
    cannot_plan: str | None = None


def read_proposal(
    arguments: Any,
    catalog: Catalog,
    tool_schema: dict[str, Any],
    *,
    max_steps: int,
    kept: Sequence[ExecutionStep] = (),
    first_id: int = 1,
) -> Proposal:
    """Check ``arguments`` (the tool call's, parsed) against the catalog; ``kept`` are the steps
    of a running plan a rewrite continues from (they come first in the plan), and new steps are
    numbered from ``first_id`` on (a rewrite never reuses an id the run has a trace for)."""
    shape = [_worded(e) for e in validators(tool_schema).explain.iter_errors(arguments)]
    if shape:
        return Proposal(errors=shape)
    refusal = str(arguments.get("cannot_plan") or "").strip()
    raw_steps = arguments.get("steps") or []
    if refusal and not raw_steps:
        return Proposal(cannot_plan=refusal)
    if not raw_steps:
        return Proposal(errors=["steps: the plan has no steps (set cannot_plan when none can answer)"])
    steps: list[ExecutionStep] = []
    errors: list[str] = []
    for index, raw in enumerate(raw_steps):
        try:
            steps.append(ExecutionStep.model_validate(raw))
        except pydantic.ValidationError as exc:
            errors += [f"steps.{index}.{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors()]
    if len(raw_steps) > max_steps:
        errors.append(f"steps: {len(raw_steps)} steps proposed, at most {max_steps} are allowed")
    first = max(first_id, max((s.id for s in kept), default=0) + 1)
    for index, step in enumerate(steps):
        if step.id < first:
            errors.append(f"steps.{index}.id: {step.id} is taken; new steps start at {first}")
        errors += _capability_errors(step, index, catalog)
    if errors:
        return Proposal(errors=errors)
    combine: CombineMode = arguments.get("combine_mode") or "report"
    # copies: the kept steps belong to the running plan, which this one replaces
    kept_copies = [s.model_copy() for s in kept]
    plan = ExecutionPlan(
        steps=[*kept_copies, *steps], execution_mode="dag", combine_mode=combine, planner="llm"
    )
    try:
        dependencies = validate_plan(plan)
    except PlanError as exc:
        return Proposal(errors=[f"{exc.param or 'steps'}: {exc.message}"])
    for step in plan.steps:
        step.depends_on = sorted(dependencies[step.id])
    return Proposal(plan=plan)


def _capability_errors(step: ExecutionStep, index: int, catalog: Catalog) -> list[str]:
    ref = catalog.find_capability(step.capability, step.domain)
    if ref is None or ref.domain != step.domain:  # the catalog's lookup takes the domain as a hint
        offered = [r.domain for r in _offers(catalog, step.capability)]
        hint = f" (it is offered by {', '.join(offered)})" if offered else ""
        return [f"steps.{index}: domain '{step.domain}' has no capability '{step.capability}'{hint}"]
    static, late = split_late(step.params)
    errors = []
    for error in ref.capability.parameter_validators.explain.iter_errors(static):
        if answered_late(error, late):
            continue
        errors.append(f"steps.{index}.params{_path(error)}: {error.message}")
    return errors


def _offers(catalog: Catalog, capability: str) -> list[CapabilityRef]:
    return [
        CapabilityRef(m.domain, c)
        for m in catalog.manifests()
        for c in m.capabilities
        if c.name == capability
    ]


def _path(error: Any) -> str:
    return "".join(f".{p}" for p in error.absolute_path)


def _worded(error: Any) -> str:
    path = ".".join(str(p) for p in error.absolute_path) or "$"
    return f"{path}: {error.message}"
