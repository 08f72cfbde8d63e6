"""``ExecutionIntent`` -> ``ExecutionPlan``, driven only by capability metadata.

* ``decomposition.array_params``: a parameter holding several values becomes one step per value
  (renamed to ``single_param_name``), run in parallel and combined as a report; a one-value list
  is unwrapped.
* Several resolved capabilities (an enum value mapping to a list) -> one step each, parallel.
* ``composition``: when ``enabled_if`` holds, one follow-up step for the first catalogued
  capability whose role is in ``followup_roles``, fed from the primary steps' outputs through
  ``${N.field}`` references, optional (``required=False``).

Every value taken from the intent's parameters came from the person, so it is escaped
(:func:`shared.references.escape`) before it enters a plan: only references the planner
writes itself are ever expanded.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Any

from shared.catalog import CapabilityRef, Catalog
from shared.errors import PlanError
from shared.manifest import ArrayParamRule, Composition
from shared.models import ExecutionIntent, ExecutionPlan, ExecutionStep
from shared.references import escape, reference

#: Upper bound on the steps one request may fan out to (several list parameters multiply).
MAX_STEPS = 64
STEP_EXPLANATION = "_step_explanation"
STEP_RESULT = "_step_result"


@dataclass
class _Split:
    params: list[dict[str, Any]]
    notes: list[str]
    concurrency: int | None


class TaskDecomposer:
    def __init__(self, catalog: Catalog):
        self.catalog = catalog

    def decompose(self, intent: ExecutionIntent) -> ExecutionPlan:
        names = intent.capabilities or [intent.capability]
        refs = [self._capability(intent.domain, name) for name in names]
        composition = next((c for c in (r.capability.metadata.composition for r in refs) if c), None)
        trigger = _trigger_param(composition)
        base = {k: v for k, v in intent.parameters.items() if k != trigger}

        steps: list[ExecutionStep] = []
        notes: list[str] = []
        limits: list[int] = []
        for ref in refs:
            split = _split(ref, base)
            notes.extend(split.notes)
            if split.concurrency is not None:
                limits.append(split.concurrency)
            for params in split.params:
                steps.append(
                    ExecutionStep(
                        id=len(steps) + 1,
                        domain=ref.domain,
                        capability=ref.capability.name,
                        params=escape(params),
                    )
                )
        if len(steps) > MAX_STEPS:
            raise PlanError(f"the request fans out to more than {MAX_STEPS} steps", param="parameters")
        for step in steps:
            step.output_key = "primary" if len(steps) == 1 else f"primary_{step.id}"
        if len(refs) > 1:
            notes.append(f"goal resolved to {len(refs)} capabilities ({', '.join(names)}): one step each")

        plan = ExecutionPlan(steps=steps, notes=notes)
        if len(steps) > 1:
            plan.execution_mode, plan.combine_mode = "parallel", "report"
            plan.max_concurrency = min(limits) if limits else plan.max_concurrency
        if composition is not None and _enabled(composition, intent):
            self._compose(plan, composition, intent)
        return plan

    # ------------------------------------------------------------------ helpers

    def _capability(self, domain: str, name: str) -> CapabilityRef:
        ref = self.catalog.find_capability(name, domain)
        if ref is None:
            raise PlanError(f"no registered domain offers capability '{name}'", param="capability")
        return ref

    def _compose(self, plan: ExecutionPlan, composition: Composition, intent: ExecutionIntent) -> None:
        target = next(
            (
                ref
                for m in self.catalog.manifests()
                for c in m.capabilities
                if c.role in composition.followup_roles
                for ref in [CapabilityRef(m.domain, c)]
            ),
            None,
        )
        roles = ", ".join(composition.followup_roles)
        if target is None:
            plan.notes.append(f"composition requested, but no registered capability has role {roles}")
            return
        primary = [s.id for s in plan.steps]
        params: dict[str, Any] = {}
        for name, source in composition.param_map.items():
            value = _param_source(source.from_parameters, primary, intent.parameters)
            if value is not None:
                params[name] = value
        plan.steps.append(
            ExecutionStep(
                id=len(plan.steps) + 1,
                domain=target.domain,
                capability=target.capability.name,
                params=params,
                depends_on=primary,
                required=False,
                output_key="followup",
            )
        )
        plan.execution_mode, plan.combine_mode = "dag", "report"
        plan.notes.append(
            f"composition: {target.capability.name} (role {target.capability.role}) follows step(s) "
            f"{', '.join(map(str, primary))}, optional"
        )


def _split(ref: CapabilityRef, params: dict[str, Any]) -> _Split:
    """Apply the capability's ``array_params`` rules: lists fan out, one-value lists unwrap."""
    fixed = dict(params)
    axes: list[tuple[ArrayParamRule, list[Any]]] = []
    notes: list[str] = []
    for rule in ref.capability.metadata.decomposition.array_params:
        value = fixed.get(rule.param_name)
        if not isinstance(value, list):
            continue
        del fixed[rule.param_name]
        if len(value) == 1:
            fixed[rule.single_param_name] = value[0]
        elif len(value) > 1:
            axes.append((rule, value))
            notes.append(
                f"decomposition: {rule.param_name} has {len(value)} values -> one {ref.capability.name} "
                f"step each ({rule.single_param_name}), parallel, max_concurrency {rule.max_concurrency}"
            )
    if not axes:
        return _Split([fixed], notes, None)
    if math.prod(len(values) for _, values in axes) > MAX_STEPS:
        raise PlanError(f"the request fans out to more than {MAX_STEPS} steps", param="parameters")
    names = [rule.single_param_name for rule, _ in axes]
    combos = itertools.product(*(values for _, values in axes))
    variants = [{**fixed, **dict(zip(names, combo, strict=True))} for combo in combos]
    return _Split(variants, notes, min(rule.max_concurrency for rule, _ in axes))


def _trigger_param(composition: Composition | None) -> str | None:
    """The parameter that switches composition on (``parameters.notify`` -> ``notify``): it is a
    planning instruction, not an input of the primary capability."""
    if composition is None or composition.enabled_if is None:
        return None
    return composition.enabled_if.trigger_param()


def _enabled(composition: Composition, intent: ExecutionIntent) -> bool:
    if composition.enabled_if is None:
        return True
    return composition.enabled_if.holds(intent.model_dump(mode="json"))


def _param_source(sources: list[str], primary: list[int], parameters: dict[str, Any]) -> Any:
    """The first source that yields a value: a reference to the primary steps' output, or a
    (escaped) copy of one of the primary request's parameters."""
    for source in sources:
        if source == STEP_EXPLANATION:
            return "\n".join(reference(i, "explanation") for i in primary)
        if source == STEP_RESULT:
            return (
                reference(primary[0], "result")
                if len(primary) == 1
                else [reference(i, "result") for i in primary]
            )
        if parameters.get(source) is not None:
            return escape(parameters[source])
    return None
