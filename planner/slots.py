"""Slot checking: before any step runs, its parameters must satisfy its capability's
``parameters`` schema, and the goal's required entities must be there.

A problem names the goal entity that would fix it (the dialogue asks the person for it) or, when
no entity fills the parameter, only the parameter (the platform then says what is missing and
calls nothing). Only the steps of the goal's own capabilities are checked: composition
follow-ups get their parameters from earlier steps' outputs at run time.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

import jsonschema

from planner.late_params import answered_late, split_late
from shared.catalog import Catalog
from shared.json_schema import SchemaValidators
from shared.manifest import Goal
from shared.models import ExecutionIntent, ExecutionPlan, ExecutionStep, IntentOutput

Problem = Literal["missing", "invalid"]


@dataclass(frozen=True)
class SlotProblem:
    """A parameter the step cannot be called without (``missing``) or with (``invalid``)."""

    param: str
    problem: Problem
    #: The goal entity that fills ``param`` (``None``: none does, nothing can be asked).
    entity: str | None
    #: The schema's own words, for the trace.
    detail: str = ""


def _missing_properties(error: jsonschema.ValidationError) -> list[str]:
    """The properties a ``required`` error (or every branch of an ``anyOf``/``oneOf``) lacks."""
    if error.validator == "required":
        present = error.instance if isinstance(error.instance, dict) else {}
        return [p for p in error.validator_value if p not in present]
    if error.validator in ("anyOf", "oneOf") and not error.absolute_path:
        return [p for sub in error.context or [] for p in _missing_properties(sub)]
    return []


def schema_problems(compiled: SchemaValidators, params: dict[str, Any], goal: Goal) -> list[SlotProblem]:
    """What ``params`` lack or get wrong against a capability's compiled parameter schema, each
    tied to a goal entity if one fills it."""
    problems: list[SlotProblem] = []
    if compiled.check.is_valid(params):  # the common case, on every turn: the fast check only
        return problems
    # a value an earlier step gives at run time is there, only not known yet
    params, late = split_late(params)
    for error in compiled.explain.iter_errors(params):
        if answered_late(error, late):
            continue
        missing = [p for p in _missing_properties(error) if p not in late]
        if missing:
            # of several alternatives, ask for one the person can give (a goal entity)
            asked = next((p for p in missing if p in goal.entities_schema), missing[0])
            entity = asked if asked in goal.entities_schema else None
            problems.append(SlotProblem(asked, "missing", entity, error.message))
        elif error.absolute_path:
            param = str(error.absolute_path[0])
            entity = param if param in goal.entities_schema else None
            problems.append(SlotProblem(param, "invalid", entity, error.message))
        else:
            problems.append(SlotProblem("", "invalid", None, error.message))
    return problems


def own_steps(execution_intent: ExecutionIntent, plan: ExecutionPlan) -> list[ExecutionStep]:
    """The plan's steps of the goal's own capabilities (their parameters are the goal's
    entities), not composition follow-ups or other domains' steps."""
    own = set(execution_intent.capabilities or [execution_intent.capability])
    return [s for s in plan.steps if s.capability in own and s.domain == execution_intent.domain]


def check_slots(
    intent: IntentOutput, execution_intent: ExecutionIntent, plan: ExecutionPlan, catalog: Catalog
) -> list[SlotProblem]:
    """Every reason the plan cannot be called yet: required goal entities the person did not
    name (a deterministic plan), a ``required_one_of`` group none of which was named (or, in an
    LLM plan, one of the goal's steps does not pass), then schema violations of those steps.
    Empty = call away."""
    if intent.goal is None or execution_intent.goal is None:
        return []
    goal = catalog.find_goal(execution_intent.domain, execution_intent.goal)
    if goal is None:
        return []
    goal_steps = own_steps(execution_intent, plan)
    # the LLM planner's plan takes the goal's entities from wherever it found them (another
    # step's output, "${= ...}"): only what its steps' parameters lack is asked for
    problems: list[SlotProblem] = []
    # what a group is looked for in: the person's entities (a deterministic plan passes them),
    # else each step's own parameters (said, or bound to an earlier step's output)
    named: list[Mapping[str, object]] = [intent.entities]
    if plan.planner == "deterministic":
        problems = [
            SlotProblem(name, "missing", name, "required entity")
            for name, spec in goal.entities_schema.items()
            # a declared default stands in for an entity the person left out
            if spec.required and spec.default is None and intent.entities.get(name) in (None, "", [])
        ]
    else:
        named = [step.params for step in goal_steps]
    for group in filter(None, map(goal.missing_group, named)):
        # asked as the group (its first alternative is the one filled)
        problems.append(SlotProblem(group[0], "missing", group[0], f"one of {', '.join(group)}"))
    for step in goal_steps:
        ref = catalog.find_capability(step.capability, step.domain)
        if ref is None:
            continue
        problems.extend(schema_problems(ref.capability.parameter_validators, step.params, goal))
    seen: set[tuple[str, str | None]] = set()
    unique = []
    for p in problems:
        if (p.param, p.entity) not in seen:
            seen.add((p.param, p.entity))
            unique.append(p)
    return unique
