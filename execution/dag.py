"""The DAG executor: validates a plan, runs its steps in dependency order with independent steps
concurrently (up to ``plan.max_concurrency``; one at a time when ``execution_mode="sequential"``),
and reports every status change.

Step statuses (``shared.status``, every change through ``transition``)::

    pending -> executing -> completed | failed | waiting_input (the domain asked a question)
    pending -> skipped   (a dependency did not succeed)      pending -> failed (same, step required
                                                               and the failed dependency optional)
    pending -> skipped   (its ``when`` condition is false, or a step it needs was skipped by one;
                          ``skipped_by_condition`` says which; this is not a failure)

A failed ``required=False`` step never fails the plan; a failed required step skips its dependents.
A reference ``${N.field}`` is an implicit dependency on step N; so is ``stepN`` in a condition or
a ``${= ...}`` selection (JMESPath, :mod:`execution.expressions`), which may only read steps
listed before its own.

Beyond one-shot execution (used by :class:`execution.runner.RunController`):

* ``call``: how one step is invoked (validation and retry live there); it counts ``attempts``.
* ``preflight``: a reason not to start a step (its domain is known to be down): a required step
  fails at once (``pending -> failed``), an optional one is ``skipped``.
* ``deadline_s``: past it, in-flight steps are ``cancelled``, pending ones ``skipped`` and the
  report says ``timeout``. A :class:`RunStopped` raised by ``call`` stops the run the same way
  with the status and reason it carries (the context policy uses it).
* ``resume``: completed traces of an earlier round (replanning) are kept, not re-run.
* Independent branches run as forks over isolated state (``execution.forks``).
"""

from __future__ import annotations

import asyncio
import copy
import json
import logging
import time
import uuid
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, Field

from execution.combine import combine
from execution.expressions import compile_expression, evaluate, truthy
from execution.forks import independent_branches
from execution.references import resolve
from execution.synthesis import Synthesis
from shared.clock import utcnow
from shared.errors import PlanError, PlatformError
from shared.models import (
    IDEMPOTENCY_SUFFIX,
    CallContext,
    DomainOutput,
    ExecutionIntent,
    ExecutionPlan,
    ExecutionStep,
    StepTrace,
)
from shared.plan_graph import PlanDeadlock, validate_plan
from shared.planning import HeldReplan, ParamChange
from shared.status import RunStatus, step_status_of, transition

#: ``validate_plan`` and ``PlanDeadlock`` live below the planner (which checks proposed plans
#: with them) and are re-exported for the run loop.
__all__ = [
    "DagExecutor",
    "EventHook",
    "ExecutionReport",
    "PlanDeadlock",
    "Preflight",
    "RunStopped",
    "StepCall",
    "StepRunner",
    "topological_order",
    "validate_plan",
]

log = logging.getLogger(__name__)

#: Makes one domain call: the intent is the ``/execute`` body, the CallContext how the core makes
#: the call (its idempotency key), passed on to the orchestrator as it is.
StepRunner = Callable[[ExecutionIntent, ExecutionStep, CallContext], Awaitable[DomainOutput]]
EventHook = Callable[[StepTrace], Awaitable[None]]
#: Invokes one step (may retry); must add each try to ``trace.attempts``.
StepCall = Callable[[ExecutionIntent, ExecutionStep, CallContext, StepTrace], Awaitable[DomainOutput]]
#: A reason not to start the step at all (e.g. its domain's circuit is open), or None.
Preflight = Callable[[ExecutionStep], str | None]

_SETTLED = frozenset({RunStatus.COMPLETED, RunStatus.FAILED, RunStatus.SKIPPED})


class ExecutionReport(BaseModel):
    status: RunStatus
    steps: list[StepTrace] = Field(default_factory=list)
    output: DomainOutput | None = None
    #: Why the run ended the way it did when that is not obvious from the steps (timeout, policy,
    #: deadlock, max_replans_exceeded, stagnated...), in plain words.
    reason: str | None = None
    #: How many times the run was replanned (``RunController``).
    replans: int = 0
    #: The final answer text, in the person's language (``RunController``).
    answer: str = ""
    #: The synthesis of a ``combine_mode="report"`` plan (``RunController``).
    synthesis: Synthesis | None = None
    #: The last ``analyze_result`` decision of the run loop (``RunController``).
    decision: str | None = None
    #: The plan as the run ended it, replans included (``RunController``).
    plan: ExecutionPlan | None = None
    #: Values a re-issue used in place of the planned ones, which the person did not say.
    changes: list[ParamChange] = Field(default_factory=list)
    #: A re-issue not made, waiting for the person's yes (the step changes something).
    held: HeldReplan | None = None


class RunStopped(Exception):
    """Raised from a step call to stop the whole run cleanly with ``status`` and ``reason``."""

    def __init__(self, status: RunStatus, reason: str):
        super().__init__(reason)
        self.status = status
        self.reason = reason


def topological_order(plan: ExecutionPlan, deps: dict[int, set[int]]) -> list[ExecutionStep]:
    """Dependencies first; among ready steps, plan order. This is the order "last" and "report"
    read outputs in, so a dependent listed before its dependency still comes after it."""
    placed: set[int] = set()
    order: list[ExecutionStep] = []
    while len(order) < len(plan.steps):
        step = next(s for s in plan.steps if s.id not in placed and deps[s.id] <= placed)
        placed.add(step.id)
        order.append(step)
    return order


class DagExecutor:
    def __init__(
        self,
        run_step: StepRunner | None = None,
        *,
        on_event: EventHook | None = None,
        call: StepCall | None = None,
        preflight: Preflight | None = None,
    ):
        """Steps are made with ``call`` (the run loop's guarded call, which holds the step runner)
        or, for a bare DAG, with one call of ``run_step`` each: exactly one of the two."""
        if run_step is not None and call is None:
            call = _once(run_step)
        elif call is None or run_step is not None:
            raise TypeError("DagExecutor takes run_step or call, exactly one")
        self._call: StepCall = call
        self._on_event = on_event
        self._preflight = preflight

    async def execute(
        self,
        plan: ExecutionPlan,
        *,
        original_query: str,
        confidence: float,
        context: dict[str, Any],
        deadline_s: float | None = None,
        resume: Mapping[int, StepTrace] | None = None,
    ) -> ExecutionReport:
        """Run ``plan``; raises ``PlanError`` (``PlanDeadlock`` for cycles / missing steps) before
        running anything when the plan cannot run."""
        deps = validate_plan(plan)
        sequential = plan.execution_mode == "sequential"
        semaphore = asyncio.Semaphore(1 if sequential else plan.max_concurrency)
        branches = [list(plan.steps)] if sequential else independent_branches(plan.steps, deps)
        # settled traces of an earlier round stay as they are (completed ones feed references)
        kept = {i: t for i, t in (resume or {}).items() if t.status in _SETTLED}
        job = _Job(deps, original_query, confidence, semaphore, kept)
        # each branch (fork) works on its own copy of the run state
        runs = [_Run(self, job, branch, copy.deepcopy(context)) for branch in branches]
        stopped: RunStopped | None = None
        try:
            async with asyncio.timeout(deadline_s):
                await _drive(runs)
        except TimeoutError:
            stopped = RunStopped(RunStatus.TIMEOUT, f"the plan did not finish within {deadline_s:g} s")
        except RunStopped as exc:
            stopped = exc
        traces = {i: t for run in runs for i, t in run.traces.items()}
        if stopped is not None:
            await self._settle_aborted(traces, stopped.reason)
        output = combine(plan.combine_mode, topological_order(plan, deps), traces)
        return ExecutionReport(
            status=transition(RunStatus.EXECUTING, _round_status(stopped, traces, output)),
            steps=[traces[s.id] for s in plan.steps],
            output=output,
            reason=stopped.reason if stopped is not None else None,
        )

    async def _settle_aborted(self, traces: dict[int, StepTrace], reason: str) -> None:
        """In-flight steps are cancelled, steps that never started are skipped."""
        for trace in traces.values():
            if trace.status is RunStatus.EXECUTING:
                trace.error = trace.error or f"cancelled: {reason}"
                trace.finished_at = utcnow()
                await self._set(trace, RunStatus.CANCELLED)
            elif trace.status is RunStatus.PENDING:
                trace.error = trace.error or f"not started: {reason}"
                await self._set(trace, RunStatus.SKIPPED)

    async def _set(self, trace: StepTrace, status: RunStatus) -> None:
        trace.status = transition(trace.status, status)
        await self._emit(trace)

    async def _emit(self, trace: StepTrace) -> None:
        if self._on_event is None:
            return
        try:
            # a shallow copy is a snapshot: the executor re-assigns a trace's fields, never
            # changes its params or output in place, so no deep copy is needed
            await self._on_event(trace.model_copy())
        except Exception:  # a broken listener must not break the run it listens to
            log.exception("on_event listener failed for step %s", trace.id)


def _once(run_step: StepRunner) -> StepCall:
    """One call of ``run_step`` per step, counted as the step's one attempt."""

    async def call_once(
        intent: ExecutionIntent, step: ExecutionStep, call: CallContext, trace: StepTrace
    ) -> DomainOutput:
        trace.attempts += 1
        return await run_step(intent, step, call)

    return call_once


def _round_status(
    stopped: RunStopped | None, traces: Mapping[int, StepTrace], output: DomainOutput
) -> RunStatus:
    """A stop wins; then a question waiting for the person; then the combined answer decides."""
    if stopped is not None:
        return stopped.status
    if any(t.status is RunStatus.WAITING_INPUT for t in traces.values()):
        return RunStatus.WAITING_INPUT
    return RunStatus.FAILED if output.status == "failure" else RunStatus.COMPLETED


async def _drive(runs: list[_Run]) -> None:
    """Run the forks together; the first ``RunStopped`` cancels the others and is re-raised."""
    if len(runs) == 1:
        await runs[0].go()
        return
    try:
        async with asyncio.TaskGroup() as group:
            for index, run in enumerate(runs, start=1):
                group.create_task(run.go(), name=f"fork-{index}")
    except* RunStopped as grouped:
        raise grouped.exceptions[0] from None


@dataclass(frozen=True)
class _Job:
    """What every branch of one ``DagExecutor.execute`` call shares."""

    deps: dict[int, set[int]]
    original_query: str
    confidence: float
    #: the plan's concurrency limit, across branches
    semaphore: asyncio.Semaphore
    #: settled traces of an earlier round, kept as they are
    kept: Mapping[int, StepTrace]


class _Run:
    """One branch (fork) of one plan: the mutable state ``DagExecutor.execute`` works on."""

    def __init__(self, executor: DagExecutor, job: _Job, steps: list[ExecutionStep], context: dict[str, Any]):
        self.executor = executor
        self.steps = steps
        self.deps = job.deps
        self.original_query = job.original_query
        self.confidence = job.confidence
        #: what each step's intent tells its domain; the idempotency suffix the run loop set for
        #: this round goes into each call's CallContext instead (it is not the domain's business)
        self.context = {k: v for k, v in context.items() if k != IDEMPOTENCY_SUFFIX}
        self.suffix = str(context.get(IDEMPOTENCY_SUFFIX) or "")
        self.run_id = str(context.get("run_id") or f"adhoc-{uuid.uuid4().hex}")
        self.by_id = {s.id: s for s in steps}
        self.traces: dict[int, StepTrace] = {}
        self.outputs: dict[int, DomainOutput] = {}
        self.started: set[int] = set()
        for s in steps:
            if s.id in job.kept:
                trace = job.kept[s.id].model_copy(deep=True)
                self.traces[s.id] = trace
                if trace.status is RunStatus.COMPLETED and trace.output is not None:
                    self.outputs[s.id] = trace.output
                self.started.add(s.id)
            else:
                self.traces[s.id] = StepTrace(
                    id=s.id, domain=s.domain, capability=s.capability, params=s.params
                )
        self.semaphore = job.semaphore

    async def go(self) -> None:
        running: set[asyncio.Task[None]] = set()
        try:
            while True:
                progressed = True
                while progressed:  # a skip settles a step at once: it may unblock one listed earlier
                    progressed = False
                    for step in self.steps:
                        if step.id in self.started or not self._dependencies_settled(step):
                            continue
                        self.started.add(step.id)
                        progressed = True
                        if not await self._blocked(step):
                            running.add(asyncio.create_task(self._run(step), name=f"step-{step.id}"))
                if not running:
                    # steps still unstarted wait behind a waiting_input step: they stay pending
                    return
                done, running = await asyncio.wait(running, return_when=asyncio.FIRST_COMPLETED)
                for task in done:
                    task.result()  # surface bugs in the engine itself, and RunStopped
        finally:
            for task in running:
                task.cancel()
            if running:  # let cancelled steps unwind before anyone reads their traces
                await asyncio.gather(*running, return_exceptions=True)

    def _dependencies_settled(self, step: ExecutionStep) -> bool:
        return all(self.traces[d].status in _SETTLED for d in self.deps[step.id])

    async def _blocked(self, step: ExecutionStep) -> bool:
        """Settle ``step`` without running it when a dependency did not succeed (a required step
        fails only when the cause is an optional failure: a required one already failed the run),
        or when the preflight says its domain cannot take it (required fails, optional skips)."""
        trace = self.traces[step.id]
        unmet = [d for d in sorted(self.deps[step.id]) if self.traces[d].status is not RunStatus.COMPLETED]
        if unmet and all(self.traces[d].skipped_by_condition for d in unmet):
            # a branch its condition switched off: what needs it is off too, and nothing failed
            trace.skipped_by_condition = f"step {', '.join(map(str, unmet))} was skipped by its condition"
            await self.executor._set(trace, RunStatus.SKIPPED)
            return True
        if unmet:
            upstream_required = any(self.by_id[d].required for d in unmet)
            new = RunStatus.FAILED if step.required and not upstream_required else RunStatus.SKIPPED
            trace.error = f"step {', '.join(map(str, unmet))} did not succeed"
            await self.executor._set(trace, new)
            return True
        if step.when is not None and await self._condition_blocks(step, trace):
            return True
        reason = self.executor._preflight(step) if self.executor._preflight else None
        if reason:
            trace.error = reason
            await self.executor._set(trace, RunStatus.FAILED if step.required else RunStatus.SKIPPED)
            return True
        return False

    async def _condition_blocks(self, step: ExecutionStep, trace: StepTrace) -> bool:
        """Skip ``step`` when its ``when`` is false; fail it when the condition cannot be computed
        (the plan asked a question of data that does not answer it)."""
        when = step.when or ""
        try:
            value = evaluate(compile_expression(when), self.outputs)
        except PlanError as exc:
            trace.error = f"condition not evaluated: {exc.message}"
            await self.executor._set(trace, RunStatus.FAILED if step.required else RunStatus.SKIPPED)
            return True
        if truthy(value):
            return False
        shown = "null" if value is None else json.dumps(value, ensure_ascii=False, default=str)
        trace.skipped_by_condition = f"condition {when!r} is false ({shown})"
        await self.executor._set(trace, RunStatus.SKIPPED)
        return True

    async def _run(self, step: ExecutionStep) -> None:
        trace = self.traces[step.id]
        async with self.semaphore:
            trace.started_at = utcnow()
            clock = time.perf_counter()
            await self.executor._set(trace, RunStatus.EXECUTING)
            output: DomainOutput | None = None
            try:
                params = resolve(step.params, self.outputs)
                trace.params = params
                intent = ExecutionIntent(
                    domain=step.domain,
                    capability=step.capability,
                    parameters=params,
                    confidence=self.confidence,
                    original_query=self.original_query,
                    context={**self.context, "step_id": step.id},
                )
                call = CallContext(run_id=self.run_id, step_id=step.id, idempotency_suffix=self.suffix)
                output = await self.executor._call(intent, step, call, trace)
            except RunStopped as exc:
                trace.error = exc.reason
                trace.finished_at = utcnow()
                await self.executor._set(trace, RunStatus.FAILED)
                raise
            except PlatformError as exc:
                trace.error = exc.message
            except Exception as exc:  # the step failed; the run goes on and says why
                log.warning("step %s (%s) raised", step.id, step.capability, exc_info=True)
                trace.error = f"{type(exc).__name__}: {exc}"
            trace.finished_at = utcnow()
            trace.duration_ms = round((time.perf_counter() - clock) * 1000, 3)
            if output is None:
                await self.executor._set(trace, RunStatus.FAILED)
                return
            trace.output = output
            self.outputs[step.id] = output
            if output.status == "failure":
                trace.error = output.explanation or "the domain reported a failure"
            await self.executor._set(trace, step_status_of(output.status))
