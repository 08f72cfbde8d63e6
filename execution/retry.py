"""Call, validate, retry: one guarded step, with ``tenacity``.

:class:`StepGuard` is a :data:`execution.dag.StepCall`: it calls the step runner under the
capability's ``policy`` (``attempts``, ``timeout_s``, ``idempotent``, ``backoff_s``), validates
the output (:mod:`execution.validation`) and retries with exponential backoff.

What may be retried:

* the domain could not be reached or timed out (``DomainUnavailable``, our own timeout):
  idempotent capabilities yes; NON-idempotent ones only when the error says the request never
  reached the domain (``details={"delivered": False}``: connection refused, open circuit). A
  timeout on a non-idempotent call is never retried: the domain may have acted.
* an invalid answer (schema, ``validation_fn``, malformed body): idempotent capabilities only.

Retries after a transport error reuse the step's ``Idempotency-Key`` (the domain SDK replays the
first result if the call did land). Retries after an *answer* that was invalid get a fresh key
suffix (``CallContext.idempotency_suffix``, passed beside the intent, never in the body the
domain reads), because reusing the key would replay that same answer.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from typing import Any, Protocol, runtime_checkable

from tenacity import AsyncRetrying, retry_if_exception, stop_after_attempt, wait_exponential

from execution.dag import RunStopped, StepRunner
from execution.policy import PolicyViolation, RunBudget, ValidationFn
from execution.validation import check_output
from shared.errors import DomainProtocolError, DomainUnavailable, PlatformError
from shared.manifest import Capability, ExecutionPolicy
from shared.models import CallContext, DomainOutput, ExecutionIntent, ExecutionStep, Failure, StepTrace
from shared.status import RunStatus

CapabilityLookup = Callable[[str, str], Capability | None]

#: Slack over ``policy.timeout_s`` for our own timeout, so a transport's own timeout (which
#: carries a clearer message) normally fires first.
TIMEOUT_GRACE_S = 0.05


@runtime_checkable
class WaitingStepRunner(Protocol):
    """A step runner that waits for an unreachable domain itself (a background run's durable
    step, gateway/durable/steps.py): ``undelivered_wait_s()`` says how long it may wait now, and
    the guard's timeout leaves that much room (each call is still bounded by the transport's)."""

    async def __call__(
        self, intent: ExecutionIntent, step: ExecutionStep, call: CallContext
    ) -> DomainOutput: ...

    def undelivered_wait_s(self) -> float: ...


class _Attempt(Exception):
    def __init__(
        self, error: PlatformError | None, output: DomainOutput | None, retryable: bool, fresh_key: bool
    ):
        super().__init__(error.message if error else "invalid output")
        self.error = error
        self.output = output
        self.retryable = retryable
        self.fresh_key = fresh_key


def delivered(exc: PlatformError) -> bool:
    """False only when the error says the request never reached the domain."""
    return not (isinstance(exc.details, Mapping) and exc.details.get("delivered") is False)


class StepGuard:
    def __init__(
        self,
        run_step: StepRunner,
        capability: CapabilityLookup,
        *,
        validation_fn: ValidationFn | None = None,
        budget: RunBudget | None = None,
    ):
        self._run_step = run_step
        self._waits = run_step.undelivered_wait_s if isinstance(run_step, WaitingStepRunner) else None
        self._capability = capability
        self._validation_fn = validation_fn
        self._budget = budget

    async def __call__(
        self, intent: ExecutionIntent, step: ExecutionStep, call: CallContext, trace: StepTrace
    ) -> DomainOutput:
        capability = self._capability(step.capability, step.domain)
        policy = capability.metadata.policy if capability is not None else ExecutionPolicy()
        self._charge(f"parameters of step {step.id}", payload=intent.parameters)
        fresh = 0
        retrying = AsyncRetrying(
            stop=stop_after_attempt(policy.attempts),
            wait=wait_exponential(multiplier=policy.backoff_s, min=0, max=max(policy.backoff_s * 8, 0)),
            retry=retry_if_exception(lambda e: isinstance(e, _Attempt) and e.retryable),
            reraise=True,
        )
        try:
            async for attempt in retrying:
                with attempt:
                    trace.attempts += 1
                    self._charge(step.capability)
                    this_call = call.with_suffix(f"{call.idempotency_suffix}v{fresh}") if fresh else call
                    try:
                        output = await self._once(intent, step, this_call, policy)
                        self._charge(f"output of step {step.id}", payload=output)
                        problem = check_output(capability, output, intent.context, self._validation_fn)
                        if problem is not None:
                            raise _Attempt(None, _invalid(output, problem), policy.idempotent, fresh_key=True)
                    except _Attempt as failed:
                        fresh += 1 if failed.fresh_key else 0
                        raise
                    return output
        except _Attempt as final:
            if final.output is not None:
                return final.output
            assert final.error is not None
            raise final.error from None
        raise AssertionError("tenacity stopped without an outcome")  # pragma: no cover

    async def _once(
        self, intent: ExecutionIntent, step: ExecutionStep, call: CallContext, policy: ExecutionPolicy
    ) -> DomainOutput:
        waits = self._waits() if self._waits is not None else 0.0
        try:
            async with asyncio.timeout(policy.timeout_s + TIMEOUT_GRACE_S + waits):
                return await self._run_step(intent, step, call)
        except TimeoutError:
            error = DomainUnavailable(
                f"'{step.domain}' did not answer {step.capability} within {policy.timeout_s:g} s"
            )
            raise _Attempt(error, None, policy.idempotent, fresh_key=False) from None
        except DomainUnavailable as exc:
            raise _Attempt(exc, None, policy.idempotent or not delivered(exc), fresh_key=False) from None
        except DomainProtocolError as exc:
            raise _Attempt(exc, None, policy.idempotent, fresh_key=True) from None

    def _charge(self, what: str, *, payload: Any = None) -> None:
        """Without ``payload``: count one domain call. With it: check the size of ``payload``."""
        budget = self._budget
        if budget is None:
            return
        try:
            if payload is None:
                budget.charge_call(what)
            else:
                budget.check_payload(what, payload)
        except PolicyViolation as exc:
            raise RunStopped(RunStatus.FAILED, exc.reason) from None


def _invalid(output: DomainOutput, problem: str) -> DomainOutput:
    return DomainOutput(
        status="failure",
        explanation=f"invalid output: {problem}",
        confidence=0.0,
        failure=Failure(reason="invalid_output"),
        # for the trace: what was wrong and what the domain actually sent
        metadata={"validation": problem, "rejected": output.model_dump(mode="json")},
    )
