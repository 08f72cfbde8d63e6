"""The thinnest hand-written hop in front of a domain, the yardstick for the gateway's overhead.

One FastAPI route takes the gateway's request body (``POST /v1/runs`` with ``input_text``) and
forwards one fixed ``ExecutionIntent`` (its ``original_query`` set to that text) to the domain's
``/execute`` with one shared ``httpx.AsyncClient``, returning the domain's answer untouched: no
intent model, no session, no storage, no validation of the answer.

Command:  .venv/bin/python bench/thin_hop.py --port P --domain-url URL --intent JSON
Served by uvicorn as the domains and the gateway are (uvloop + httptools when installed).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
import uvicorn
from fastapi import FastAPI, Response
from pydantic import BaseModel


class RunRequest(BaseModel):
    """The part of the gateway's ``/v1/runs`` body the hop reads."""

    input_text: str
    session_id: str | None = None


def thin_hop_app(domain_url: str, intent: dict[str, Any]) -> FastAPI:
    """The app: ``POST /v1/runs`` forwards ``intent`` to ``{domain_url}/execute``."""
    clients: list[httpx.AsyncClient] = []

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        async with httpx.AsyncClient(base_url=domain_url, timeout=30) as client:
            clients.append(client)
            yield

    app = FastAPI(lifespan=lifespan)

    @app.get("/health")
    async def health() -> dict[str, str]:
        return {"status": "ok"}

    @app.post("/v1/runs")
    async def run(request: RunRequest) -> Response:
        answer = await clients[0].post("/execute", json={**intent, "original_query": request.input_text})
        return Response(answer.content, status_code=answer.status_code, media_type="application/json")

    return app


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--domain-url", required=True)
    parser.add_argument("--intent", required=True, help="the ExecutionIntent JSON to forward")
    args = parser.parse_args()
    app = thin_hop_app(args.domain_url, json.loads(args.intent))
    uvicorn.run(app, host="127.0.0.1", port=args.port, log_level="warning")


if __name__ == "__main__":
    main()
