"""Native REST channel: ``POST /v1/runs`` returns the full trace; ``GET /v1/runs/{run_id}``."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Callable
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field
from sse_starlette.sse import EventSourceResponse

from gateway.deps import StoreDep, TurnsDep, session_id_from
from gateway.events import TERMINAL_EVENT
from gateway.turn import new_run_id
from shared.errors import NotFound
from shared.models import EntryRequest, RunResult
from shared.status import RunStatus

log = logging.getLogger(__name__)

router = APIRouter()


class RunRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    input_text: str = Field(min_length=1, max_length=20_000)
    session_id: str | None = Field(default=None, max_length=128)
    metadata: dict[str, Any] = Field(default_factory=dict)
    domain: str | None = Field(default=None, description="Pin goal matching to one domain")
    #: Answer 202 at once with the run id; follow ``/v1/runs/{run_id}/events`` (SSE) or poll.
    background: bool = False


@router.post("/v1/runs")
async def create_run(body: RunRequest, request: Request, turns: TurnsDep) -> Response:
    session_id = session_id_from(request, body.metadata, body.session_id)
    entry = EntryRequest(
        session_id=session_id,
        input_text=body.input_text.strip() or body.input_text,
        channel="rest",
        metadata=body.metadata,
        pinned_domain=body.domain,
    )
    if body.background:
        run_id = new_run_id()
        task = asyncio.create_task(turns.handle(entry, run_id=run_id))
        background: set[asyncio.Task[Any]] = request.app.state.background
        background.add(task)
        task.add_done_callback(_forget(background))
        return JSONResponse(
            {
                "run_id": run_id,
                "session_id": session_id,
                "status": RunStatus.PENDING.value,
                "events_url": f"/v1/runs/{run_id}/events",
            },
            status_code=202,
            headers={"X-Session-Id": session_id},
        )
    turn = await turns.handle_traced(entry)
    # the trace as stored: serialised once, by pydantic, for the database and this body
    return Response(turn.trace_json, media_type="application/json", headers={"X-Session-Id": session_id})


def _forget(tasks: set[asyncio.Task[Any]]) -> Callable[[asyncio.Task[Any]], None]:
    def done(task: asyncio.Task[Any]) -> None:
        tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.warning("background run failed: %s", getattr(task.exception(), "message", "internal error"))

    return done


@router.get("/v1/runs/{run_id}/events", response_model=None)
async def run_events(run_id: str, turns: TurnsDep, store: StoreDep) -> EventSourceResponse:
    """Server-Sent Events: ``run.status``, ``step`` (each step status change), ``run.finished``."""
    if turns.events.has(run_id):
        source = turns.events.follow(run_id)
    else:
        stored = await store.get_run(run_id)
        if stored is None:
            raise NotFound(f"No run with id '{run_id}'", param="run_id")
        source = _replay(stored)

    async def stream() -> AsyncIterator[dict[str, str]]:
        async for event in source:
            yield {"event": event["type"], "data": json.dumps(event, default=str)}

    return EventSourceResponse(stream(), ping=15)


async def _replay(run: RunResult) -> AsyncIterator[dict[str, Any]]:
    """A finished run, told again from its stored trace."""
    for step in run.steps:
        yield {
            "type": "step",
            "run_id": run.run_id,
            "step_id": step.id,
            "capability": step.capability,
            "domain": step.domain,
            "status": step.status.value,
            "attempts": step.attempts,
            "duration_ms": step.duration_ms,
            "error": step.error,
        }
    yield {
        "type": TERMINAL_EVENT,
        "run_id": run.run_id,
        "session_id": run.session_id,
        "status": run.status.value,
        "answer": run.answer,
        "event_id": run.event_id,
    }


@router.get("/v1/runs/{run_id}")
async def get_run(run_id: str, store: StoreDep) -> RunResult:
    run = await store.get_run(run_id)
    if run is None:
        raise NotFound(f"No run with id '{run_id}'", param="run_id")
    return run
