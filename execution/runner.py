"""The run loop: one entry point around :class:`~execution.dag.DagExecutor` for the gateway.

``RunController.run`` takes a planned request and drives it to a final answer::

    pending -> executing -> [replanning -> executing]* -> completed | failed | waiting_input
                                                        | timeout | stagnated | deadlock

* refuses a plan with a cycle or a missing dependency as ``deadlock`` before running it;
* every step goes through :class:`~execution.retry.StepGuard` (output validation, retries with
  backoff per the capability's policy, the context policy's budget);
* a domain known to be down (``availability(domain)`` returns a reason) fails its required steps
  at once and skips its optional ones;
* after each round, seed 004's :func:`~execution.analysis.analyze_result` (plus the declarative
  ``transition_overrides``) decides: stop, or replan from the failed step with
  :class:`planner.replanner.Replanner` (bounded by ``max_replans``; the same failure twice is
  ``stagnated``);
* ``combine_mode="report"`` goes through the synthesis strategy; the answer text is in the
  person's language;
* every run and step status change is sent to ``on_event`` as a small JSON-able dict.

Every status change goes through :func:`shared.status.transition`.
"""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from execution.analysis import AnalysisResult, Observation, analyze_result
from execution.dag import (
    DagExecutor,
    ExecutionReport,
    PlanDeadlock,
    RunStopped,
    StepRunner,
    topological_order,
    validate_plan,
)
from execution.forks import ContractKind
from execution.language import detect_language, language_of, normalize, text
from execution.policy import ContextPolicy, Hooks, PolicyViolation, RunBudget, first_override
from execution.retry import StepGuard
from execution.synthesis import ConcatSynthesis, SynthesisStrategy
from planner.fast_track import needs_plan
from planner.replanner import ReplanContext, Replanner
from planner.task_decomposer import TaskDecomposer
from shared.catalog import Catalog
from shared.errors import PlanError, PlatformError
from shared.manifest import Capability
from shared.models import (
    DomainOutput,
    ExecutionIntent,
    ExecutionPlan,
    ExecutionStep,
    IntentOutput,
    StepTrace,
)
from shared.status import RunStatus, transition

log = logging.getLogger(__name__)

RunEventSink = Callable[[dict[str, Any]], Awaitable[None]]
#: ``domain -> reason it cannot take calls now`` (open circuit, unhealthy), or None.
Availability = Callable[[str], str | None]


def step_event(run_id: str, trace: StepTrace, decision: AnalysisResult | None = None) -> dict[str, Any]:
    event: dict[str, Any] = {
        "type": "step",
        "run_id": run_id,
        "step": trace.id,
        "domain": trace.domain,
        "capability": trace.capability,
        "status": trace.status.value,
        "attempts": trace.attempts,
        "error": trace.error,
    }
    if decision is not None:
        event["decision"] = decision.case
    return event


@dataclass
class _RunState:
    """What the loop knows about one run."""

    run_id: str
    language: str
    on_event: RunEventSink | None
    status: RunStatus = RunStatus.PENDING
    replans: int = 0
    started: float = field(default_factory=time.perf_counter)
    seen_failures: set[tuple[int, str, str]] = field(default_factory=set)
    tried: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    #: latest status of each step this round (for the per-step analysis)
    steps: dict[int, RunStatus] = field(default_factory=dict)

    async def move(self, new: RunStatus, reason: str | None = None) -> None:
        self.status = transition(self.status, new)
        await self.emit({"type": "run", "run_id": self.run_id, "status": new.value, "reason": reason})

    async def emit(self, event: dict[str, Any]) -> None:
        if self.on_event is None:
            return
        try:
            await self.on_event(event)
        except Exception:  # a broken listener must not break the run
            log.exception("run event listener failed")


class RunController:
    def __init__(
        self,
        catalog: Catalog | Callable[[], Catalog],
        run_step: StepRunner,
        *,
        policy: ContextPolicy | None = None,
        hooks: Hooks | None = None,
        synthesis: SynthesisStrategy | None = None,
        max_replans: int = 1,
        deadline_s: float | None = None,
        availability: Availability | None = None,
        replanner: Replanner | None = None,
        contract_strategy: ContractKind = "simple",
    ):
        self._catalog = catalog
        self._run_step = run_step
        self.policy = policy or ContextPolicy()
        self.hooks = hooks or Hooks()
        self.synthesis: SynthesisStrategy = synthesis or ConcatSynthesis()
        self.max_replans = max_replans
        self.deadline_s = deadline_s
        self._availability = availability
        self.replanner = replanner or Replanner()
        self.contract_strategy: ContractKind = contract_strategy

    @property
    def catalog(self) -> Catalog:
        return self._catalog() if callable(self._catalog) else self._catalog

    def capability(self, name: str, domain: str) -> Capability | None:
        ref = self.catalog.find_capability(name, domain)
        return ref.capability if ref is not None else None

    # ------------------------------------------------------------------ entry points

    async def run(
        self,
        intent: IntentOutput,
        execution_intent: ExecutionIntent | None = None,
        plan: ExecutionPlan | None = None,
        *,
        context: dict[str, Any] | None = None,
        on_event: RunEventSink | None = None,
    ) -> ExecutionReport:
        """Drive one planned request to its final answer. With ``plan=None`` the controller plans
        ``execution_intent`` itself (fast track when :func:`needs_plan` says one call is enough)."""
        context = dict(context or {})
        state = _RunState(
            run_id=str(context.get("run_id") or f"run-{uuid.uuid4().hex}"),
            language=normalize(context["language"])
            if context.get("language")
            else detect_language(intent.original_query, default=normalize(intent.language)),
            on_event=on_event,
        )
        context.update(run_id=state.run_id, language=state.language)
        try:
            if execution_intent is not None and self.hooks.post_resolve_hook is not None:
                override = self.hooks.post_resolve_hook(intent, execution_intent)
                if override is not None and override != execution_intent:
                    execution_intent, plan = override, None
            if plan is None and execution_intent is not None:
                if not needs_plan(execution_intent, self.catalog):
                    return await self._direct(state, execution_intent, context)
                plan = TaskDecomposer(self.catalog).decompose(execution_intent)
        except PlanError as exc:
            return await self._planning_error(state, exc.message)
        if plan is None:
            decision = analyze_result(Observation(has_plan=False))
            await state.move(RunStatus.EXECUTING)
            await state.move(RunStatus.COMPLETED, decision.feedback)
            return ExecutionReport(
                status=state.status,
                reason=decision.feedback,
                answer=text(state.language, "done"),
                decision=decision.case,
            )
        confidence = execution_intent.confidence if execution_intent else intent.confidence
        return await self._loop(state, plan, intent.original_query, confidence, context)

    async def run_direct(
        self,
        execution_intent: ExecutionIntent,
        *,
        context: dict[str, Any] | None = None,
        on_event: RunEventSink | None = None,
    ) -> ExecutionReport:
        """The fast track: one capability, one guarded call, no DAG (and no replanning)."""
        context = dict(context or {})
        state = _RunState(
            run_id=str(context.get("run_id") or f"run-{uuid.uuid4().hex}"),
            language=language_of(context, execution_intent.original_query),
            on_event=on_event,
        )
        context.update(run_id=state.run_id, language=state.language)
        return await self._direct(state, execution_intent, context)

    # ------------------------------------------------------------------ the loop

    async def _loop(
        self, state: _RunState, plan: ExecutionPlan, query: str, confidence: float, context: dict[str, Any]
    ) -> ExecutionReport:
        try:
            validate_plan(plan)
        except PlanDeadlock as exc:
            await state.move(RunStatus.DEADLOCK, exc.message)
            return self._problem(state, plan, RunStatus.DEADLOCK, exc.message, "deadlock")
        except PlanError as exc:
            return await self._planning_error(state, exc.message)
        budget = RunBudget(self.policy)
        try:
            budget.check_steps(len(plan.steps))
        except PolicyViolation as exc:
            await state.move(RunStatus.FAILED, exc.reason)
            return self._problem(state, plan, RunStatus.FAILED, exc.reason, "policy")

        executor = DagExecutor(
            self._run_step,
            on_event=lambda trace: self._on_step(state, plan, trace),
            call=StepGuard(
                self._run_step, self.capability, validation_fn=self.hooks.validation_fn, budget=budget
            ),
            preflight=self._preflight,
            contract_strategy=self.contract_strategy,
        )
        await state.move(RunStatus.EXECUTING)
        resume: dict[int, StepTrace] = {}
        while True:
            deadline, deadline_is_policy = self._remaining(state)
            round_context = dict(context)
            if state.replans:
                round_context["idempotency_suffix"] = f"r{state.replans}"
            try:
                report = await executor.execute(
                    plan,
                    original_query=query,
                    confidence=confidence,
                    context=round_context,
                    deadline_s=deadline,
                    resume=resume,
                )
            except PlanError as exc:  # a replan produced an invalid plan
                return await self._planning_error(state, exc.message)
            if report.reason is not None:  # timeout or a policy stop inside the round
                final = report.status
                reason = report.reason
                kind = "timeout"
                if final is RunStatus.TIMEOUT:
                    limit = self.policy.max_plan_duration_s if deadline_is_policy else self.deadline_s
                    reason = f"the plan did not finish within {limit:g} s"
                if final is RunStatus.TIMEOUT and deadline_is_policy:
                    final, kind = RunStatus.FAILED, "policy"
                    reason = f"policy max_plan_duration_s: {reason}"
                elif final is RunStatus.FAILED:
                    kind = "policy"
                await state.move(final, reason)
                return await self._finish(state, plan, report, query, reason=reason, kind=kind)

            observation, failed = self._observe(state, plan, report)
            decision = analyze_result(observation)
            ran = [t for t in report.steps if t.id not in resume]  # kept traces were judged before
            override = first_override(self.hooks.transition_overrides, ran)
            if override is not None:
                rule, hit = override
                if rule.goto is RunStatus.REPLANNING and decision.case != "replanning":
                    failed = next(s for s in plan.steps if s.id == hit.id)
                    decision = analyze_result(
                        Observation(
                            current_step=hit.id,
                            failure="recoverable",
                            failure_reason=hit.error or "",
                            replans=state.replans,
                            max_replans=self.max_replans,
                        )
                    )
                elif rule.goto is not RunStatus.REPLANNING:
                    reason = (
                        f"transition override: step {hit.id} {rule.when_status.value} -> {rule.goto.value}"
                    )
                    await state.move(rule.goto, reason)
                    return await self._finish(state, plan, report, query, reason=reason, kind="failed")
            if failed is not None:
                trace = next(t for t in report.steps if t.id == failed.id)
                signature = (failed.id, failed.capability, _error_code(trace))
                if signature in state.seen_failures:  # the last replan made no progress
                    reason = f"step {failed.id} ({failed.capability}) failed again with {signature[2]}"
                    await state.move(RunStatus.STAGNATED, reason)
                    return await self._finish(
                        state, plan, report, query, reason=reason, kind="stagnated", told=trace.error
                    )
            if failed is not None and decision.case == "replanning":
                trace = next(t for t in report.steps if t.id == failed.id)
                state.seen_failures.add((failed.id, failed.capability, _error_code(trace)))
                state.replans += 1
                await state.move(RunStatus.REPLANNING, decision.feedback)
                new = self.replanner.replan(
                    plan, ReplanContext(failed, trace.output, state.replans, state.tried.get(failed.id, []))
                )
                if new is None:
                    reason = f"no alternative plan after step {failed.id} failed: {trace.error or ''}".strip()
                    await state.move(RunStatus.FAILED, reason)
                    report.replans = state.replans
                    return await self._finish(
                        state, plan, report, query, reason=reason, kind="failed", told=trace.error
                    )
                if new.patch:
                    state.tried.setdefault(failed.id, []).append(new.patch)
                try:
                    budget.check_steps(len(new.plan.steps))
                except PolicyViolation as exc:
                    await state.move(RunStatus.FAILED, exc.reason)
                    return await self._finish(state, plan, report, query, reason=exc.reason, kind="policy")
                settled = (RunStatus.COMPLETED, RunStatus.FAILED, RunStatus.SKIPPED)
                resume = {t.id: t for t in report.steps if t.status in settled and t.id not in new.rerun}
                if new.action == "reissue":  # the failed step runs again, whatever it was
                    resume.pop(failed.id, None)
                plan = new.plan
                await state.move(RunStatus.EXECUTING, new.note)
                continue
            report.decision = decision.case
            if decision.case == "definitive_failure" and decision.feedback.startswith("max_replans_exceeded"):
                await state.move(RunStatus.FAILED, decision.feedback)
                return await self._finish(
                    state, plan, report, query, reason=decision.feedback, kind="max_replans_exceeded"
                )
            await state.move(report.status, None if decision.is_successful else decision.feedback)
            return await self._finish(state, plan, report, query, reason=None, kind=None)

    def _observe(
        self, state: _RunState, plan: ExecutionPlan, report: ExecutionReport
    ) -> tuple[Observation, ExecutionStep | None]:
        by_id = {s.id: s for s in plan.steps}
        traces = [t for t in report.steps]
        order = [s.id for s in topological_order(plan, validate_plan(plan))]
        traces.sort(key=lambda t: order.index(t.id))
        failed = [t for t in traces if t.status is RunStatus.FAILED]
        recoverable = [
            t
            for t in failed
            if t.output is not None
            and t.output.metadata.get("recoverable") is True
            and (
                (by_id[t.id].required and report.status is RunStatus.FAILED)
                or bool(t.output.metadata.get("suggestions"))
            )
        ]
        last = traces[-1].id if traces else None
        if report.status is RunStatus.WAITING_INPUT:
            return Observation(plan_status=RunStatus.WAITING_INPUT, current_step=last), None
        if recoverable:
            t = recoverable[0]
            return (
                Observation(
                    current_step=t.id,
                    failure="recoverable",
                    failure_reason=t.error or "",
                    replans=state.replans,
                    max_replans=self.max_replans,
                ),
                by_id[t.id],
            )
        if report.status is RunStatus.FAILED:
            first = next((t for t in failed if by_id[t.id].required), failed[0] if failed else None)
            return (
                Observation(
                    current_step=first.id if first else last,
                    failure="definitive",
                    failure_reason=(first.error if first else None) or "no step produced an answer",
                ),
                None,
            )
        return Observation(current_step=last, remaining_steps=0), None

    # ------------------------------------------------------------------ steps

    def _preflight(self, step: ExecutionStep) -> str | None:
        if self._availability is None:
            return None
        reason = self._availability(step.domain)
        return f"domain '{step.domain}' unavailable: {reason}" if reason else None

    async def _on_step(self, state: _RunState, plan: ExecutionPlan, trace: StepTrace) -> None:
        """Forward the step's status change, with seed 004's verdict on it once it settled."""
        state.steps[trace.id] = trace.status
        decision = None
        if trace.status in (RunStatus.COMPLETED, RunStatus.FAILED, RunStatus.SKIPPED):
            step = next((s for s in plan.steps if s.id == trace.id), None)
            optional = step is not None and not step.required
            failure = "none"
            if trace.status is RunStatus.FAILED:
                failure = "optional" if optional else "definitive"
                if (
                    trace.output is not None
                    and trace.output.metadata.get("recoverable") is True
                    and not optional
                ):
                    failure = "recoverable"
            decision = analyze_result(
                Observation(
                    current_step=trace.id,
                    remaining_steps=sum(
                        1
                        for s in plan.steps
                        if state.steps.get(s.id, RunStatus.PENDING)
                        in (RunStatus.PENDING, RunStatus.EXECUTING)
                    ),
                    failure=failure,  # type: ignore[arg-type]  # one of the Failure literals
                    failure_reason=trace.error or "",
                    replans=state.replans,
                    max_replans=self.max_replans,
                )
            )
        await state.emit(step_event(state.run_id, trace, decision))

    async def _direct(
        self, state: _RunState, intent: ExecutionIntent, context: dict[str, Any]
    ) -> ExecutionReport:
        step = ExecutionStep(
            id=1, domain=intent.domain, capability=intent.capability, params=intent.parameters
        )
        trace = StepTrace(id=1, domain=step.domain, capability=step.capability, params=step.params)
        await state.move(RunStatus.EXECUTING, "fast track: one capability, no plan")
        reason = self._preflight(step)
        if reason:
            trace.status = transition(trace.status, RunStatus.FAILED)
            trace.error = reason
            await state.emit(step_event(state.run_id, trace))
            await state.move(RunStatus.FAILED, reason)
            return ExecutionReport(
                status=state.status,
                steps=[trace],
                output=DomainOutput(
                    status="failure", explanation=reason, metadata={"error": "domain_unavailable"}
                ),
                reason=reason,
                answer=text(state.language, "failed", reason=reason),
                decision="definitive_failure",
            )
        guard = StepGuard(
            self._run_step,
            self.capability,
            validation_fn=self.hooks.validation_fn,
            budget=RunBudget(self.policy),
        )
        call = intent.model_copy(update={"context": {**intent.context, **context, "step_id": 1}})
        trace.status = transition(trace.status, RunStatus.EXECUTING)
        trace.started_at = datetime.now(UTC)
        await state.emit(step_event(state.run_id, trace))
        output: DomainOutput | None = None
        try:
            output = await guard(call, step, trace)
        except RunStopped as exc:
            trace.error = exc.reason
        except PlatformError as exc:
            trace.error = exc.message
        trace.finished_at = datetime.now(UTC)
        trace.output = output
        new = {
            "success": RunStatus.COMPLETED,
            "failure": RunStatus.FAILED,
            "clarification": RunStatus.WAITING_INPUT,
        }[output.status if output else "failure"]
        if output is not None and output.status == "failure":
            trace.error = output.explanation or "the domain reported a failure"
        trace.status = transition(trace.status, new)
        await state.emit(step_event(state.run_id, trace))
        final = output or DomainOutput(status="failure", explanation=trace.error or "")
        await state.move(new, None if new is RunStatus.COMPLETED else trace.error)
        answer = final.explanation or text(
            state.language, "done" if new is RunStatus.COMPLETED else "failed", reason=""
        )
        if output is None:
            answer = text(state.language, "failed", reason=trace.error or "")
        return ExecutionReport(
            status=state.status,
            steps=[trace],
            output=final,
            reason=None if new is RunStatus.COMPLETED else trace.error,
            answer=answer,
            decision="last_step_completed" if new is RunStatus.COMPLETED else "definitive_failure",
        )

    # ------------------------------------------------------------------ endings

    def _remaining(self, state: _RunState) -> tuple[float | None, bool]:
        """Seconds left before the run deadline or the policy's plan duration, and whether the
        policy's is the nearer one."""
        elapsed = time.perf_counter() - state.started
        limits = [
            (limit - elapsed, is_policy)
            for limit, is_policy in ((self.deadline_s, False), (self.policy.max_plan_duration_s, True))
            if limit is not None
        ]
        if not limits:
            return None, False
        left, is_policy = min(limits)
        return max(left, 0.0), is_policy

    async def _planning_error(self, state: _RunState, message: str) -> ExecutionReport:
        decision = analyze_result(Observation(planning_error=message))
        await state.move(RunStatus.FAILED, decision.feedback)
        return ExecutionReport(
            status=state.status,
            reason=decision.feedback,
            answer=text(state.language, "planning_error", reason=message),
            decision=decision.case,
        )

    def _problem(
        self, state: _RunState, plan: ExecutionPlan, status: RunStatus, reason: str, kind: str
    ) -> ExecutionReport:
        traces = [
            StepTrace(id=s.id, domain=s.domain, capability=s.capability, params=s.params) for s in plan.steps
        ]
        return ExecutionReport(
            status=status, steps=traces, reason=reason, answer=text(state.language, kind, reason=reason)
        )

    async def _finish(
        self,
        state: _RunState,
        plan: ExecutionPlan,
        report: ExecutionReport,
        query: str,
        *,
        reason: str | None,
        kind: str | None,
        told: str | None = None,
    ) -> ExecutionReport:
        """Settle the report; ``reason`` goes to the trace, ``told`` (when given) to the person.

        The trace's reason is for operators ("no alternative plan after step 1 failed: ...");
        the answer names what went wrong in the domain's own words where there are some.
        """
        report.status = state.status
        report.replans = state.replans
        report.reason = reason
        traces = report.steps
        required = {s.id: s.required for s in plan.steps}
        if plan.combine_mode == "report" and state.status is not RunStatus.WAITING_INPUT:
            report.synthesis = await self.synthesis.synthesize(query, traces, required, state.language)
        if kind is not None and reason is not None:
            plain = told or reason.removeprefix("max_replans_exceeded: ")
            values = {"reason": plain, "replans": state.replans}
            report.answer = text(state.language, kind, **values)
            if report.synthesis is not None and report.synthesis.text and kind != "max_replans_exceeded":
                report.answer = f"{report.synthesis.text}\n{report.answer}"
        elif report.synthesis is not None and report.synthesis.text:
            report.answer = report.synthesis.text
        elif report.output is not None and report.output.explanation:
            report.answer = report.output.explanation
        elif state.status is RunStatus.COMPLETED:
            report.answer = text(state.language, "done")
        else:
            report.answer = text(state.language, "failed", reason=reason or "")
        return report


def _error_code(trace: StepTrace) -> str:
    if trace.output is not None and trace.output.metadata.get("error"):
        return str(trace.output.metadata["error"])
    return trace.error or trace.status.value
