"""The sessions API's response bodies: documented models, with the session's typed state."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field

from dialogue.state import TurnState
from execution.graph import VersionInfo
from shared.models import PendingQuestion, RunResult
from shared.status import RunStatus


class TurnSummary(BaseModel):
    """One stored turn of a session (the full trace is ``GET /v1/runs/{run_id}``)."""

    run_id: str
    #: The answer's event id within the session (``evt-0002``).
    event_id: str | None
    status: RunStatus
    input_text: str | None
    goal: str | None
    answer: str
    created_at: datetime | None

    @classmethod
    def of(cls, run: RunResult) -> TurnSummary:
        return cls(
            run_id=run.run_id,
            event_id=run.event_id,
            status=run.status,
            input_text=run.intent.original_query if run.intent else None,
            goal=run.intent.goal if run.intent else None,
            answer=run.answer,
            created_at=run.created_at,
        )


class VersionView(BaseModel):
    """A line of the session's graph history (``GET .../versions/{version}`` has the state)."""

    version: int
    #: The node whose delta made this version (``__start__``, ``understand``, ``ask``...).
    node: str
    created_at: datetime
    delta_bytes: int
    snapshot: bool
    #: True when the session can continue (resume / fork) from this version.
    step_boundary: bool

    @classmethod
    def of(cls, info: VersionInfo) -> VersionView:
        return cls(
            version=info.version,
            node=info.node,
            created_at=info.created_at,
            delta_bytes=info.delta_bytes,
            snapshot=info.snapshot,
            step_boundary=info.step_boundary,
        )


class SessionView(BaseModel):
    """``GET /v1/sessions/{id}``: the session, its turns, its graph history and current state."""

    session_id: str
    #: The last turn's status (``waiting_input`` while a question is pending), or ``reset``.
    status: str
    #: The graph session's status; ``None`` after a reset (no graph session yet).
    graph_status: RunStatus | None
    #: The question the next message may answer (the state's ``question``).
    pending_question: PendingQuestion | None
    turn_count: int
    event_count: int
    turns: list[TurnSummary]
    versions: list[VersionView]
    #: The conversation state; ``None`` after a reset.
    state: TurnState | None


class SessionHistory(BaseModel):
    """``GET /v1/sessions/{id}/history``: every stored turn and the graph's versions."""

    session_id: str
    turns: list[TurnSummary]
    versions: list[VersionView]


class SessionVersion(BaseModel):
    """``GET /v1/sessions/{id}/versions/{version}``: the state right after that version."""

    session_id: str
    version: int
    state: TurnState


class ForkRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    version: int = Field(ge=0)
    new_session_id: str | None = Field(default=None, max_length=128)


class ForkResult(BaseModel):
    session_id: str
    forked_from: str
    version: int


class ResetResult(BaseModel):
    session_id: str
    reset: bool = True
    #: The stored turns stay (``GET .../history``); only the active state is cleared.
    history_kept: bool = True
