"""Native REST channel: ``POST /v1/runs`` returns the full trace; ``GET /v1/runs/{run_id}``;
``GET /v1/runs`` lists the tenant's runs (by status, by session); ``POST /v1/runs/{run_id}/cancel``
stops a background run (a queued one never starts, a running one starts no further step).

A run is its session's tenant's: another tenant's run id is a 404, as an unknown one is.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from datetime import datetime
from typing import Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field
from sse_starlette.sse import EventSourceResponse

from gateway.deps import PrincipalDep, RunSlotDep, ServicesDep, StoreDep, session_id_from
from gateway.turns.background import BackgroundJob, entry_of
from gateway.turns.idempotency import REPLAYED_HEADER, idempotent_run_id, replayable
from gateway.turns.turn import UNFINISHED_RUN, new_run_id
from shared.errors import Conflict, NotFound
from shared.events import RunEvent, RunFinished, RunStatusEvent, StepEvent
from shared.models import EntryRequest, RunResult
from shared.status import RETRYABLE, RunStatus

log = logging.getLogger(__name__)

router = APIRouter()

#: A stored background run that has not ended yet (its live events are on the gateway running it).
_UNFINISHED = frozenset({RunStatus.QUEUED, RunStatus.EXECUTING})


class RunRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    input_text: str = Field(min_length=1, max_length=20_000)
    session_id: str | None = Field(default=None, max_length=128)
    metadata: dict[str, Any] = Field(default_factory=dict)
    domain: str | None = Field(default=None, description="Pin goal matching to one domain")
    #: Answer 202 at once with the run id; follow ``/v1/runs/{run_id}/events`` (SSE) or poll.
    background: bool = False


class RunListItem(BaseModel):
    """A run without its trace (``GET /v1/runs/{run_id}`` has the trace)."""

    run_id: str
    session_id: str
    status: RunStatus
    input_text: str
    created_at: datetime | None
    finished_at: datetime | None


class RunList(BaseModel):
    object: str = "list"
    data: list[RunListItem]


#: Why a cancelled run is cancelled, in its notes.
CANCEL_NOTE = "Cancelled through the API."
#: What a retried run's notes say.
RETRY_NOTE = "Retried through the API."


def _accepted(run_id: str, session_id: str, status: RunStatus, replayed: bool = False) -> JSONResponse:
    headers = {"X-Session-Id": session_id, **({REPLAYED_HEADER: "true"} if replayed else {})}
    return JSONResponse(
        {
            "run_id": run_id,
            "session_id": session_id,
            "status": status.value,
            "events_url": f"/v1/runs/{run_id}/events",
        },
        status_code=202,
        headers=headers,
    )


@router.post("/v1/runs")
async def create_run(
    body: RunRequest,
    request: Request,
    services: ServicesDep,
    principal: PrincipalDep,
    slot: RunSlotDep,
) -> Response:
    # one dependency for the services the route reads (one solve per request, not one each)
    turns, store = services.turns, services.store
    # a resend with the same Idempotency-Key gets the first request's run, on any gateway
    keyed_run_id = idempotent_run_id(request, principal.tenant)
    if keyed_run_id is not None:
        stored = await store.owned_run(keyed_run_id, principal.tenant)
        if stored is not None and body.background:
            return _accepted(stored.run_id, stored.session_id, stored.status, replayed=True)
        # an unfinished one (a turn in flight, or one whose gateway died) is not an answer: the
        # turn below waits for the session and replays it if it finished meanwhile, else runs it
        if stored is not None and stored.status not in UNFINISHED_RUN:
            trace = replayable(stored).model_dump_json()
            headers = {"X-Session-Id": stored.session_id, REPLAYED_HEADER: "true"}
            return Response(trace, media_type="application/json", headers=headers)
    session_id = session_id_from(request, body.metadata, body.session_id)
    entry = EntryRequest(
        session_id=session_id,
        input_text=body.input_text.strip() or body.input_text,
        channel="rest",
        metadata=body.metadata,
        pinned_domain=body.domain,
    )
    if body.background:
        background = services.background
        # refused now, as a 404, rather than after the 202 (the turn checks again, under the lock)
        await turns.check_access(session_id, principal.tenant)
        # the run's quota slot moves to the background run, which gives it back when it ends
        job = BackgroundJob(entry, keyed_run_id or new_run_id(), principal.tenant, slot.hand_over())
        try:
            # a full queue is refused there, before anything is recorded (503, Retry-After)
            queued = await background.submit(job)
        except BaseException:
            await job.slot.release()
            raise
        return _accepted(queued.run_id, session_id, queued.status)
    replay = keyed_run_id is not None
    turn = await turns.handle_traced(entry, keyed_run_id, tenant=principal.tenant, replay_stored=replay)
    # the trace as stored: serialised once, by pydantic, for the database and this body
    return Response(turn.trace_json, media_type="application/json", headers={"X-Session-Id": session_id})


@router.get("/v1/runs/{run_id}/events", response_model=None)
async def run_events(run_id: str, services: ServicesDep, principal: PrincipalDep) -> EventSourceResponse:
    """Server-Sent Events: ``run.status``, ``step`` (each step status change), ``run.finished``."""
    turns, store = services.turns, services.store
    if turns.run_tenant(run_id) == principal.tenant:
        source = turns.events.follow(run_id)
    else:
        stored = await store.owned_run(run_id, principal.tenant)
        if stored is None:
            raise NotFound(f"No run with id '{run_id}'", param="run_id")
        source = _replay(stored)

    async def stream() -> AsyncIterator[dict[str, str]]:
        async for event in source:
            yield {"event": event.type, "data": event.model_dump_json()}

    return EventSourceResponse(stream(), ping=15)


async def _replay(run: RunResult) -> AsyncIterator[RunEvent]:
    """A finished run, told again from its stored trace. A background run still queued or running
    on another gateway is told as its recorded status only (no ``run.finished``: it has not)."""
    if run.status in _UNFINISHED:
        yield RunStatusEvent(run_id=run.run_id, session_id=run.session_id, status=run.status, seq=1)
        return
    for seq, step in enumerate(run.steps, start=1):
        yield StepEvent(
            run_id=run.run_id,
            seq=seq,
            step_id=step.id,
            capability=step.capability,
            domain=step.domain,
            status=step.status,
            attempts=step.attempts,
            duration_ms=step.duration_ms,
            error=step.error,
            skipped_by_condition=step.skipped_by_condition,
        )
    yield RunFinished(
        run_id=run.run_id,
        seq=len(run.steps) + 1,
        session_id=run.session_id,
        status=run.status,
        answer=run.answer,
        event_id=run.event_id,
    )


@router.get("/v1/runs")
async def list_runs(
    store: StoreDep,
    principal: PrincipalDep,
    status: RunStatus | None = Query(default=None, description="Only runs of this status"),
    session: str | None = Query(default=None, max_length=128, description="Only this session's runs"),
    limit: int = Query(default=50, ge=1, le=500),
) -> RunList:
    """The tenant's runs, newest first."""
    runs = await store.list_runs(principal.tenant, status=status, session_id=session, limit=limit)
    return RunList(data=[RunListItem(**run._asdict()) for run in runs])


@router.post("/v1/runs/{run_id}/cancel")
async def cancel_run(run_id: str, services: ServicesDep, principal: PrincipalDep) -> RunResult:
    """Cancel a background run: queued, it never starts; running, its step in flight finishes
    (or times out) and no further step starts. A finished run is a 409, as is an interactive
    one (it ends with its request)."""
    store = services.store
    run = await store.owned_run(run_id, principal.tenant)
    if run is None:
        raise NotFound(f"No run with id '{run_id}'", param="run_id")
    if run.status not in _UNFINISHED:
        raise Conflict(f"Run '{run_id}' has already finished ({run.status.value}).", param="run_id")
    if not await store.is_background(run_id):
        raise Conflict(f"Run '{run_id}' is not a background run: it ends with its request.", param="run_id")
    # stored first: a worker taking it from now on finds it cancelled and does not start it
    await store.cancel_run(run_id, CANCEL_NOTE)
    # then its workflow: off the queue if still there; running, no further step starts
    await services.background.cancel(run_id)
    cancelled = await store.owned_run(run_id, principal.tenant)
    if cancelled is None:  # its session was deleted meanwhile
        raise NotFound(f"No run with id '{run_id}'", param="run_id")
    return cancelled


@router.post("/v1/runs/{run_id}/retry")
async def retry_run(
    run_id: str, services: ServicesDep, principal: PrincipalDep, slot: RunSlotDep
) -> JSONResponse:
    """Run a failed or timed-out run again, in the background, under its own id: its domains see
    the same per-step idempotency keys, so the steps that succeeded answer from what they did
    (nothing is sent twice) and the others run. 202 as for a background run; 409 otherwise."""
    store = services.store
    run = await store.owned_run(run_id, principal.tenant)
    if run is None:
        raise NotFound(f"No run with id '{run_id}'", param="run_id")
    if run.status not in RETRYABLE:
        raise Conflict(
            f"Run '{run_id}' is {run.status.value}: only a failed or timed-out run is retried.",
            param="run_id",
        )
    stored = await store.get_run_request(run_id)
    if stored is None:
        raise NotFound(f"No run with id '{run_id}'", param="run_id")
    input_text, extras = stored
    background = services.background
    entry = entry_of(run.session_id, input_text, extras)
    job = BackgroundJob(entry, run_id, principal.tenant, slot.hand_over())
    try:
        queued = await background.retry(job, RETRY_NOTE)
    except BaseException:
        await job.slot.release()
        raise
    return _accepted(queued.run_id, run.session_id, queued.status)


@router.get("/v1/runs/{run_id}")
async def get_run(run_id: str, store: StoreDep, principal: PrincipalDep) -> RunResult:
    run = await store.owned_run(run_id, principal.tenant)
    if run is None:
        raise NotFound(f"No run with id '{run_id}'", param="run_id")
    return run
