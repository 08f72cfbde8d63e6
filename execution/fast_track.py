"""The fast track: a request that needs no plan is one guarded call, with no DAG and no
replanning, but the same statuses, events and answer as a one-step plan."""

from __future__ import annotations

from execution.dag import ExecutionReport, Preflight, RunStopped, StepCall
from execution.run_state import RunState, step_event
from shared import i18n
from shared.clock import utcnow
from shared.errors import PlatformError
from shared.models import CallContext, DomainOutput, ExecutionIntent, ExecutionStep, Failure, StepTrace
from shared.status import RunStatus, step_status_of, transition


async def run_fast_track(
    state: RunState, intent: ExecutionIntent, call: StepCall, preflight: Preflight
) -> ExecutionReport:
    """Call ``intent``'s one capability through ``call`` (validation, retries, budget)."""
    step = ExecutionStep(id=1, domain=intent.domain, capability=intent.capability, params=intent.parameters)
    trace = StepTrace(id=1, domain=step.domain, capability=step.capability, params=step.params)
    await state.move(RunStatus.EXECUTING, "fast track: one capability, no plan")
    unavailable = preflight(step)
    if unavailable:
        return await _unavailable(state, trace, unavailable)
    output = await _call(state, intent, step, trace, call)
    new = step_status_of(output.status if output else "failure")
    if output is not None and output.status == "failure":
        trace.error = output.explanation or "the domain reported a failure"
    trace.status = transition(trace.status, new)
    await state.emit(step_event(state.run_id, trace))
    completed = new is RunStatus.COMPLETED
    await state.move(new, None if completed else trace.error)
    if output is None:
        answer = i18n.t("run.failed", state.language, reason=trace.error or "")
    else:
        ending = "run.done" if completed else "run.failed"
        answer = output.explanation or i18n.t(ending, state.language, reason="")
    return ExecutionReport(
        status=state.status,
        steps=[trace],
        output=output or DomainOutput(status="failure", explanation=trace.error or ""),
        reason=None if completed else trace.error,
        answer=answer,
        decision="last_step_completed" if completed else "definitive_failure",
    )


async def _unavailable(state: RunState, trace: StepTrace, reason: str) -> ExecutionReport:
    trace.status = transition(trace.status, RunStatus.FAILED)
    trace.error = reason
    await state.emit(step_event(state.run_id, trace))
    await state.move(RunStatus.FAILED, reason)
    return ExecutionReport(
        status=state.status,
        steps=[trace],
        output=DomainOutput(
            status="failure", explanation=reason, failure=Failure(reason="domain_unavailable")
        ),
        reason=reason,
        answer=i18n.t("run.failed", state.language, reason=reason),
        decision="definitive_failure",
    )


async def _call(
    state: RunState, intent: ExecutionIntent, step: ExecutionStep, trace: StepTrace, call: StepCall
) -> DomainOutput | None:
    """The guarded call; None (with ``trace.error`` set) when it produced no answer."""
    request = intent.model_copy(update={"context": {**intent.context, **state.context, "step_id": 1}})
    trace.status = transition(trace.status, RunStatus.EXECUTING)
    trace.started_at = utcnow()
    await state.emit(step_event(state.run_id, trace))
    output: DomainOutput | None = None
    try:
        output = await call(request, step, CallContext(run_id=state.run_id, step_id=1), trace)
    except RunStopped as exc:
        trace.error = exc.reason
    except PlatformError as exc:
        trace.error = exc.message
    trace.finished_at = utcnow()
    trace.output = output
    return output
