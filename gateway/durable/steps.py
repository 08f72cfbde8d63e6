"""Plan steps as durable steps: inside a workflow (a background run), each step's domain call is
a DBOS step, checkpointed when it ends; a workflow resumed after a crash or a takeover gets the
completed steps' outputs back from the checkpoints, and only the next ones run.

The run controller takes its step runner from the gateway (:func:`durable_steps` wraps the
graph's); outside a workflow (an interactive turn) the step runs as it always did, at the cost of
one context lookup. A step is recorded under its plan step id, so a resumed run whose plan came out
different stops with DBOS's error rather than taking another step's output.
"""

from __future__ import annotations

import pickle
from dataclasses import dataclass

from dbos import DBOS
from dbos import error as dbos_error

from execution.dag import RunStopped, StepRunner
from shared.models import CallContext, DomainOutput, ExecutionIntent, ExecutionStep
from shared.status import RunStatus

#: Why a cancelled run stopped (as the gateway's own cancel check words it).
CANCELLED = "The run was cancelled; no further step was started."


@dataclass(frozen=True)
class _Stopped:
    """A step that stopped its run (:class:`RunStopped`), as its checkpoint keeps it."""

    status: RunStatus
    reason: str


class StepFailed(RuntimeError):
    """A step's error that its checkpoint could not keep as it was (it does not unpickle)."""


def _round_trips(exc: Exception) -> bool:
    try:
        pickle.loads(pickle.dumps(exc))
    except Exception:
        return False
    return True


def durable_steps(run_step: StepRunner) -> StepRunner:
    """``run_step``, with each call made inside a workflow a checkpointed step."""

    async def checkpointed(
        intent: ExecutionIntent, plan_step: ExecutionStep, call: CallContext
    ) -> DomainOutput | _Stopped:
        try:
            return await run_step(intent, plan_step, call)
        except RunStopped as exc:
            return _Stopped(exc.status, exc.reason)
        except Exception as exc:
            if _round_trips(exc):
                raise
            raise StepFailed(f"{type(exc).__name__}: {exc}") from exc

    async def step(intent: ExecutionIntent, plan_step: ExecutionStep, call: CallContext) -> DomainOutput:
        if DBOS.workflow_id is None or DBOS.step_id is not None:
            return await run_step(intent, plan_step, call)
        try:
            outcome = await DBOS.run_step_async(
                {"name": f"plan-step:{plan_step.id}"}, checkpointed, intent, plan_step, call
            )
        except dbos_error.DBOSWorkflowCancelledError:
            # cancelled through the engine: this step did not start, and none after it will
            raise RunStopped(RunStatus.CANCELLED, CANCELLED) from None
        if isinstance(outcome, _Stopped):
            raise RunStopped(outcome.status, outcome.reason)
        return outcome

    return step
