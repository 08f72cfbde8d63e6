"""Sessions: state, pending question, turns and state versions; reset; time travel (fork)."""

from __future__ import annotations

from fastapi import APIRouter

from dialogue.state import TurnState
from execution.graph import GraphRuntimeError, SessionNotFoundError
from gateway.deps import StoreDep, TurnsDep
from gateway.views import (
    ForkRequest,
    ForkResult,
    ResetResult,
    SessionHistory,
    SessionVersion,
    SessionView,
    TurnSummary,
    VersionView,
)
from shared.errors import InvalidRequest, NotFound

router = APIRouter()


@router.get("/v1/sessions/{session_id}")
async def get_session(session_id: str, turns: TurnsDep, store: StoreDep) -> SessionView:
    snapshot = await store.load_session(session_id)
    if not snapshot.exists:
        raise NotFound(f"No session with id '{session_id}'", param="session_id")
    runs = await store.session_runs(session_id)
    state: TurnState | None
    try:
        graph = await turns.engine.get_session(session_id)
        state = graph.state
        versions = [VersionView.of(v) for v in await turns.engine.history(session_id)]
        graph_status = graph.session.status
    except SessionNotFoundError:
        state, versions, graph_status = None, [], None
    return SessionView(
        session_id=session_id,
        status=snapshot.status,
        graph_status=graph_status,
        pending_question=state.question if state is not None else None,
        turn_count=snapshot.turn_count,
        event_count=snapshot.event_count,
        turns=[TurnSummary.of(r) for r in runs],
        versions=versions,
        state=state,
    )


@router.get("/v1/sessions/{session_id}/history")
async def session_history(session_id: str, turns: TurnsDep, store: StoreDep) -> SessionHistory:
    snapshot = await store.load_session(session_id)
    if not snapshot.exists:
        raise NotFound(f"No session with id '{session_id}'", param="session_id")
    runs = await store.session_runs(session_id, limit=1000)
    try:
        versions = [VersionView.of(v) for v in await turns.engine.history(session_id)]
    except SessionNotFoundError:
        versions = []
    return SessionHistory(session_id=session_id, turns=[TurnSummary.of(r) for r in runs], versions=versions)


@router.get("/v1/sessions/{session_id}/versions/{version}")
async def session_version(session_id: str, version: int, turns: TurnsDep) -> SessionVersion:
    try:
        state = await turns.engine.get_version(session_id, version)
    except SessionNotFoundError:
        raise NotFound(f"No session with id '{session_id}'", param="session_id") from None
    except (GraphRuntimeError, KeyError, IndexError, ValueError):
        raise NotFound(f"Session '{session_id}' has no version {version}", param="version") from None
    return SessionVersion(session_id=session_id, version=version, state=state)


@router.post("/v1/sessions/{session_id}/fork", status_code=201)
async def fork_session(session_id: str, body: ForkRequest, turns: TurnsDep, store: StoreDep) -> ForkResult:
    try:
        record = await turns.engine.fork(session_id, body.version, body.new_session_id)
    except SessionNotFoundError:
        raise NotFound(f"No session with id '{session_id}'", param="session_id") from None
    except GraphRuntimeError as exc:
        raise InvalidRequest(str(exc), param="version") from None
    await store.ensure_session(record.session_id, forked_from=session_id)
    return ForkResult(session_id=record.session_id, forked_from=session_id, version=body.version)


@router.delete("/v1/sessions/{session_id}")
async def reset_session(session_id: str, turns: TurnsDep, store: StoreDep) -> ResetResult:
    """Reset: the active state is cleared; the emitted history (runs) is kept."""
    snapshot = await store.load_session(session_id)
    if not snapshot.exists:
        raise NotFound(f"No session with id '{session_id}'", param="session_id")
    await turns.engine.delete(session_id)
    await store.reset_session(session_id)
    return ResetResult(session_id=session_id)
