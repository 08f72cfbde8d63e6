"""The contract between the run loop (``execution``) and the planner (``planner``).

The run loop asks a :class:`RunPlanner` for a plan and, after a recoverable failure, for a new
one; the planner implements it (``planner.DeterministicRunPlanner``, or ``planner.llm.LlmRunPlanner``
which rewrites the LLM's own plans from what the run observed) and the caller wires the two
together, so neither package imports the other.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from shared.catalog import Catalog
from shared.expressions import OPEN, Expression, ExpressionError, expressions_in, split_text
from shared.models import (
    DomainOutput,
    ExecutionIntent,
    ExecutionPlan,
    ExecutionStep,
    ParamChange,
    StepTrace,
)
from shared.references import TOKEN, references

ReplanAction = Literal["reissue", "drop_branch", "rewrite"]


@dataclass(frozen=True)
class ReplanContext:
    """What the run loop knows about the failure it asks to plan around."""

    failed_step: ExecutionStep
    output: DomainOutput | None
    #: 1 for the first replan of the run, 2 for the second...
    attempt: int
    #: Parameter patches already tried for this step (so a suggestion is never tried twice).
    tried: list[dict[str, Any]] = field(default_factory=list)
    #: What the run observed so far: the outputs of the steps that completed, by step id.
    completed: dict[int, DomainOutput] = field(default_factory=dict)
    #: What the person asked, in their language (an LLM planner rewrites against it).
    query: str = ""
    language: str = "pt"
    #: Time left before the run's deadline (None: no deadline); a planner must answer within it.
    seconds_left: float | None = None


def param_changes(step: ExecutionStep, patch: dict[str, Any]) -> list[ParamChange]:
    """What ``patch`` (already escaped) changes in ``step``'s parameters."""
    return [
        ParamChange(step.id, name, step.params.get(name), value)
        for name, value in patch.items()
        if step.params.get(name) != value
    ]


#: A step id inside a ``${= ...}`` selection (``step2.result``).
_STEP_NAME = re.compile(r"\bstep\d+\b")


def _computed_as(value: Any) -> Any:
    """``value`` without the ids of the steps its references and selections read: a rewrite
    renumbers steps, so the same computation over the rewritten steps compares equal, while the
    fields it reads and any literal text around it must stay as planned."""
    if isinstance(value, dict):
        return {k: _computed_as(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_computed_as(v) for v in value]
    if not isinstance(value, str):
        return value
    try:
        parts = split_text(value) if OPEN in value else [value]
    except ExpressionError:  # not a selection the executor would read: compared as written
        return value
    return "".join(
        f"${{= {_STEP_NAME.sub('step?', part.text)}}}"
        if isinstance(part, Expression)
        else TOKEN.sub(lambda m: m.group(0) if m.group(1) is None else f"${{?.{m.group(2)}}}", part)
        for part in parts
    )


def _among(value: Any, said: Any) -> bool:
    """``value`` is ``said``, or one of the values ``said`` lists."""
    return value == said or (isinstance(said, list) and value in said)


def unsaid_values(
    step: ExecutionStep, planned: ExecutionPlan, said: Mapping[str, list[Any]]
) -> list[ParamChange]:
    """The parameters of ``step`` (a step of a rewritten plan, about to be called) whose value the
    person did not say. Said are: the value a step of the same capability had in ``planned`` (the
    plan the person asked for or approved: a plan's values pass the approval gates before it
    runs), and, for a literal, a value of the request's entity of that name (``said``).

    A value that reads earlier steps (``${N.field}``, ``${= ...}``) is computed, not guessed, but
    only where ``planned`` computed that parameter the same way: the same fields read, the same
    text around them (only which steps they read may differ). A reference where the person's
    plan had a literal, or had no such parameter, is a change like any other.
    """
    earlier = [s for s in planned.steps if (s.domain, s.capability) == (step.domain, step.capability)]
    changes = []
    for name, value in step.params.items():
        before = [s.params[name] for s in earlier if name in s.params]
        if any(_among(_computed_as(value), _computed_as(b)) for b in before):
            continue
        literal = not references(value) and not expressions_in(value)
        if literal and any(_among(value, v) for v in said.get(name, [])):
            continue
        changes.append(ParamChange(step.id, name, before[0] if before else None, value))
    return changes


def added_actions(plan: ExecutionPlan, planned: ExecutionPlan) -> list[ExecutionStep]:
    """The steps of ``plan`` (a rewrite) whose capability, in its domain, no step of ``planned``
    (the plan the person asked for or approved) calls: actions the request did not lead to."""
    asked = {(step.domain, step.capability) for step in planned.steps}
    return [step for step in plan.steps if (step.domain, step.capability) not in asked]


def repeated_actions(
    plan: ExecutionPlan, planned: ExecutionPlan, done: Collection[int], called: Collection[int]
) -> list[ExecutionStep]:
    """The steps of ``plan`` (a rewrite) still to be called (``called``, step ids) that would
    do again what a step of ``planned`` (the plan the person asked for or approved) did or
    will do: each call ``planned`` has, by domain and capability, is one the person asked for,
    and those that already succeeded (``done``, step ids) are spent. A step stands for a call
    still owed with the same values (itself, or its rewrite); else it repeats a spent call with
    the same values (a second message); else, with new values, it stands for any call of its
    capability still owed, and past those it is one call more than asked for. Capabilities
    ``planned`` never calls are :func:`added_actions`, not repeats."""

    def action(step: ExecutionStep) -> tuple[str, str]:
        return step.domain, step.capability

    def same(a: ExecutionStep, b: ExecutionStep) -> bool:
        return action(a) == action(b) and _computed_as(a.params) == _computed_as(b.params)

    asked = {action(step) for step in planned.steps}
    owed = [step for step in planned.steps if step.id not in done]
    spent = [step for step in planned.steps if step.id in done]
    calls = [step for step in plan.steps if step.id in called and action(step) in asked]
    unpaired = []
    for step in calls:  # the planned call itself, or its rewrite, first
        match = next((o for o in owed if same(o, step)), None)
        if match is None:
            unpaired.append(step)
        else:
            owed.remove(match)
    repeated = []
    for step in unpaired:
        match = next((o for o in owed if action(o) == action(step)), None)
        if match is None or any(same(s, step) for s in spent):
            repeated.append(step)
        else:
            owed.remove(match)
    return repeated


@dataclass(frozen=True)
class HeldReplan:
    """A replan the run loop did not run: a step that changes something would be called with a
    value the person did not say (a re-issue with a failure's suggestion, or a rewritten plan),
    or a rewritten plan would call such a capability the person's plan never had, or do again
    such a call; the person is asked first."""

    #: The new plan (the patch applied, or the rewrite), to run on a yes.
    plan: ExecutionPlan
    #: The step that failed.
    step_id: int
    #: What the person is asked to approve: the values nobody said, by step (a re-issue's are
    #: all on the failed step, a rewrite's on the new steps that change something).
    changes: list[ParamChange]
    #: The domain's explanation of the failure, in its own words.
    explanation: str
    #: The steps that settled before and stay valid: kept (not called again) on a yes.
    kept: list[StepTrace] = field(default_factory=list)
    #: How the plan was made (the question says who proposes the change).
    action: ReplanAction = "reissue"
    #: Steps of a rewrite that call a capability that changes something, which the plan the
    #: person asked for never called (:func:`added_actions`): asked about even when every value
    #: in them was said, since nothing the person asked for led to that action.
    added: list[int] = field(default_factory=list)
    #: Values this run already used without asking, which the person did not say (read-only
    #: re-issues before this one: ``ExecutionReport.changes``): the question names them too, so
    #: a yes is given knowing every value that changed.
    already_used: list[ParamChange] = field(default_factory=list)
    #: Steps of a rewrite that would do again, with a capability that changes something, a call
    #: of the plan the person asked for that already succeeded, or call it more times than that
    #: plan does (:func:`repeated_actions`): a second message or booking nobody asked for, asked
    #: about like an added action, even with the same values.
    repeated: list[int] = field(default_factory=list)

    @property
    def waiting(self) -> list[int]:
        """The steps of :attr:`plan` the yes is for, in plan order: those with a value nobody
        said and those a rewrite added or repeats; the failed step when none names one."""
        named = {change.step_id for change in self.changes} | set(self.added) | set(self.repeated)
        return [step.id for step in self.plan.steps if step.id in named] or [self.step_id]


@dataclass(frozen=True)
class Replan:
    """A new plan and how it differs from the one that failed."""

    plan: ExecutionPlan
    action: ReplanAction
    note: str
    #: Step ids whose earlier results are void (they run again).
    rerun: frozenset[int] = frozenset()
    #: The parameter patch applied to the failed step (``reissue``), and what it changed there.
    patch: dict[str, Any] = field(default_factory=dict)
    changes: list[ParamChange] = field(default_factory=list)


class RunPlanner(Protocol):
    """What the run loop needs from a planner."""

    def plan(self, intent: ExecutionIntent, catalog: Catalog) -> ExecutionPlan:
        """The plan for ``intent``; raises ``PlanError`` when no plan can be built."""
        ...

    async def replan(self, plan: ExecutionPlan, context: ReplanContext) -> Replan | None:
        """A plan around the failure in ``context``, or None to give up (asynchronous: an LLM
        planner asks its model, within ``context.seconds_left``)."""
        ...
