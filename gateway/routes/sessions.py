"""Sessions: state, pending question, turns and state versions; reset; time travel (fork)."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field

from execution.graph import GraphRuntimeError, SessionNotFoundError
from gateway.deps import StoreDep, TurnsDep
from shared.errors import InvalidRequest, NotFound

router = APIRouter()


def _turn_summary(run: Any) -> dict[str, Any]:
    return {
        "run_id": run.run_id,
        "event_id": run.event_id,
        "status": run.status.value,
        "input_text": run.intent.original_query if run.intent else None,
        "goal": run.intent.goal if run.intent else None,
        "answer": run.answer,
        "created_at": run.created_at.isoformat() if run.created_at else None,
    }


@router.get("/v1/sessions/{session_id}")
async def get_session(session_id: str, turns: TurnsDep, store: StoreDep) -> dict[str, Any]:
    snapshot = await store.load_session(session_id)
    if not snapshot.exists:
        raise NotFound(f"No session with id '{session_id}'", param="session_id")
    runs = await store.session_runs(session_id)
    try:
        graph = await turns.engine.get_session(session_id)
        state: dict[str, Any] | None = dict(graph.state)
        versions = [asdict(v) for v in await turns.engine.history(session_id)]
        graph_status = graph.session.status.value
    except SessionNotFoundError:
        state, versions, graph_status = None, [], None
    return {
        "session_id": session_id,
        "status": snapshot.status,
        "graph_status": graph_status,
        "pending_question": snapshot.pending_question,
        "turn_count": snapshot.turn_count,
        "event_count": snapshot.event_count,
        "turns": [_turn_summary(r) for r in runs],
        "versions": versions,
        "state": state,
    }


@router.get("/v1/sessions/{session_id}/history")
async def session_history(session_id: str, turns: TurnsDep, store: StoreDep) -> dict[str, Any]:
    snapshot = await store.load_session(session_id)
    if not snapshot.exists:
        raise NotFound(f"No session with id '{session_id}'", param="session_id")
    runs = await store.session_runs(session_id, limit=1000)
    try:
        versions = [asdict(v) for v in await turns.engine.history(session_id)]
    except SessionNotFoundError:
        versions = []
    return {"session_id": session_id, "turns": [_turn_summary(r) for r in runs], "versions": versions}


@router.get("/v1/sessions/{session_id}/versions/{version}")
async def session_version(session_id: str, version: int, turns: TurnsDep) -> dict[str, Any]:
    try:
        state = await turns.engine.get_version(session_id, version)
    except SessionNotFoundError:
        raise NotFound(f"No session with id '{session_id}'", param="session_id") from None
    except (GraphRuntimeError, KeyError, IndexError, ValueError):
        raise NotFound(f"Session '{session_id}' has no version {version}", param="version") from None
    return {"session_id": session_id, "version": version, "state": state}


class ForkRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    version: int = Field(ge=0)
    new_session_id: str | None = Field(default=None, max_length=128)


@router.post("/v1/sessions/{session_id}/fork", status_code=201)
async def fork_session(
    session_id: str, body: ForkRequest, turns: TurnsDep, store: StoreDep
) -> dict[str, Any]:
    try:
        record = await turns.engine.fork(session_id, body.version, body.new_session_id)
    except SessionNotFoundError:
        raise NotFound(f"No session with id '{session_id}'", param="session_id") from None
    except GraphRuntimeError as exc:
        raise InvalidRequest(str(exc), param="version") from None
    await store.ensure_session(record.session_id, forked_from=session_id)
    return {"session_id": record.session_id, "forked_from": session_id, "version": body.version}


@router.delete("/v1/sessions/{session_id}")
async def reset_session(session_id: str, turns: TurnsDep, store: StoreDep) -> dict[str, Any]:
    """Reset (seed 001): the active state is cleared; the emitted history (runs) is kept."""
    snapshot = await store.load_session(session_id)
    if not snapshot.exists:
        raise NotFound(f"No session with id '{session_id}'", param="session_id")
    await turns.engine.delete(session_id)
    await store.reset_session(session_id)
    return {"session_id": session_id, "reset": True, "history_kept": True}
