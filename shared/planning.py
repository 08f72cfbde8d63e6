"""The contract between the run loop (``execution``) and the planner (``planner``).

The run loop asks a :class:`RunPlanner` for a plan and, after a recoverable failure, for a new
one; the planner implements it (``planner.DeterministicRunPlanner``, or ``planner.llm.LlmRunPlanner``
which rewrites the LLM's own plans from what the run observed) and the caller wires the two
together, so neither package imports the other.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from shared.catalog import Catalog
from shared.models import DomainOutput, ExecutionIntent, ExecutionPlan, ExecutionStep, StepTrace

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


@dataclass(frozen=True)
class ParamChange:
    """A parameter a re-issue set to a value the person did not say (a failure's suggestion)."""

    step_id: int
    param: str
    #: The value the step had (as planned, references included); None: the step had none.
    before: Any
    #: The value it was called with (escaped: a suggestion is never a reference).
    after: Any


def param_changes(step: ExecutionStep, patch: dict[str, Any]) -> list[ParamChange]:
    """What ``patch`` (already escaped) changes in ``step``'s parameters."""
    return [
        ParamChange(step.id, name, step.params.get(name), value)
        for name, value in patch.items()
        if step.params.get(name) != value
    ]


@dataclass(frozen=True)
class HeldReplan:
    """A re-issue the run loop did not make: the failed step changes something, so it is not
    called with a value the person did not say; the person is asked first."""

    #: The plan with the patch applied, to run on a yes.
    plan: ExecutionPlan
    #: The failed step, and what the patch changes in it.
    step_id: int
    changes: list[ParamChange]
    #: The domain's explanation of the failure, in its own words.
    explanation: str
    #: The steps that settled before and stay valid: kept (not called again) on a yes.
    kept: list[StepTrace] = field(default_factory=list)


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
