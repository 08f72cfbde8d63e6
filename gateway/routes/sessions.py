"""Sessions: state, pending question, turns and state versions; reset; time travel (fork).

A reset keeps the session's versions as a session of their own (:func:`archive_id`): until the
next turn they are still served under the session's URL, and their id stays addressable after.

Every route here takes its session through :data:`OwnedSession`: another tenant's session (or
archive) is a 404, word for word the answer for a session that does not exist.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, Depends, Path, Query

from dialogue.state import TurnState
from gateway.deps import PrincipalDep, ServicesDep, StoreDep, TurnsDep
from gateway.routes.session_views import (
    MAX_VERSION,
    ForkRequest,
    ForkResult,
    ResetResult,
    SessionHistory,
    SessionVersion,
    SessionView,
    TurnSummary,
    VersionView,
)
from gateway.storage.runs import RunStore, archive_id, no_session
from gateway.storage.turn_pages import TurnPages
from gateway.turns.turn import TurnService
from graph import GraphRuntimeError, SessionConflictError, SessionNotFoundError, VersionInfo
from shared.errors import Conflict, InvalidRequest, NotFound

router = APIRouter()

#: Turns on one page at most (the history's page size by default, as its one page was).
MAX_PAGE = 1000
VersionParam = Annotated[int, Path(ge=0, le=MAX_VERSION, description="A version of the session's state")]


async def _owned_session(session_id: str, principal: PrincipalDep, store: StoreDep) -> str:
    """The path's session id, once it is known to be the caller's tenant's."""
    await store.check_owner(session_id, principal.tenant)
    return session_id


#: The ``{session_id}`` of the path, checked to be the caller's (404 otherwise).
OwnedSession = Annotated[str, Depends(_owned_session)]


async def _versions_of(session_id: str, turns: TurnService) -> list[VersionInfo] | None:
    try:
        return await turns.engine.history(session_id)
    except SessionNotFoundError:
        return None


async def _graph_session(session_id: str, turns: TurnService, store: RunStore) -> str | None:
    """The graph session whose versions ``session_id``'s URLs serve: its own, or right after a
    reset the archive of the versions before it; ``None`` if it has none (404 if no session)."""
    if await _versions_of(session_id, turns) is not None:
        return session_id
    snapshot = await store.load_session(session_id)
    if not snapshot.exists:
        raise no_session(session_id)
    if snapshot.status == "reset":
        archived = archive_id(session_id, snapshot.event_count)
        if await _versions_of(archived, turns) is not None:
            return archived
    return None


async def _require_graph_session(session_id: str, turns: TurnService, store: RunStore) -> str:
    graph_id = await _graph_session(session_id, turns, store)
    if graph_id is not None:
        return graph_id
    snapshot = await store.load_session(session_id)
    if snapshot.status == "reset":
        raise Conflict(
            f"Session '{session_id}' was reset; versions before the reset are no longer available",
            param="session_id",
        )
    raise NotFound(f"Session '{session_id}' has no versions yet", param="session_id")


LimitParam = Annotated[int, Query(ge=1, le=MAX_PAGE, description="Turns per page (the newest page first)")]
#: ``?before=``: the page of turns older than a page's ``next_before``.
BeforeParam = Annotated[
    str | None, Query(max_length=512, description="next_before of a page: the page of older turns")
]


@router.get("/v1/sessions/{session_id}")
async def get_session(
    session_id: OwnedSession,
    turns: TurnsDep,
    store: StoreDep,
    services: ServicesDep,
    limit: LimitParam = 50,
    before: BeforeParam = None,
) -> SessionView:
    snapshot = await store.load_session(session_id)
    if not snapshot.exists:
        raise no_session(session_id)
    page = await TurnPages(services.engine).page(session_id, limit=limit, before=before)
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
        turns=[TurnSummary.of(t) for t in page.turns],
        next_before=page.next_before,
        versions=versions,
        state=state,
    )


@router.get("/v1/sessions/{session_id}/history")
async def session_history(
    session_id: OwnedSession,
    turns: TurnsDep,
    store: StoreDep,
    services: ServicesDep,
    limit: LimitParam = MAX_PAGE,
    before: BeforeParam = None,
) -> SessionHistory:
    snapshot = await store.load_session(session_id)
    if not snapshot.exists:
        raise no_session(session_id)
    page = await TurnPages(services.engine).page(session_id, limit=limit, before=before)
    graph_id = await _graph_session(session_id, turns, store)
    infos = await _versions_of(graph_id, turns) if graph_id is not None else None
    return SessionHistory(
        session_id=session_id,
        turns=[TurnSummary.of(t) for t in page.turns],
        next_before=page.next_before,
        versions=[VersionView.of(v) for v in infos or []],
    )


@router.get("/v1/sessions/{session_id}/versions/{version}")
async def session_version(
    session_id: OwnedSession, version: VersionParam, turns: TurnsDep, store: StoreDep
) -> SessionVersion:
    graph_id = await _require_graph_session(session_id, turns, store)
    try:
        state = await turns.engine.get_version(graph_id, version)
    except SessionNotFoundError:
        raise NotFound(f"Session '{session_id}' has no version {version}", param="version") from None
    return SessionVersion(session_id=session_id, version=version, state=state)


@router.post("/v1/sessions/{session_id}/fork", status_code=201)
async def fork_session(
    session_id: OwnedSession,
    principal: PrincipalDep,
    turns: TurnsDep,
    store: StoreDep,
    # optional here so that an empty body is answered naming the field it lacks
    body: Annotated[ForkRequest | None, Body()] = None,
) -> ForkResult:
    if body is None:
        raise InvalidRequest(
            'version: Field required (send a JSON body such as {"version": 3})', param="version"
        )
    taken = Conflict(f"A session '{body.new_session_id}' already exists", param="new_session_id")
    graph_id = await _require_graph_session(session_id, turns, store)
    if body.new_session_id is not None:
        # the new id is claimed (its row made the caller's, atomically) before the fork writes
        # anything under it: a concurrent claim by another tenant gets it or loses, never both
        claim = await store.claim_session(body.new_session_id, principal.tenant, forked_from=session_id)
        if not claim.owned:
            raise taken
    try:
        record = await turns.engine.fork(graph_id, body.version, body.new_session_id)
    except SessionNotFoundError:
        raise NotFound(f"Session '{session_id}' has no version {body.version}", param="version") from None
    except SessionConflictError:
        raise taken from None
    except GraphRuntimeError as exc:
        raise InvalidRequest(exc.message, param="version") from None
    if body.new_session_id is None:  # a fresh random id: nobody else can be claiming it
        await store.claim_session(record.session_id, principal.tenant, forked_from=session_id)
    return ForkResult(session_id=record.session_id, forked_from=session_id, version=body.version)


@router.delete("/v1/sessions/{session_id}")
async def reset_session(session_id: OwnedSession, turns: TurnsDep, store: StoreDep) -> ResetResult:
    """Reset: the active state is cleared; the emitted history (runs) is kept, and the versions
    are kept under ``archived_as``."""
    snapshot = await store.load_session(session_id)
    if not snapshot.exists:
        raise no_session(session_id)
    async with turns.locks.hold(session_id):
        archived = await _archive(session_id, archive_id(session_id, snapshot.event_count), turns)
        await turns.engine.delete(session_id)
        await store.reset_session(session_id)
    return ResetResult(session_id=session_id, archived_as=archived)


async def _archive(session_id: str, archived: str, turns: TurnService) -> str | None:
    """Copy the session's versions to ``archived`` (a fork at its latest version)."""
    versions = await _versions_of(session_id, turns)
    if not versions:  # reset again with no turn since: the archive of the first reset stands
        return archived if await _versions_of(archived, turns) is not None else None
    # an archive at this event count is from a reset whose session made no turn since: replace it
    await turns.engine.delete(archived)
    try:
        await turns.engine.fork(session_id, versions[-1].version, archived)
    except GraphRuntimeError:
        return None  # the latest version is not a resume point: nothing that could be forked
    return archived
