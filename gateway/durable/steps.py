"""Plan steps as durable steps: inside a workflow (a background run), each step's domain call is
a DBOS step, checkpointed when it ends; a workflow resumed after a crash or a takeover gets the
completed steps' outputs back from the checkpoints, and only the next ones run.

The run controller takes its step runner from the gateway (:func:`durable_steps` wraps the
graph's); outside a workflow (an interactive turn) the step runs as it always did, at the cost of
one context lookup. A step is recorded under its plan step id, so a resumed run whose plan came out
different stops with DBOS's error rather than taking another step's output.

A background run is not in a hurry: a step whose domain could not be reached (the request was
never delivered, so no side effect can have happened) is retried by DBOS's own step retries, with
a backoff, for ``BACKGROUND_UNDELIVERED_RETRY_S`` — a domain restarting is waited for instead of
the run going on without that step. Inside a run, the "known down" check before a step
(:func:`durable_availability`) lets the call through, so the retries, not a stale health check
or an open circuit, decide. Interactive turns fail fast as before.
"""

from __future__ import annotations

import pickle
from collections.abc import Callable
from dataclasses import dataclass

from dbos import DBOS, StepOptions
from dbos import error as dbos_error

from execution.dag import RunStopped, StepRunner
from execution.retry import delivered
from gateway.durable.settings import BackgroundSettings
from shared.errors import DomainUnavailable
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


def _undelivered(exc: BaseException) -> bool:
    """The step's request never reached its domain: trying again cannot act twice."""
    return isinstance(exc, DomainUnavailable) and not delivered(exc)


def in_workflow() -> bool:
    """This code runs in a durable workflow (a background run), not inside one of its steps."""
    return DBOS.workflow_id is not None and DBOS.step_id is None


def durable_availability(
    unavailable_reason: Callable[[str], str | None],
) -> Callable[[str], str | None]:
    """``unavailable_reason``, except in a workflow: there a domain known to be down is still
    called, and its undelivered call waits (the step's retries) instead of being given up."""

    def reason(domain: str) -> str | None:
        return None if in_workflow() else unavailable_reason(domain)

    return reason


class DurableSteps:
    """``run_step``, with each call made inside a workflow a checkpointed step, retried while its
    domain cannot be reached (``settings``' undelivered window); an
    :class:`execution.retry.WaitingStepRunner`, so the step guard's timeout leaves room for that."""

    def __init__(self, run_step: StepRunner, settings: BackgroundSettings | None = None):
        self._run_step = run_step
        self._settings = settings = settings or BackgroundSettings()
        self._options: StepOptions = {
            "retries_allowed": settings.undelivered_retry_s > 0,
            "max_attempts": settings.undelivered_attempts(),
            "interval_seconds": settings.undelivered_interval_s,
            "backoff_rate": settings.undelivered_backoff,
            "should_retry": _undelivered,
        }

    async def __call__(
        self, intent: ExecutionIntent, plan_step: ExecutionStep, call: CallContext
    ) -> DomainOutput:
        if not in_workflow():
            return await self._run_step(intent, plan_step, call)
        try:
            outcome = await DBOS.run_step_async(
                {**self._options, "name": f"plan-step:{plan_step.id}"},
                self._checkpointed,
                intent,
                plan_step,
                call,
            )
        except dbos_error.DBOSMaxStepRetriesExceeded as exc:
            # the window is over: the step fails with the domain's last error, as it would have
            raise exc.errors[-1] if exc.errors else StepFailed(str(exc)) from None
        except dbos_error.DBOSWorkflowCancelledError:
            # cancelled through the engine: this step did not start, and none after it will
            raise RunStopped(RunStatus.CANCELLED, CANCELLED) from None
        if isinstance(outcome, _Stopped):
            raise RunStopped(outcome.status, outcome.reason)
        return outcome

    def undelivered_wait_s(self) -> float:
        """How long a call may wait for its domain now: the window inside a workflow, else none."""
        return (
            self._settings.undelivered_retry_s if in_workflow() and self._options["retries_allowed"] else 0.0
        )

    async def _checkpointed(
        self, intent: ExecutionIntent, plan_step: ExecutionStep, call: CallContext
    ) -> DomainOutput | _Stopped:
        try:
            return await self._run_step(intent, plan_step, call)
        except RunStopped as exc:
            return _Stopped(exc.status, exc.reason)
        except Exception as exc:
            if _round_trips(exc):
                raise
            raise StepFailed(f"{type(exc).__name__}: {exc}") from exc


def durable_steps(run_step: StepRunner, settings: BackgroundSettings | None = None) -> DurableSteps:
    """``run_step`` as :class:`DurableSteps`."""
    return DurableSteps(run_step, settings)
