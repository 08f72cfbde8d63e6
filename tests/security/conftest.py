"""Real HTTP for the security tests: an app served by uvicorn on a free loopback port."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import asyncpg
import uvicorn
from fastapi import FastAPI
from fastapi.responses import JSONResponse, Response

from tests.conftest import PG_ADMIN_URL, free_port, unavailable


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


@contextmanager
def backend_database(backend: str, work: Path) -> Iterator[str]:
    """The database URL of a gateway on ``backend`` ("sqlite": a file in ``work``; "postgresql":
    a fresh database, dropped afterwards)."""
    if backend == "sqlite":
        yield f"sqlite+aiosqlite:///{work / 'gateway.sqlite3'}"
    else:
        with pg_database() as url:
            yield url


@contextmanager
def pg_database() -> Iterator[str]:
    """A fresh PostgreSQL database's SQLAlchemy URL, dropped afterwards: for module-scoped gateway
    processes (``tests.conftest.pg_database_url`` is per test)."""
    name = f"t_{uuid.uuid4().hex[:12]}"

    async def admin(sql: str) -> None:
        conn = await asyncpg.connect(PG_ADMIN_URL, timeout=3)
        try:
            await conn.execute(sql)
        finally:
            await conn.close()

    try:
        asyncio.run(admin(f'CREATE DATABASE "{name}"'))
    except (TimeoutError, OSError, asyncpg.PostgresError):
        unavailable("PostgreSQL at 127.0.0.1:5432")
    base = PG_ADMIN_URL.rsplit("/", 1)[0]
    try:
        yield f"{base}/{name}".replace("postgresql://", "postgresql+asyncpg://")
    finally:
        asyncio.run(admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
