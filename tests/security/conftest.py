"""Real HTTP for the security tests: an app served by uvicorn on a free loopback port."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import uvicorn
from fastapi import FastAPI
from fastapi.responses import JSONResponse, Response

from tests.conftest import free_port


@asynccontextmanager
async def serving(app: FastAPI) -> AsyncIterator[str]:
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    task = asyncio.create_task(server.serve())
    try:
        while not server.started:  # uvicorn.Server exposes a flag, not an event
            assert not task.done(), "uvicorn did not start"
            await asyncio.sleep(0.01)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        await task


def raw_app(manifest_body: bytes | Any, *, health: bool = True) -> FastAPI:
    """A hand-written service whose ``/manifest`` answers exactly ``manifest_body``."""
    app = FastAPI()

    @app.get("/manifest")
    async def manifest() -> Response:
        if isinstance(manifest_body, bytes):
            return Response(manifest_body, media_type="application/json")
        return JSONResponse(manifest_body)

    @app.get("/health")
    async def alive() -> dict[str, str]:
        return {"status": "ok"}

    return app


def manifest(domain: str, goals: list[dict[str, Any]], **capability: Any) -> dict[str, Any]:
    """A minimal valid manifest: one capability ``do_<domain>`` that every goal maps to."""
    cap = {"name": f"do_{domain}".replace("-", "_"), "description": "does it", **capability}
    return {
        "domain": domain,
        "version": "1",
        "description": f"{domain} things",
        "capabilities": [cap],
        "goals": [{"capabilities": [cap["name"]], **g} for g in goals],
    }
