"""Liveness (``/health``) and readiness (``/ready``).

``/ready`` answers 503, naming what is down in ``checks``, unless:

- the database takes a write within ``READY_TIMEOUT_S`` (a full disk or a read-only database
  answers reads and refuses every turn's commit) and, on SQLite, its file is still there and
  writable (a deleted file keeps answering reads on the open connection);
- Redis, when ``REDIS_URL`` is set, answers ``PING`` within ``READY_TIMEOUT_S``;
- at least one domain is healthy.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from redis.asyncio import Redis
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine

from gateway.deps import services
from gateway.storage.write_probe import write_probe

router = APIRouter()

OK = "ok"


@router.get("/health")
async def health() -> dict[str, str]:
    return {"status": "ok"}


def sqlite_file(engine: AsyncEngine) -> Path | None:
    """The SQLite database file behind ``engine``; None for PostgreSQL or an in-memory SQLite."""
    url = make_url(str(engine.url))
    if not url.drivername.startswith("sqlite") or url.database in (None, "", ":memory:"):
        return None
    if url.database.startswith("file:"):  # URI filenames: the path part only
        return Path(url.database[5:].split("?", 1)[0])
    return Path(url.database)


async def database_check(engine: AsyncEngine, timeout_s: float) -> str:
    path = sqlite_file(engine)
    if path is not None:
        if not path.exists():
            return "missing"
        if not os.access(path, os.W_OK) or not os.access(path.parent, os.W_OK):
            return "read_only"

    try:
        await asyncio.wait_for(write_probe(engine), timeout_s)
    except Exception:  # any failure to answer is "down"; its kind does not matter to a probe
        return "unreachable"
    return OK


async def redis_check(redis: Redis, timeout_s: float) -> str:
    try:
        await asyncio.wait_for(redis.ping(), timeout_s)
    except Exception:
        return "unreachable"
    return OK


@router.get("/ready")
async def ready(request: Request) -> JSONResponse:
    found = services(request)
    timeout_s = found.settings.ready_timeout_s
    redis = found.redis
    checks: dict[str, Any] = {}
    if redis is not None:
        checks["database"], checks["redis"] = await asyncio.gather(
            database_check(found.engine, timeout_s), redis_check(redis, timeout_s)
        )
    else:
        checks["database"] = await database_check(found.engine, timeout_s)
    domains = found.registry.list()
    checks["domains"] = {d.name: ("ok" if d.healthy else "unhealthy") for d in domains}
    down = [name for name in ("database", "redis") if checks.get(name, OK) != OK]
    if not any(d.healthy for d in domains):
        down.append("domains")
    body: dict[str, Any] = {"status": "not_ready" if down else "ready", "checks": checks}
    if down:
        body["down"] = down
    return JSONResponse(body, 503 if down else 200)
