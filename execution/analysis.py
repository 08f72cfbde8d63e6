"""``analyzeResult``: after each round of the run loop, stop or continue?

A pure function over an :class:`Observation` of the run; seven ways to stop, three to continue,
checked in this order (the first that applies wins):

==  ========================  ===========  =============  ==============
#   case                      is_complete  is_successful  should_continue
==  ========================  ===========  =============  ==============
1   no plan                   yes          yes            no
2   plan waiting_input        yes          yes            no
3   final_answer              yes          yes            no
4   no current step           yes          yes            no
5   definitive failure        yes          no             no
6   last step completed       yes          yes            no
7   planning error            yes          no             no
8   replanning                no           no             yes
9   step done, more steps     no           yes            yes
10  recoverable failure       no           no             yes
==  ========================  ===========  =============  ==============

Case 10 is a failure the plan can live with (an optional step failed, later steps still run);
case 8 is a failure the domain flagged ``recoverable`` (or a transition override sent to
``replanning``) while replans remain. A recoverable failure with no replan left is definitive
(``max_replans_exceeded``, case 5).

>>> analyze_result(Observation(has_plan=False)).case
'no_plan'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from shared.status import RunStatus

Case = Literal[
    "no_plan",
    "waiting_input",
    "final_answer",
    "no_current_step",
    "definitive_failure",
    "last_step_completed",
    "planning_error",
    "replanning",
    "next_step",
    "recoverable_failure",
]
#: How a step failed, as the analysis weighs it (the domain's own reason is in ``failure_reason``).
FailureKind = Literal["none", "recoverable", "definitive", "optional"]


@dataclass(frozen=True)
class Observation:
    """What the run loop knows after a round."""

    has_plan: bool = True
    plan_status: RunStatus = RunStatus.EXECUTING
    #: A ready final answer (a ``final_answer`` result), if the round produced one.
    final_answer: str | None = None
    #: The step the round stopped on (the failed one, or the last one run); None = nothing ran.
    current_step: int | None = None
    #: Steps still to run after the current one.
    remaining_steps: int = 0
    #: How the current step failed, if it did.
    failure: FailureKind = "none"
    failure_reason: str = ""
    replans: int = 0
    max_replans: int = 1
    planning_error: str | None = None


@dataclass(frozen=True)
class AnalysisResult:
    is_complete: bool
    is_successful: bool
    feedback: str
    should_continue: bool
    case: Case


def _stop(case: Case, ok: bool, feedback: str) -> AnalysisResult:
    return AnalysisResult(
        is_complete=True, is_successful=ok, feedback=feedback, should_continue=False, case=case
    )


def _go(case: Case, ok: bool, feedback: str) -> AnalysisResult:
    return AnalysisResult(
        is_complete=False, is_successful=ok, feedback=feedback, should_continue=True, case=case
    )


def analyze_result(obs: Observation) -> AnalysisResult:
    if obs.planning_error is not None:
        return _stop("planning_error", False, f"Planning failed: {obs.planning_error}")
    if not obs.has_plan:
        return _stop("no_plan", True, "No plan to analyze")
    if obs.plan_status is RunStatus.WAITING_INPUT:
        return _stop("waiting_input", True, "Awaiting user input to proceed")
    if obs.final_answer is not None:
        return _stop("final_answer", True, obs.final_answer)
    if obs.current_step is None:
        return _stop("no_current_step", True, "Plan execution completed")
    if obs.failure == "definitive":
        return _stop("definitive_failure", False, obs.failure_reason or "definitive failure")
    if obs.failure == "recoverable":
        if obs.replans < obs.max_replans:
            return _go("replanning", False, "Will replan from this point")
        return _stop(
            "definitive_failure",
            False,
            f"max_replans_exceeded: {obs.failure_reason}".rstrip(": "),
        )
    if obs.failure == "optional":
        return _go("recoverable_failure", False, "Optional step failed; continuing without it")
    if obs.remaining_steps > 0:
        return _go("next_step", True, "Step completed, moving to next")
    return _stop("last_step_completed", True, "Last step completed")
