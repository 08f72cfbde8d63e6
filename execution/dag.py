"""The DAG executor: validates a plan, runs its steps in dependency order with independent steps
concurrently (up to ``plan.max_concurrency``; one at a time when ``execution_mode="sequential"``),
and reports every status change.

Step statuses (``shared.status``, every change through ``transition``)::

    pending -> executing -> completed | failed | waiting_input (the domain asked a question)
    pending -> skipped   (a dependency did not succeed)      pending -> failed (same, step required
                                                               and the failed dependency optional)

A failed ``required=False`` step never fails the plan; a failed required step skips its dependents.
A reference ``${N.field}`` is an implicit dependency on step N.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

from pydantic import BaseModel, Field

from execution.combine import combine
from execution.references import references, resolve
from shared.errors import PlanError, PlatformError
from shared.models import DomainOutput, ExecutionIntent, ExecutionPlan, ExecutionStep, StepTrace
from shared.status import RunStatus, transition

log = logging.getLogger(__name__)

StepRunner = Callable[[ExecutionIntent, ExecutionStep], Awaitable[DomainOutput]]
EventHook = Callable[[StepTrace], Awaitable[None]]

_SETTLED = frozenset({RunStatus.COMPLETED, RunStatus.FAILED, RunStatus.SKIPPED})
_BY_DOMAIN_STATUS = {
    "success": RunStatus.COMPLETED,
    "failure": RunStatus.FAILED,
    "clarification": RunStatus.WAITING_INPUT,
}


class ExecutionReport(BaseModel):
    status: RunStatus
    steps: list[StepTrace] = Field(default_factory=list)
    output: DomainOutput | None = None


def validate_plan(plan: ExecutionPlan) -> dict[int, set[int]]:
    """Return each step's dependencies (declared + referenced); raise ``PlanError`` for duplicate
    ids, unknown dependencies or references, and cycles (naming the cycle)."""
    if not plan.steps:
        raise PlanError("the plan has no steps", param="steps")
    ids = [s.id for s in plan.steps]
    if len(set(ids)) != len(ids):
        raise PlanError(f"duplicate step ids in {ids}", param="steps")
    deps: dict[int, set[int]] = {}
    for index, step in enumerate(plan.steps):
        declared, referenced = set(step.depends_on), references(step.params)
        for dep in sorted(declared - set(ids)):
            raise PlanError(
                f"step {step.id} depends on unknown step {dep}", param=f"steps.{index}.depends_on"
            )
        for ref in sorted(referenced - set(ids)):
            raise PlanError(f"step {step.id} references unknown step {ref}", param=f"steps.{index}.params")
        deps[step.id] = declared | referenced
    _reject_cycles(deps)
    return deps


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


def _reject_cycles(deps: dict[int, set[int]]) -> None:
    state: dict[int, int] = {}  # 1 = on the current path, 2 = done

    def visit(node: int, path: list[int]) -> None:
        state[node] = 1
        for dep in sorted(deps[node]):
            if state.get(dep) == 1:
                cycle = [*path[path.index(dep) :], dep] if dep in path else [node, dep]
                raise PlanError(f"the plan has a cycle: {' -> '.join(map(str, cycle))}", param="steps")
            if dep not in state:
                visit(dep, [*path, dep])
        state[node] = 2

    for node in sorted(deps):
        if node not in state:
            visit(node, [node])


class DagExecutor:
    def __init__(self, run_step: StepRunner, *, on_event: EventHook | None = None):
        self._run_step = run_step
        self._on_event = on_event

    async def execute(
        self, plan: ExecutionPlan, *, original_query: str, confidence: float, context: dict[str, Any]
    ) -> ExecutionReport:
        deps = validate_plan(plan)
        run = _Run(self, plan, deps, original_query, confidence, context)
        await run.go()
        output = combine(plan.combine_mode, topological_order(plan, deps), run.traces)
        status = RunStatus.EXECUTING
        if any(t.status is RunStatus.WAITING_INPUT for t in run.traces.values()):
            status = transition(status, RunStatus.WAITING_INPUT)
        elif output.status == "failure":
            status = transition(status, RunStatus.FAILED)
        else:
            status = transition(status, RunStatus.COMPLETED)
        return ExecutionReport(status=status, steps=[run.traces[s.id] for s in plan.steps], output=output)

    async def _emit(self, trace: StepTrace) -> None:
        if self._on_event is None:
            return
        try:
            await self._on_event(trace.model_copy(deep=True))
        except Exception:  # a broken listener must not break the run it listens to
            log.exception("on_event listener failed for step %s", trace.id)


class _Run:
    """One execution of one plan: the mutable state ``DagExecutor.execute`` works on."""

    def __init__(
        self,
        executor: DagExecutor,
        plan: ExecutionPlan,
        deps: dict[int, set[int]],
        original_query: str,
        confidence: float,
        context: dict[str, Any],
    ):
        self.executor = executor
        self.plan = plan
        self.deps = deps
        self.original_query = original_query
        self.confidence = confidence
        self.context = context
        self.steps = {s.id: s for s in plan.steps}
        self.traces = {
            s.id: StepTrace(id=s.id, domain=s.domain, capability=s.capability, params=s.params)
            for s in plan.steps
        }
        self.outputs: dict[int, DomainOutput] = {}
        # "sequential" means one step at a time, in plan order among the ready ones
        self.semaphore = asyncio.Semaphore(1 if plan.execution_mode == "sequential" else plan.max_concurrency)

    async def go(self) -> None:
        running: set[asyncio.Task[None]] = set()
        started: set[int] = set()
        try:
            while True:
                progressed = True
                while progressed:  # a skip settles a step at once: it may unblock one listed earlier
                    progressed = False
                    for step in self.plan.steps:
                        if step.id in started or not self._dependencies_settled(step):
                            continue
                        started.add(step.id)
                        progressed = True
                        if not await self._blocked(step):
                            running.add(asyncio.create_task(self._run(step), name=f"step-{step.id}"))
                if not running:
                    # steps still unstarted wait behind a waiting_input step: they stay pending
                    return
                done, running = await asyncio.wait(running, return_when=asyncio.FIRST_COMPLETED)
                for task in done:
                    task.result()  # surface bugs in the engine itself
        finally:
            for task in running:
                task.cancel()

    def _dependencies_settled(self, step: ExecutionStep) -> bool:
        return all(self.traces[d].status in _SETTLED for d in self.deps[step.id])

    async def _blocked(self, step: ExecutionStep) -> bool:
        """Settle ``step`` without running it when a dependency did not succeed. A required step
        fails only when the cause is an optional failure (a required one already failed the run)."""
        unmet = [d for d in sorted(self.deps[step.id]) if self.traces[d].status is not RunStatus.COMPLETED]
        if not unmet:
            return False
        upstream_required = any(self.steps[d].required for d in unmet)
        new = RunStatus.FAILED if step.required and not upstream_required else RunStatus.SKIPPED
        trace = self.traces[step.id]
        trace.error = f"step {', '.join(map(str, unmet))} did not succeed"
        await self._set(trace, new)
        return True

    async def _run(self, step: ExecutionStep) -> None:
        trace = self.traces[step.id]
        async with self.semaphore:
            trace.started_at = datetime.now(UTC)
            trace.attempts += 1
            clock = time.perf_counter()
            await self._set(trace, RunStatus.EXECUTING)
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
                output = await self.executor._run_step(intent, step)
            except PlatformError as exc:
                trace.error = exc.message
            except Exception as exc:  # the step failed; the run goes on and says why
                log.warning("step %s (%s) raised", step.id, step.capability, exc_info=True)
                trace.error = f"{type(exc).__name__}: {exc}"
            trace.finished_at = datetime.now(UTC)
            trace.duration_ms = round((time.perf_counter() - clock) * 1000, 3)
            if output is None:
                await self._set(trace, RunStatus.FAILED)
                return
            trace.output = output
            self.outputs[step.id] = output
            if output.status == "failure":
                trace.error = output.explanation or "the domain reported a failure"
            await self._set(trace, _BY_DOMAIN_STATUS[output.status])

    async def _set(self, trace: StepTrace, status: RunStatus) -> None:
        trace.status = transition(trace.status, status)
        await self.executor._emit(trace)
