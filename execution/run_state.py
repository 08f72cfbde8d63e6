"""What the run loop knows about one run, how a run ends, and the events it sends."""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from execution.analysis import AnalysisResult
from execution.dag import ExecutionReport
from shared import i18n
from shared.events import RunStatusEvent, StepEvent
from shared.models import ExecutionPlan, StepTrace
from shared.planning import HeldReplan, ParamChange
from shared.status import RunStatus, transition

log = logging.getLogger(__name__)

#: Receives every run and step status change.
RunEventSink = Callable[[RunStatusEvent | StepEvent], Awaitable[None]]
#: Step statuses that will not change again this round.
SETTLED = (RunStatus.COMPLETED, RunStatus.FAILED, RunStatus.SKIPPED)


def step_event(run_id: str, trace: StepTrace, decision: AnalysisResult | None = None) -> StepEvent:
    """A step's status change, with the analysis' verdict once it settled."""
    return StepEvent(
        run_id=run_id,
        step_id=trace.id,
        domain=trace.domain,
        capability=trace.capability,
        status=trace.status,
        attempts=trace.attempts,
        error=trace.error,
        skipped_by_condition=trace.skipped_by_condition,
        decision=decision.case if decision is not None else None,
    )


@dataclass
class RunState:
    """What the loop knows about one run."""

    run_id: str
    language: str
    on_event: RunEventSink | None
    #: what the person asked, and how sure the intent layer was of it
    query: str = ""
    confidence: float = 1.0
    context: dict[str, Any] = field(default_factory=dict)
    plan: ExecutionPlan = field(default_factory=ExecutionPlan)
    status: RunStatus = RunStatus.PENDING
    replans: int = 0
    started: float = field(default_factory=time.perf_counter)
    seen_failures: set[tuple[int, str, str]] = field(default_factory=set)
    tried: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    #: what the person said, by entity name (a rewrite's values are checked against it)
    said: dict[str, list[Any]] = field(default_factory=dict)
    #: values re-issues used that the person did not say (capabilities that change nothing), and
    #: those a plan approved in an earlier turn brings (``ExecutionPlan.suggestions_used``)
    changes: list[ParamChange] = field(default_factory=list)
    #: latest status of each step this round (for the per-step analysis)
    steps: dict[int, RunStatus] = field(default_factory=dict)

    async def move(self, new: RunStatus, reason: str | None = None) -> None:
        self.status = transition(self.status, new)
        await self.emit(RunStatusEvent(run_id=self.run_id, status=new, reason=reason))

    async def emit(self, event: RunStatusEvent | StepEvent) -> None:
        if self.on_event is None:
            return
        try:
            await self.on_event(event)
        except Exception:  # a broken listener must not break the run
            log.exception("run event listener failed")


@dataclass(frozen=True)
class Ending:
    """How a run ends: its status, and what the trace and the person are told."""

    status: RunStatus
    #: for operators, in the report and the run event ("no alternative plan after step 1 ...")
    reason: str | None = None
    #: the id of the core message (``shared.i18n.CORE``) that answers the person; None = the outputs do
    kind: str | None = None
    #: what the person is told when it differs from ``reason`` (the domain's own words)
    told: str | None = None
    #: the run event's reason when the report carries none
    note: str | None = None
    #: a re-issue that waits for the person's yes (``WAITING_INPUT``)
    held: HeldReplan | None = None

    def answer(self, state: RunState, report: ExecutionReport) -> str:
        """The person's answer: the engine's sentence for this ending (after the synthesis, if
        any), else the synthesis, else the combined output's explanation."""
        synthesized = report.synthesis.text if report.synthesis is not None else ""
        if self.kind is not None and self.reason is not None:
            plain = self.told or self.reason.removeprefix("max_replans_exceeded: ")
            answer = i18n.t(self.kind, state.language, reason=plain, replans=state.replans)
            if synthesized and self.kind != "run.max_replans_exceeded":
                return f"{synthesized}\n{answer}"
            return answer
        if synthesized:
            return synthesized
        if report.output is not None and report.output.explanation:
            return report.output.explanation
        if state.status is RunStatus.COMPLETED:
            return i18n.t("run.done", state.language)
        return i18n.t("run.failed", state.language, reason=self.reason or "")
