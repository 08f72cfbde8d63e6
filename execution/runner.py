"""The run loop: one entry point around :class:`~execution.dag.DagExecutor` for the dialogue.

``RunController.run`` takes a planned request and drives it to a final answer::

    pending -> executing -> [replanning -> executing]* -> completed | failed | waiting_input
                                                        | timeout | stagnated | deadlock

(an LLM plan: ``observing -> rewriting`` in place of ``replanning``; a new plan that waits for
the person's yes ends ``replanning | rewriting -> waiting_input``)

* refuses a plan with a cycle or a missing dependency as ``deadlock`` before running it;
* every step goes through :class:`~execution.retry.StepGuard` (output validation, retries with
  backoff per the capability's policy, the context policy's budget);
* a domain known to be down (``availability(domain)`` returns a reason) fails its required steps
  at once and skips its optional ones;
* after each round, :func:`~execution.analysis.analyze_result` (plus the declarative
  ``transition_overrides``) decides: stop, or ask the :class:`~shared.planning.RunPlanner` for a
  new plan from the failed step (bounded by ``max_replans``; the same failure twice is
  ``stagnated``); a re-issue with a value the person did not say (a failure's suggestion) runs
  only for a capability that changes nothing, and the report lists what it changed
  (``changes``); for one that changes something (``confirm``, or not ``idempotent``) the run
  waits instead, with the patched plan in ``report.held`` for the person's yes; a rewritten plan
  (an LLM plan's ``rewriting``) waits the same way when a step of it that changes something
  would be called with a value the person did not say (``shared.planning.unsaid_values``), or
  when it adds such a step with a capability the plan never called
  (``shared.planning.added_actions``), or when it would do again such a call that already
  succeeded, with the same values, or call such a capability more times than the plan did
  (``shared.planning.repeated_actions``: a second message); a held replan carries the values
  earlier read-only re-issues of the run used (``held.already_used``), so its question can name
  them too, and its plan carries them (``suggestions_used``): the run after the yes starts from
  them, so its answer names them too;
* ``combine_mode="report"`` goes through the synthesis strategy; the answer text is in the
  person's language;
* every run and step status change is sent to ``on_event`` as a small JSON-able dict.

Planning comes in through ``planner`` (a :class:`~shared.planning.RunPlanner`) so this package
never imports ``planner``. Every status change goes through :func:`shared.status.transition`.
"""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any

from execution.analysis import AnalysisResult, FailureKind, Observation, analyze_result
from execution.dag import (
    DagExecutor,
    ExecutionReport,
    PlanDeadlock,
    StepRunner,
    topological_order,
    validate_plan,
)
from execution.policy import ContextPolicy, Hooks, PolicyViolation, RunBudget, first_override
from execution.retry import StepGuard
from execution.run_state import SETTLED, Ending, RunEventSink, RunState, step_event
from execution.synthesis import ConcatSynthesis, SynthesisStrategy
from shared import i18n
from shared.catalog import Catalog
from shared.errors import PlanError
from shared.manifest import Capability
from shared.models import (
    IDEMPOTENCY_SUFFIX,
    ExecutionIntent,
    ExecutionPlan,
    ExecutionStep,
    IntentOutput,
    RunContext,
    StepTrace,
)
from shared.planning import (
    HeldReplan,
    ParamChange,
    ReplanAction,
    ReplanContext,
    RunPlanner,
    added_actions,
    repeated_actions,
    unsaid_values,
)
from shared.status import RunStatus

log = logging.getLogger(__name__)

#: ``domain -> reason it cannot take calls now`` (open circuit, unhealthy), or None.
Availability = Callable[[str], str | None]


@dataclass(frozen=True)
class _Judgement:
    """The verdict on one round: the analysis and the step to replan from, if any."""

    decision: AnalysisResult
    failed: ExecutionStep | None


class RunController:
    def __init__(
        self,
        catalog: Catalog | Callable[[], Catalog],
        run_step: StepRunner,
        *,
        planner: RunPlanner | None = None,
        policy: ContextPolicy | None = None,
        hooks: Hooks | None = None,
        synthesis: SynthesisStrategy | None = None,
        max_replans: int = 1,
        deadline_s: float | None = None,
        availability: Availability | None = None,
    ):
        """``planner`` plans requests that come without a plan and replans after recoverable
        failures; without it a run needs a plan and a recoverable failure is final."""
        self._catalog = catalog
        self._run_step = run_step
        self.planner = planner
        self.policy = policy or ContextPolicy()
        self.hooks = hooks or Hooks()
        self.synthesis: SynthesisStrategy = synthesis or ConcatSynthesis()
        self.max_replans = max_replans
        self.deadline_s = deadline_s
        self._availability = availability

    @property
    def catalog(self) -> Catalog:
        return self._catalog() if callable(self._catalog) else self._catalog

    def capability(self, name: str, domain: str) -> Capability | None:
        ref = self.catalog.find_capability(name, domain)
        return ref.capability if ref is not None else None

    # ------------------------------------------------------------------ entry point

    async def run(
        self,
        intent: IntentOutput,
        execution_intent: ExecutionIntent | None = None,
        plan: ExecutionPlan | None = None,
        *,
        context: RunContext | None = None,
        on_event: RunEventSink | None = None,
        resume: Mapping[int, StepTrace] | None = None,
    ) -> ExecutionReport:
        """Drive one planned request to its final answer. With ``plan=None`` (a hook changed the
        resolved intent, or a caller has none) the planner plans ``execution_intent``. ``resume``: settled
        steps of ``plan`` from an earlier run of it (a plan that waited for the person goes on):
        kept as they are, their outputs feed references, they are not called again."""
        state = self._start(intent, context, on_event)
        try:
            execution_intent, plan = self._after_resolve_hook(intent, execution_intent, plan)
            if plan is None and execution_intent is not None:
                plan = self._plan(execution_intent)
        except PlanError as exc:
            return await self._planning_error(state, exc.message)
        if plan is None:
            return await self._nothing_to_run(state)
        state.plan = plan
        # a plan approved in an earlier turn brings the suggestions used before its yes
        state.changes = list(plan.suggestions_used)
        state.confidence = execution_intent.confidence if execution_intent else intent.confidence
        state.said = _said(intent, execution_intent)
        ids = {s.id for s in plan.steps}
        kept = {i: t for i, t in (resume or {}).items() if i in ids and t.status in SETTLED}
        return await self._loop(state, kept)

    def _start(
        self, intent: IntentOutput, given: RunContext | None, on_event: RunEventSink | None
    ) -> RunState:
        context: dict[str, Any] = dict(given or {})
        default = i18n.as_language(intent.language)
        language = i18n.language_of(context, intent.original_query, default=default)
        run_id = str(context.get("run_id") or f"run-{uuid.uuid4().hex}")
        context.update(run_id=run_id, language=language)
        return RunState(
            run_id=run_id,
            language=language,
            on_event=on_event,
            query=intent.original_query,
            confidence=intent.confidence,
            context=context,
        )

    def _after_resolve_hook(
        self, intent: IntentOutput, execution_intent: ExecutionIntent | None, plan: ExecutionPlan | None
    ) -> tuple[ExecutionIntent | None, ExecutionPlan | None]:
        """A ``post_resolve_hook`` that changes the resolved intent voids the given plan."""
        if execution_intent is None or self.hooks.post_resolve_hook is None:
            return execution_intent, plan
        try:
            override = self.hooks.post_resolve_hook(intent, execution_intent)
        except Exception as exc:  # the operator's code: the run fails with a reason, not the turn
            log.exception("post_resolve_hook raised")
            raise PlanError(f"the post_resolve_hook failed ({type(exc).__name__})") from exc
        if override is not None and override != execution_intent:
            return override, None
        return execution_intent, plan

    def _plan(self, execution_intent: ExecutionIntent) -> ExecutionPlan:
        if self.planner is None:
            raise PlanError("this run controller has no planner: the request needs a plan", param="plan")
        return self.planner.plan(execution_intent, self.catalog)

    async def _nothing_to_run(self, state: RunState) -> ExecutionReport:
        decision = analyze_result(Observation(has_plan=False))
        await state.move(RunStatus.EXECUTING)
        await state.move(RunStatus.COMPLETED, decision.feedback)
        return ExecutionReport(
            status=state.status,
            reason=decision.feedback,
            answer=i18n.t("run.done", state.language),
            decision=decision.case,
        )

    # ------------------------------------------------------------------ the loop

    async def _loop(self, state: RunState, kept: dict[int, StepTrace]) -> ExecutionReport:
        budget = RunBudget(self.policy)
        refused = await self._refuse_unrunnable(state, budget)
        if refused is not None:
            return refused
        executor = DagExecutor(
            on_event=lambda trace: self._on_step(state, trace),
            call=self._guard(budget),
            preflight=partial(self._preflight, language=state.language),
        )
        await state.move(RunStatus.EXECUTING)
        resume = kept
        while True:
            try:
                report = await self._round(state, executor, resume)
            except PlanError as exc:  # a replan produced an invalid plan
                return await self._planning_error(state, exc.message)
            ending = self._stopped_inside_round(report)
            if ending is not None:
                return await self._end(state, report, ending)
            judgement = self._judge(state, report, resume)
            if isinstance(judgement, Ending):
                return await self._end(state, report, judgement)
            next_round = await self._replan_if_decided(state, report, judgement, budget)
            if isinstance(next_round, Ending):
                return await self._end(state, report, next_round)
            if next_round is None:
                return await self._end(state, report, self._settled(report, judgement.decision))
            resume = next_round

    async def _refuse_unrunnable(self, state: RunState, budget: RunBudget) -> ExecutionReport | None:
        """A plan that can never finish, or that breaks the policy, is refused before it runs."""
        try:
            validate_plan(state.plan)
        except PlanDeadlock as exc:
            await state.move(RunStatus.DEADLOCK, exc.message)
            return self._unrun(state, RunStatus.DEADLOCK, exc.message, "run.deadlock")
        except PlanError as exc:
            return await self._planning_error(state, exc.message)
        try:
            budget.check_steps(len(state.plan.steps))
        except PolicyViolation as exc:
            await state.move(RunStatus.FAILED, exc.reason)
            return self._unrun(state, RunStatus.FAILED, exc.reason, "run.policy")
        return None

    async def _round(
        self, state: RunState, executor: DagExecutor, resume: dict[int, StepTrace]
    ) -> ExecutionReport:
        context = dict(state.context)
        if state.replans:  # a replanned call is a new request for the domain's idempotency
            context[IDEMPOTENCY_SUFFIX] = f"r{state.replans}"  # the DAG moves it into each CallContext
        return await executor.execute(
            state.plan,
            original_query=state.query,
            confidence=state.confidence,
            context=context,
            deadline_s=self._seconds_left(state),
            resume=resume,
        )

    def _stopped_inside_round(self, report: ExecutionReport) -> Ending | None:
        """A timeout or a policy stop ended the round early; the policy's own duration limit is a
        policy failure, not a timeout."""
        if report.reason is None:
            return None
        if report.status is RunStatus.TIMEOUT:
            if self._limits()[0][1]:  # the policy's limit was the nearer one
                limit = self.policy.max_plan_duration_s
                reason = f"policy max_plan_duration_s: the plan did not finish within {limit:g} s"
                return Ending(RunStatus.FAILED, reason, "run.policy")
            return Ending(
                RunStatus.TIMEOUT, f"the plan did not finish within {self.deadline_s:g} s", "run.timeout"
            )
        kind = "run.policy" if report.status is RunStatus.FAILED else "run.timeout"
        return Ending(report.status, report.reason, kind)

    def _judge(
        self, state: RunState, report: ExecutionReport, resume: dict[int, StepTrace]
    ) -> _Judgement | Ending:
        """Analyse the round, let the transition overrides have their say, then catch a replan
        that made no progress."""
        observation, failed = self._observe(state, report)
        judgement = _Judgement(analyze_result(observation), failed)
        ran = [t for t in report.steps if t.id not in resume]  # kept traces were judged before
        override = first_override(self.hooks.transition_overrides, ran)
        if override is not None:
            rule, hit = override
            if rule.goto is not RunStatus.REPLANNING:
                reason = f"transition override: step {hit.id} {rule.when_status.value} -> {rule.goto.value}"
                return Ending(rule.goto, reason, "run.failed")
            if judgement.decision.case != "replanning":
                failed = next(s for s in state.plan.steps if s.id == hit.id)
                observation = self._recoverable(state, hit)
                judgement = _Judgement(analyze_result(observation), failed)
        if judgement.failed is not None:
            trace = _trace_of(report, judgement.failed.id)
            if _signature(judgement.failed, trace) in state.seen_failures:
                step = judgement.failed
                reason = f"step {step.id} ({step.capability}) failed again with {_error_code(trace)}"
                return Ending(RunStatus.STAGNATED, reason, "run.stagnated", told=trace.error)
        return judgement

    async def _replan_if_decided(
        self, state: RunState, report: ExecutionReport, judgement: _Judgement, budget: RunBudget
    ) -> dict[int, StepTrace] | Ending | None:
        """Replan when the analysis says so: the traces to keep for the next round, an ending
        when no way forward exists, or None when the round's verdict stands."""
        failed = judgement.failed
        if failed is None or judgement.decision.case != "replanning":
            return None
        trace = _trace_of(report, failed.id)
        state.seen_failures.add(_signature(failed, trace))
        state.replans += 1
        if state.plan.planner == "deterministic":
            await state.move(RunStatus.REPLANNING, judgement.decision.feedback)
        else:  # ReWOO: a planner that wrote the plan reads what happened, then rewrites the rest
            observed = f"step {failed.id} ({failed.capability}) failed: {trace.error or ''}".strip()
            await state.move(RunStatus.OBSERVING, observed)
            await state.move(RunStatus.REWRITING, judgement.decision.feedback)
        context = ReplanContext(
            failed,
            trace.output,
            state.replans,
            state.tried.get(failed.id, []),
            completed={
                t.id: t.output
                for t in report.steps
                if t.status is RunStatus.COMPLETED and t.output is not None
            },
            query=state.query,
            language=state.language,
            seconds_left=self._seconds_left(state),
        )
        new = await self.planner.replan(state.plan, context) if self.planner is not None else None
        if new is None:
            reason = f"no alternative plan after step {failed.id} failed: {trace.error or ''}".strip()
            return Ending(RunStatus.FAILED, reason, "run.failed", told=trace.error)
        if new.patch:
            state.tried.setdefault(failed.id, []).append(new.patch)
        try:
            budget.check_steps(len(new.plan.steps))
        except PolicyViolation as exc:
            return Ending(RunStatus.FAILED, exc.reason, "run.policy")
        resume = {t.id: t for t in report.steps if t.status in SETTLED and t.id not in new.rerun}
        if new.action == "reissue":  # the failed step runs again, whatever it was
            resume.pop(failed.id, None)
            if self._changes_something(failed):
                # a value nobody said is never sent to a capability that acts: the person is asked
                held = HeldReplan(
                    _using(new.plan, state.changes),
                    failed.id,
                    new.changes,
                    trace.error or "",
                    list(resume.values()),
                    already_used=list(state.changes),
                )
                reason = (
                    f"step {failed.id} ({failed.capability}) changes something: "
                    f"re-issuing it with {new.patch} waits for the person's yes"
                )
                return Ending(RunStatus.WAITING_INPUT, reason, held=held)
            state.changes = _merged(state.changes, new.changes)
        else:  # a rewrite (or any other new plan) may bring values nobody said, as a re-issue may
            unsaid = self._unsaid(state, new.plan, resume)
            added = self._added(state, new.plan, resume)
            repeated = self._repeated(state, report, new.plan, resume)
            if unsaid or added or repeated:
                held = HeldReplan(
                    _using(new.plan, state.changes),
                    failed.id,
                    unsaid,
                    trace.error or "",
                    list(resume.values()),
                    new.action,
                    added=added,
                    already_used=list(state.changes),
                    repeated=repeated,
                )
                reason = _held_reason(new.action, unsaid, added, repeated)
                return Ending(RunStatus.WAITING_INPUT, reason, held=held)
        state.plan = new.plan
        await state.move(RunStatus.EXECUTING, new.note)
        return resume

    def _unsaid(
        self, state: RunState, plan: ExecutionPlan, resume: Mapping[int, StepTrace]
    ) -> list[ParamChange]:
        """The values of ``plan``'s steps still to be called that change something, which the
        person did not say (:func:`~shared.planning.unsaid_values`: not in the plan they asked
        for or approved, not among the request's entities)."""
        return [
            change
            for step in plan.steps
            if step.id not in resume and self._changes_something(step)
            for change in unsaid_values(step, state.plan, state.said)
        ]

    def _added(self, state: RunState, plan: ExecutionPlan, resume: Mapping[int, StepTrace]) -> list[int]:
        """The steps of ``plan`` still to be called that change something with a capability the
        plan that ran never called (:func:`~shared.planning.added_actions`): nothing the person
        asked for led to them, so their values being said is not enough."""
        return [
            step.id
            for step in added_actions(plan, state.plan)
            if step.id not in resume and self._changes_something(step)
        ]

    def _repeated(
        self, state: RunState, report: ExecutionReport, plan: ExecutionPlan, resume: Mapping[int, StepTrace]
    ) -> list[int]:
        """The steps of ``plan`` still to be called that change something and would do again a
        call of the plan that ran that already succeeded, or call their capability more times
        than that plan does (:func:`~shared.planning.repeated_actions`): the same values are no
        excuse, a second message is one the person did not ask for."""
        done = {t.id for t in report.steps if t.status is RunStatus.COMPLETED}
        called = {step.id for step in plan.steps if step.id not in resume}
        return [
            step.id
            for step in repeated_actions(plan, state.plan, done, called)
            if self._changes_something(step)
        ]

    def _changes_something(self, step: ExecutionStep) -> bool:
        """Whether calling ``step`` may act on the world (an unknown capability is taken to)."""
        capability = self.capability(step.capability, step.domain)
        if capability is None:
            return True
        policy = capability.metadata.policy
        return policy.confirm or not policy.idempotent

    @staticmethod
    def _settled(report: ExecutionReport, decision: AnalysisResult) -> Ending:
        """The round's own verdict (recorded as ``report.decision``): its status, or a failure once
        the replans are used up."""
        report.decision = decision.case
        if decision.case == "definitive_failure" and decision.feedback.startswith("max_replans_exceeded"):
            return Ending(RunStatus.FAILED, decision.feedback, "run.max_replans_exceeded")
        return Ending(report.status, note=None if decision.is_successful else decision.feedback)

    def _observe(self, state: RunState, report: ExecutionReport) -> tuple[Observation, ExecutionStep | None]:
        """The round as :func:`analyze_result` sees it, and the step to replan from, if any."""
        plan = state.plan
        by_id = {s.id: s for s in plan.steps}
        order = [s.id for s in topological_order(plan, validate_plan(plan))]
        traces = sorted(report.steps, key=lambda t: order.index(t.id))
        failed = [t for t in traces if t.status is RunStatus.FAILED]
        last = traces[-1].id if traces else None
        if report.status is RunStatus.WAITING_INPUT:
            return Observation(plan_status=RunStatus.WAITING_INPUT, current_step=last), None
        recoverable = [
            t
            for t in failed
            if t.output is not None
            and t.output.recoverable
            and (
                (by_id[t.id].required and report.status is RunStatus.FAILED)
                or bool(t.output.failure and t.output.failure.suggestions)
                # a plan a planner wrote step by step is rewritten around any required step
                # that failed recoverably, even when a report could answer without it (while
                # replans remain: then the report's partial answer stands)
                or (
                    by_id[t.id].required
                    and plan.planner != "deterministic"
                    and state.replans < self.max_replans
                )
            )
        ]
        if recoverable:
            return self._recoverable(state, recoverable[0]), by_id[recoverable[0].id]
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

    def _recoverable(self, state: RunState, trace: StepTrace) -> Observation:
        return Observation(
            current_step=trace.id,
            failure="recoverable",
            failure_reason=trace.error or "",
            replans=state.replans,
            max_replans=self.max_replans,
        )

    # ------------------------------------------------------------------ steps

    def _guard(self, budget: RunBudget) -> StepGuard:
        """Every call goes through validation, retries and the run's budget."""
        return StepGuard(
            self._run_step,
            self.capability,
            validation_fn=self.hooks.validation_fn,
            budget=budget,
        )

    def _preflight(self, step: ExecutionStep, *, language: str) -> str | None:
        """Why ``step`` must not be called (its domain is known to be down), in the person's words;
        the operator's reason (a URL, a transport error) stays in the registry and the logs."""
        if self._availability is None or not self._availability(step.domain):
            return None
        return i18n.t("domain.not_reachable", language, domain=step.domain)

    async def _on_step(self, state: RunState, trace: StepTrace) -> None:
        """Forward the step's status change, with the analysis' verdict on it once it settled."""
        state.steps[trace.id] = trace.status
        decision = None
        if trace.status in SETTLED:
            step = next((s for s in state.plan.steps if s.id == trace.id), None)
            optional = step is not None and not step.required
            failure: FailureKind = "none"
            if trace.status is RunStatus.FAILED:
                failure = "optional" if optional else "definitive"
                if trace.output is not None and trace.output.recoverable and not optional:
                    failure = "recoverable"
            remaining = sum(
                1
                for s in state.plan.steps
                if state.steps.get(s.id, RunStatus.PENDING) in (RunStatus.PENDING, RunStatus.EXECUTING)
            )
            decision = analyze_result(
                Observation(
                    current_step=trace.id,
                    remaining_steps=remaining,
                    failure=failure,
                    failure_reason=trace.error or "",
                    replans=state.replans,
                    max_replans=self.max_replans,
                )
            )
        await state.emit(step_event(state.run_id, trace, decision))

    # ------------------------------------------------------------------ endings

    def _limits(self) -> list[tuple[float, bool]]:
        """The run's time limits as ``(seconds, is_policy)``, nearest first (the run deadline
        first on a tie)."""
        return sorted(
            (limit, is_policy)
            for limit, is_policy in ((self.deadline_s, False), (self.policy.max_plan_duration_s, True))
            if limit is not None
        )

    def _seconds_left(self, state: RunState) -> float | None:
        limits = self._limits()
        if not limits:
            return None
        return max(limits[0][0] - (time.perf_counter() - state.started), 0.0)

    async def _planning_error(self, state: RunState, message: str) -> ExecutionReport:
        decision = analyze_result(Observation(planning_error=message))
        await state.move(RunStatus.FAILED, decision.feedback)
        return ExecutionReport(
            status=state.status,
            reason=decision.feedback,
            answer=i18n.t("run.planning_error", state.language, reason=message),
            decision=decision.case,
        )

    @staticmethod
    def _unrun(state: RunState, status: RunStatus, reason: str, kind: str) -> ExecutionReport:
        """The report of a plan refused before any step ran."""
        traces = [
            StepTrace(id=s.id, domain=s.domain, capability=s.capability, params=s.params)
            for s in state.plan.steps
        ]
        return ExecutionReport(
            status=status, steps=traces, reason=reason, answer=i18n.t(kind, state.language, reason=reason)
        )

    async def _end(self, state: RunState, report: ExecutionReport, ending: Ending) -> ExecutionReport:
        """Move the run to its final status, then settle the report's reason and answer.

        The report's reason is for operators; the answer names what went wrong in the domain's
        own words where there are some.
        """
        await state.move(ending.status, ending.reason if ending.reason is not None else ending.note)
        report.status = state.status
        report.replans = state.replans
        report.reason = ending.reason
        report.plan = _using(state.plan, state.changes)
        report.changes = list(state.changes)
        report.held = ending.held
        if state.plan.combine_mode == "report" and state.status is not RunStatus.WAITING_INPUT:
            required = {s.id: s.required for s in state.plan.steps}
            report.synthesis = await self.synthesis.synthesize(
                state.query, report.steps, required, state.language
            )
        report.answer = ending.answer(state, report)
        return report


def _said(intent: IntentOutput, execution_intent: ExecutionIntent | None) -> dict[str, list[Any]]:
    """The values the person said, by entity name: as understood, and as resolved for the call."""
    said: dict[str, list[Any]] = {}
    resolved = execution_intent.parameters if execution_intent is not None else {}
    for values in (intent.entities, resolved):
        for name, value in values.items():
            said.setdefault(name, []).append(value)
    return said


def _using(plan: ExecutionPlan, changes: list[ParamChange]) -> ExecutionPlan:
    """``plan`` recording the suggestions its run used (``ExecutionPlan.suggestions_used``)."""
    if plan.suggestions_used == changes:
        return plan
    return plan.model_copy(update={"suggestions_used": list(changes)})


def _held_reason(
    action: ReplanAction, unsaid: list[ParamChange], added: list[int], repeated: list[int]
) -> str:
    """Why a new plan waits, for the trace: the steps with values nobody said, the actions added
    or repeated."""
    parts = []
    if unsaid:
        steps = ", ".join(str(i) for i in dict.fromkeys(c.step_id for c in unsaid))
        parts.append(f"calls steps {steps}, which change something, with values the person did not say")
    if added:
        steps = ", ".join(str(i) for i in added)
        parts.append(f"adds steps {steps}, which change something with a capability the plan never called")
    if repeated:
        steps = ", ".join(str(i) for i in repeated)
        parts.append(f"calls again in steps {steps} what changes something, past the plan's calls")
    return f"the new plan ({action}) {' and '.join(parts)}: it waits for the person's yes"


def _trace_of(report: ExecutionReport, step_id: int) -> StepTrace:
    return next(t for t in report.steps if t.id == step_id)


def _error_code(trace: StepTrace) -> str:
    """The failure's stable code when the domain gave one, else the step's error text."""
    if trace.output is not None and trace.output.failure is not None:
        return trace.output.failure.reason
    return trace.error or trace.status.value


def _merged(changes: list[ParamChange], new: list[ParamChange]) -> list[ParamChange]:
    """``changes`` with ``new`` applied over them: one change per parameter, from the value the
    plan had first to the last one used (none when it came back to the first)."""
    merged = list(changes)
    for change in new:
        earlier = next((c for c in merged if (c.step_id, c.param) == (change.step_id, change.param)), None)
        if earlier is not None:
            merged.remove(earlier)
            change = ParamChange(change.step_id, change.param, earlier.before, change.after)
        if change.before != change.after:
            merged.append(change)
    return merged


def _signature(step: ExecutionStep, trace: StepTrace) -> tuple[int, str, str]:
    """A failure as seen twice: the same step failing the same way means no progress."""
    return step.id, step.capability, _error_code(trace)
