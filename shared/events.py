"""A run's live events, as every package that sends or reads them sees them: the run loop
(execution) emits them, the conversation graph (dialogue) passes them on, the gateway publishes
them to followers (SSE, streamed answers, A2A task updates). One model per kind, one key name
per field.

>>> event = StepEvent(run_id="r1", step_id=2, domain="finance", capability="get_stock_price",
...                   status=RunStatus.EXECUTING)
>>> RUN_EVENT.validate_json(event.model_dump_json()) == event
True
>>> event.model_dump(mode="json")["status"]
'executing'
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from shared.status import RunStatus

#: The ``type`` of the event that ends a run's stream: nothing follows it.
TERMINAL_EVENT = "run.finished"


class _Event(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    run_id: str
    #: Order within the run, from 1; set by the gateway's event hub when it publishes (0: not yet).
    seq: int = 0


class RunStatusEvent(_Event):
    """The run's status changed (queued, executing, observing, rewriting …)."""

    type: Literal["run.status"] = "run.status"
    status: RunStatus
    session_id: str | None = None
    #: Why, for operators (a replan's feedback, a policy's refusal …).
    reason: str | None = None


class StepEvent(_Event):
    """One plan step's status changed."""

    type: Literal["step"] = "step"
    step_id: int
    domain: str
    capability: str
    status: RunStatus
    attempts: int = 0
    error: str | None = None
    duration_ms: float | None = None
    #: The condition that switched the step off, when it was skipped by one.
    skipped_by_condition: str | None = None
    #: The run loop's verdict once the step settled (``replanning``, ``continue`` …).
    decision: str | None = None


class RunFinished(_Event):
    """The run ended: nothing follows."""

    type: Literal["run.finished"] = "run.finished"
    status: RunStatus
    session_id: str | None = None
    answer: str | None = None
    event_id: str | None = None
    #: What a person may read about a run that died before it could answer.
    error: str | None = None


RunEvent = Annotated[RunStatusEvent | StepEvent | RunFinished, Field(discriminator="type")]
RUN_EVENT: TypeAdapter[RunEvent] = TypeAdapter(RunEvent)
