"""The unified status vocabulary shared by runs and steps.

Every status change of a run or a step goes through :func:`transition`, so the table of
valid transitions below is enforced in exactly one place.

>>> transition(RunStatus.PENDING, RunStatus.EXECUTING)
<RunStatus.EXECUTING: 'executing'>
>>> transition(RunStatus.COMPLETED, RunStatus.EXECUTING)
Traceback (most recent call last):
...
shared.status.InvalidTransition: completed -> executing is not a valid status transition
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from types import MappingProxyType


class RunStatus(StrEnum):
    # basic
    #: a background run accepted (202) and waiting for a worker; runs only, never a step
    QUEUED = "queued"
    PENDING = "pending"
    EXECUTING = "executing"
    COMPLETED = "completed"
    FAILED = "failed"
    # control
    REPLANNING = "replanning"
    WAITING_INPUT = "waiting_input"
    PAUSED = "paused"
    CANCELLED = "cancelled"
    SKIPPED = "skipped"
    # ReWOO
    REWRITING = "rewriting"
    OBSERVING = "observing"
    PARALLEL = "parallel"
    # problems
    STAGNATED = "stagnated"
    TIMEOUT = "timeout"
    DEADLOCK = "deadlock"


# Steps use the same vocabulary; this alias keeps signatures readable.
StepStatus = RunStatus

TERMINAL: frozenset[RunStatus] = frozenset(
    {
        RunStatus.COMPLETED,
        RunStatus.FAILED,
        RunStatus.CANCELLED,
        RunStatus.SKIPPED,
        RunStatus.STAGNATED,
        RunStatus.TIMEOUT,
        RunStatus.DEADLOCK,
    }
)

#: a run that ended in one of these may be run again (``POST /v1/runs/{id}/retry``): it did not
#: complete and nobody chose to stop it.
RETRYABLE: frozenset[RunStatus] = frozenset({RunStatus.FAILED, RunStatus.TIMEOUT})

_S = RunStatus
_ACTIVE = {_S.EXECUTING, _S.PARALLEL, _S.OBSERVING, _S.REWRITING, _S.REPLANNING}
_PROBLEMS = {_S.STAGNATED, _S.TIMEOUT, _S.DEADLOCK}

#: from-status -> the statuses it may move to.
VALID_TRANSITIONS: dict[RunStatus, frozenset[RunStatus]] = {
    _S.QUEUED: frozenset({_S.PENDING, _S.EXECUTING, _S.FAILED, _S.CANCELLED}),
    _S.PENDING: frozenset({*_ACTIVE, _S.SKIPPED, _S.CANCELLED, _S.FAILED, *_PROBLEMS}),
    _S.EXECUTING: frozenset(
        {
            _S.COMPLETED,
            _S.FAILED,
            _S.WAITING_INPUT,
            _S.PAUSED,
            _S.CANCELLED,
            _S.REPLANNING,
            _S.PARALLEL,
            _S.OBSERVING,
            _S.REWRITING,
            *_PROBLEMS,
        }
    ),
    _S.PARALLEL: frozenset(
        {_S.EXECUTING, _S.COMPLETED, _S.FAILED, _S.WAITING_INPUT, _S.CANCELLED, _S.REPLANNING, *_PROBLEMS}
    ),
    _S.OBSERVING: frozenset({_S.EXECUTING, _S.COMPLETED, _S.FAILED, _S.REPLANNING, _S.REWRITING, *_PROBLEMS}),
    # a rewrite that would call a step that changes something with a value nobody said waits
    # for the person, as a replan does
    _S.REWRITING: frozenset({_S.EXECUTING, _S.FAILED, _S.WAITING_INPUT, _S.CANCELLED, *_PROBLEMS}),
    _S.REPLANNING: frozenset({_S.EXECUTING, _S.FAILED, _S.WAITING_INPUT, _S.CANCELLED, *_PROBLEMS}),
    _S.WAITING_INPUT: frozenset({_S.EXECUTING, _S.CANCELLED, _S.TIMEOUT, _S.COMPLETED, _S.FAILED}),
    _S.PAUSED: frozenset({_S.EXECUTING, _S.CANCELLED, _S.TIMEOUT}),
    # terminal statuses go nowhere
    **{status: frozenset() for status in TERMINAL},
}


#: What a domain's answer (``DomainOutput.status``) makes of the step that asked for it.
STEP_STATUS_OF_DOMAIN_STATUS: Mapping[str, RunStatus] = MappingProxyType(
    {
        "success": RunStatus.COMPLETED,
        "failure": RunStatus.FAILED,
        "clarification": RunStatus.WAITING_INPUT,
    }
)


def step_status_of(domain_status: str) -> RunStatus:
    """The step status a domain answer with ``domain_status`` settles on.

    >>> step_status_of("clarification")
    <RunStatus.WAITING_INPUT: 'waiting_input'>
    """
    return STEP_STATUS_OF_DOMAIN_STATUS[domain_status]


class InvalidTransition(ValueError):
    """Raised when a status change is not in :data:`VALID_TRANSITIONS`."""


def can_transition(current: RunStatus, new: RunStatus) -> bool:
    return new in VALID_TRANSITIONS[current]


def transition(current: RunStatus, new: RunStatus) -> RunStatus:
    """Return ``new`` if moving from ``current`` is allowed, else raise :class:`InvalidTransition`."""
    if current == new:
        return new
    if not can_transition(current, new):
        raise InvalidTransition(f"{current.value} -> {new.value} is not a valid status transition")
    return new


def is_terminal(status: RunStatus) -> bool:
    return status in TERMINAL
