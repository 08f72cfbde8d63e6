"""Hooks and policies around a run.

* :class:`ContextPolicy` is the global guard: limits on steps, domain calls, plan duration and
  payload size. Breaking one stops the run cleanly with ``failed`` and a reason (never a crash).
* :class:`Hooks` carries the business-rule hooks: ``post_resolve_hook`` (override
  the resolver's decision), ``validation_fn`` (a fast code check of a
  step's output) and ``transition_overrides`` (declarative "if state X and condition Y, go to Z").

>>> rule = TransitionOverride.model_validate({"when_status": "failed",
...     "if": {"path": "output.failure.reason", "equals": "symbol_not_found"}, "goto": "replanning"})
>>> rule.matches({"status": "failed", "output": {"failure": {"reason": "symbol_not_found"}}})
True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pydantic_core
from pydantic import BaseModel, ConfigDict, Field

from shared.manifest import Capability
from shared.models import DomainOutput, ExecutionIntent, IntentOutput, StepTrace
from shared.status import RunStatus

#: ``(intent, execution_intent) -> replacement or None`` (None keeps the resolver's choice).
PostResolveHook = Callable[[IntentOutput, ExecutionIntent], ExecutionIntent | None]
#: ``(context, capability, output) -> True | False | "why it is invalid"``.
ValidationFn = Callable[[dict[str, Any], Capability | None, DomainOutput], bool | str]

_MISSING = object()


class Condition(BaseModel):
    model_config = ConfigDict(extra="forbid")

    #: Dotted path into the step as a dict: ``status``, ``error``, ``output.metadata.error``...
    path: str
    equals: Any = None
    #: When True the condition only asks that the path exists (``equals`` is ignored).
    exists: bool = False

    def holds(self, data: dict[str, Any]) -> bool:
        current: Any = data
        for key in self.path.split("."):
            if isinstance(current, dict) and key in current:
                current = current[key]
            elif isinstance(current, list) and key.isdigit() and int(key) < len(current):
                current = current[int(key)]
            else:
                return False
        return True if self.exists else bool(current == self.equals)


class TransitionOverride(BaseModel):
    """ "When a step is in ``when_status`` and ``if`` holds, the run goes to ``goto``."

    ``goto="replanning"`` replans from that step even if the domain did not flag the failure as
    recoverable; a terminal status (``failed``, ``cancelled``...) ends the run with it. The move is
    still checked by ``shared.status.transition``: an override can never make an invalid jump."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    when_status: RunStatus
    condition: Condition | None = Field(default=None, alias="if")
    goto: RunStatus

    def matches(self, step: dict[str, Any]) -> bool:
        if step.get("status") != self.when_status.value:
            return False
        return self.condition is None or self.condition.holds(step)


def first_override(
    rules: list[TransitionOverride], traces: list[StepTrace]
) -> tuple[TransitionOverride, StepTrace] | None:
    """The first rule (in rule order) matching any step (in plan order)."""
    if not rules:
        return None  # the usual case: no rules, nothing to dump
    dumped = [(t, t.model_dump(mode="json")) for t in traces]
    for rule in rules:
        for trace, data in dumped:
            if rule.matches(data):
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
