"""The sessions API's response bodies: documented models, with the session's typed state."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from dialogue.state import TurnState
from gateway.storage.runs import StoredTurn
from graph import VersionInfo
from shared.entities import Entities
from shared.models import PendingQuestion
from shared.status import RunStatus


class ResolvedCall(BaseModel):
    """A capability the turn called, with the parameters it was called with."""

    capability: str
    params: dict[str, Any]


class ResolvedTurn(BaseModel):
    """What a turn's text was understood as: the request it ran (for a clarification reply, the
    question it answered), its goal and entities, and the calls they became (where a reply's
    choice shows, e.g. the symbol picked)."""

    query: str
    goal: str | None
    entities: Entities
    calls: list[ResolvedCall]


class TurnSummary(BaseModel):
    """One stored turn of a session (the full trace is ``GET /v1/runs/{run_id}``)."""

    run_id: str
    #: The answer's event id within the session (``evt-0002``).
    event_id: str | None
    status: RunStatus
    #: The text the person typed for this turn, as sent.
    input_text: str
    goal: str | None
    #: What that text resolved to; ``None`` when the turn was not understood as a request.
    resolved_to: ResolvedTurn | None
    answer: str
    created_at: datetime | None

    @classmethod
    def of(cls, turn: StoredTurn) -> TurnSummary:
        run = turn.run
        intent = run.intent
        return cls(
            run_id=run.run_id,
            event_id=run.event_id,
            status=run.status,
            input_text=turn.input_text,
            goal=intent.goal if intent else None,
            resolved_to=(
                ResolvedTurn(
                    query=intent.original_query,
                    goal=intent.goal,
                    entities=intent.entities,
                    calls=[
                        ResolvedCall(capability=step.capability, params=step.params) for step in run.steps
                    ],
                )
                if intent is not None
                else None
            ),
            answer=run.answer,
            created_at=run.created_at,
        )


#: The largest version number a store can hold (a 32-bit integer column).
MAX_VERSION = 2**31 - 1


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
    #: The newest turns (``limit``, or older ones with ``before``), oldest first within the page.
    turns: list[TurnSummary]
    #: ``before`` for the page of older turns; ``None`` when ``turns`` reaches the first one.
    next_before: str | None = None
    versions: list[VersionView]
    #: The conversation state; ``None`` after a reset.
    state: TurnState | None


class SessionHistory(BaseModel):
    """``GET /v1/sessions/{id}/history``: the stored turns, a page at a time (the newest page
    first), and the graph's versions."""

    session_id: str
    #: The newest turns (``limit``, or older ones with ``before``), oldest first within the page.
    turns: list[TurnSummary]
    #: ``before`` for the page of older turns; ``None`` when ``turns`` reaches the first one.
    next_before: str | None = None
    versions: list[VersionView]


class SessionVersion(BaseModel):
    """``GET /v1/sessions/{id}/versions/{version}``: the state right after that version."""

    session_id: str
    version: int
    state: TurnState


class ForkRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    #: The version to continue from (``versions[].version`` of ``GET /v1/sessions/{id}``).
    version: int = Field(ge=0, le=MAX_VERSION)
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
    #: Where the versions before the reset are kept (readable and forkable as a session of its
    #: own); ``None`` when there was no graph state to keep.
    archived_as: str | None = None
