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
from shared.models import DomainOutput, ExecutionIntent, ExecutionPlan, ExecutionStep

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
class Replan:
    """A new plan and how it differs from the one that failed."""

    plan: ExecutionPlan
    action: ReplanAction
    note: str
    #: Step ids whose earlier results are void (they run again).
    rerun: frozenset[int] = frozenset()
    #: The parameter patch applied to the failed step (``reissue``).
    patch: dict[str, Any] = field(default_factory=dict)


class RunPlanner(Protocol):
    """What the run loop needs from a planner."""

    def plan(self, intent: ExecutionIntent, catalog: Catalog) -> ExecutionPlan:
        """The plan for ``intent``; raises ``PlanError`` when no plan can be built."""
        ...

    async def replan(self, plan: ExecutionPlan, context: ReplanContext) -> Replan | None:
        """A plan around the failure in ``context``, or None to give up (asynchronous: an LLM
        planner asks its model, within ``context.seconds_left``)."""
        ...
