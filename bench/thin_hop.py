"""The thinnest hand-written hop in front of a domain, the yardstick for the gateway's overhead.

One FastAPI route takes the gateway's request body (``POST /v1/runs`` with ``input_text``) and
forwards one fixed ``ExecutionIntent`` (its ``original_query`` set to that text) to the domain's
``/execute`` with one shared HTTP client, returning the domain's answer untouched: no intent
model, no session, no storage, no validation of the answer. ``--client`` picks that client:
``httpx`` (``httpx.AsyncClient``) or ``aiohttp`` (``aiohttp.ClientSession``, the cheaper one; the
gateway's domain client runs on aiohttp's transport too).

Command:  .venv/bin/python bench/thin_hop.py --port P --domain-url URL --intent JSON [--client aiohttp]
Served by uvicorn as the domains and the gateway are (uvloop + httptools when installed).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any, Literal

import aiohttp
import httpx
import uvicorn
from fastapi import FastAPI, Response
from pydantic import BaseModel

#: (path, JSON body) -> (status, body bytes) of the domain's answer
Forward = Callable[[str, dict[str, Any]], Awaitable[tuple[int, bytes]]]
ClientKind = Literal["httpx", "aiohttp"]


class RunRequest(BaseModel):
    """The part of the gateway's ``/v1/runs`` body the hop reads."""

    input_text: str
    session_id: str | None = None


@asynccontextmanager
async def _forwarder(kind: ClientKind, domain_url: str) -> AsyncIterator[Forward]:
    if kind == "httpx":
        async with httpx.AsyncClient(base_url=domain_url, timeout=30) as client:

            async def via_httpx(path: str, body: dict[str, Any]) -> tuple[int, bytes]:
                answer = await client.post(path, json=body)
                return answer.status_code, answer.content

            yield via_httpx
        return
    async with aiohttp.ClientSession(base_url=domain_url, timeout=aiohttp.ClientTimeout(30)) as session:

        async def via_aiohttp(path: str, body: dict[str, Any]) -> tuple[int, bytes]:
            async with session.post(path, json=body) as answer:
                return answer.status, await answer.read()

        yield via_aiohttp


def thin_hop_app(domain_url: str, intent: dict[str, Any], client: ClientKind = "httpx") -> FastAPI:
    """The app: ``POST /v1/runs`` forwards ``intent`` to ``{domain_url}/execute``."""
    forwarders: list[Forward] = []

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        async with _forwarder(client, domain_url) as forward:
            forwarders.append(forward)
            yield

    app = FastAPI(lifespan=lifespan)

    @app.get("/health")
    async def health() -> dict[str, str]:
        return {"status": "ok"}

    @app.post("/v1/runs")
    async def run(request: RunRequest) -> Response:
        status, body = await forwarders[0]("/execute", {**intent, "original_query": request.input_text})
        return Response(body, status_code=status, media_type="application/json")

    return app


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--domain-url", required=True)
    parser.add_argument("--intent", required=True, help="the ExecutionIntent JSON to forward")
    parser.add_argument("--client", choices=("httpx", "aiohttp"), default="httpx")
    args = parser.parse_args()
    app = thin_hop_app(args.domain_url, json.loads(args.intent), args.client)
    uvicorn.run(app, host="127.0.0.1", port=args.port, log_level="warning")


if __name__ == "__main__":
    main()
