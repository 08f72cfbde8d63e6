"""Native REST channel: ``POST /v1/runs`` returns the full trace; ``GET /v1/runs/{run_id}``."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from gateway.deps import StoreDep, TurnsDep, session_id_from
from shared.errors import NotFound
from shared.models import EntryRequest

router = APIRouter()


class RunRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    input_text: str = Field(min_length=1, max_length=20_000)
    session_id: str | None = Field(default=None, max_length=128)
    metadata: dict[str, Any] = Field(default_factory=dict)
    domain: str | None = Field(default=None, description="Pin goal matching to one domain")


@router.post("/v1/runs")
async def create_run(body: RunRequest, request: Request, turns: TurnsDep) -> JSONResponse:
    session_id = session_id_from(request, body.metadata, body.session_id)
    entry = EntryRequest(
        session_id=session_id,
        input_text=body.input_text.strip() or body.input_text,
        channel="rest",
        metadata=body.metadata,
        pinned_domain=body.domain,
    )
    run = await turns.handle(entry)
    return JSONResponse(run.model_dump(mode="json"), headers={"X-Session-Id": session_id})


@router.get("/v1/runs/{run_id}")
async def get_run(run_id: str, store: StoreDep) -> dict[str, Any]:
    run = await store.get_run(run_id)
    if run is None:
        raise NotFound(f"No run with id '{run_id}'", param="run_id")
    return run.model_dump(mode="json")
