"""Hooks and policies around a run.

* :class:`ContextPolicy` is the global guard: limits on steps, domain calls, plan duration and
  payload size. Breaking one stops the run cleanly with ``failed`` and a reason (never a crash).
* :class:`Hooks` carries the business-rule hooks: ``post_resolve_hook`` (override
  the resolver's decision), ``validation_fn`` (a fast code check of a
  step's output) and ``transition_overrides`` (declarative "if state X and condition Y, go to Z").
  The gateway loads them from the operator's configuration (``gateway.hooks``, docs/execution.md).

A transition override's condition is a JMESPath expression (the language of plan conditions,
:mod:`execution.expressions`) over the step's trace as JSON (``status``, ``error``, ``output``...):

>>> rule = TransitionOverride.model_validate({"when_status": "failed",
...     "if": "output.failure.reason == 'symbol_not_found'", "goto": "replanning"})
>>> failed = StepTrace(id=1, domain="finance", capability="quote", status="failed",
...     output=DomainOutput(status="failure", failure={"reason": "symbol_not_found"}))
>>> rule.matches(failed)
True
>>> TransitionOverride.model_validate({"when_status": "failed", "if": "output.(", "goto": "failed"})
Traceback (most recent call last):
...
pydantic_core._pydantic_core.ValidationError: 1 validation error for TransitionOverride
if
  Value error, invalid expression 'output.(': ...
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import pydantic_core
from pydantic import BaseModel, ConfigDict, Field, field_validator

from execution.expressions import ExpressionError, compile_expression, search, truthy
from shared.manifest import Capability
from shared.models import DomainOutput, ExecutionIntent, IntentOutput, StepTrace
from shared.status import RunStatus

log = logging.getLogger(__name__)


class StepContext(BaseModel):
    """What a ``validation_fn`` knows of the call it checks: the ids and language the run loop
    puts in :attr:`ExecutionIntent.context` (anything else there is left out)."""

    model_config = ConfigDict(frozen=True, extra="ignore", coerce_numbers_to_str=True)

    run_id: str = ""
    step_id: int | None = None
    session_id: str | None = None
    #: The person's language (``pt``, ``en``): for a reason worded for them.
    language: str = ""

    @classmethod
    def of(cls, context: Mapping[str, Any]) -> StepContext:
        return cls.model_validate(context)


#: ``(intent, execution_intent) -> replacement or None`` (None keeps the resolver's choice).
PostResolveHook = Callable[[IntentOutput, ExecutionIntent], ExecutionIntent | None]
#: ``(context, capability, output) -> True | False | "why it is invalid"``.
ValidationFn = Callable[[StepContext, Capability | None, DomainOutput], bool | str]


class TransitionOverride(BaseModel):
    """ "When a step is in ``when_status`` and ``if`` holds, the run goes to ``goto``."

    ``if`` is a JMESPath expression over the step's trace as JSON, true by JMESPath's truth
    (not null, false, or empty); it is compiled when the rule is loaded. ``goto="replanning"``
    replans from that step even if the domain did not flag the failure as recoverable; a terminal
    status (``failed``, ``cancelled``...) ends the run with it. The move is still checked by
    ``shared.status.transition``: an override can never make an invalid jump."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True, frozen=True)

    when_status: RunStatus
    condition: str | None = Field(default=None, alias="if")
    goto: RunStatus

    @field_validator("condition")
    @classmethod
    def _compiles(cls, text: str | None) -> str | None:
        if text is None:
            return None
        try:
            compile_expression(text)
        except ExpressionError as exc:
            raise ValueError(exc.message) from None
        return text.strip()

    def matches(self, trace: StepTrace) -> bool:
        if trace.status is not self.when_status:
            return False
        if self.condition is None:
            return True
        try:
            return truthy(search(compile_expression(self.condition), trace.model_dump(mode="json")))
        except ExpressionError as exc:  # a rule that cannot be computed on this step does not hold
            log.warning("transition override on step %s: %s", trace.id, exc.message)
            return False


def first_override(
    rules: list[TransitionOverride], traces: list[StepTrace]
) -> tuple[TransitionOverride, StepTrace] | None:
    """The first rule (in rule order) matching any step (in plan order)."""
    for rule in rules:
        for trace in traces:
            if rule.matches(trace):
                return rule, trace
    return None


@dataclass
class Hooks:
    post_resolve_hook: PostResolveHook | None = None
    validation_fn: ValidationFn | None = None
    transition_overrides: list[TransitionOverride] = field(default_factory=list)


class ContextPolicy(BaseModel):
    """Limits for one run (None = unlimited)."""

    max_steps: int | None = Field(default=None, ge=1)
    #: Every call to a domain counts, retries included.
    max_domain_calls: int | None = Field(default=None, ge=1)
    max_plan_duration_s: float | None = Field(default=None, gt=0)
    #: The JSON size of a step's parameters and of its output.
    max_payload_bytes: int | None = Field(default=None, ge=1)


class PolicyViolation(Exception):
    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class RunBudget:
    """What one run has used of its :class:`ContextPolicy`."""

    def __init__(self, policy: ContextPolicy):
        self.policy = policy
        self.domain_calls = 0

    def check_steps(self, count: int) -> None:
        if self.policy.max_steps is not None and count > self.policy.max_steps:
            raise PolicyViolation(
                f"policy max_steps: the plan has {count} steps (limit {self.policy.max_steps})"
            )

    def charge_call(self, capability: str) -> None:
        limit = self.policy.max_domain_calls
        if limit is not None and self.domain_calls >= limit:
            raise PolicyViolation(
                f"policy max_domain_calls: calling {capability} would exceed {limit} domain calls"
            )
        self.domain_calls += 1

    def check_payload(self, what: str, value: Any) -> None:
        limit = self.policy.max_payload_bytes
        if limit is None:
            return
        # compact UTF-8 JSON, as it goes on the wire; pydantic writes models and plain data alike
        size = len(pydantic_core.to_json(value, fallback=str))
        if size > limit:
            raise PolicyViolation(f"policy max_payload_bytes: {what} is {size} bytes (limit {limit})")
