"""Liveness (``/health``) and readiness (``/ready``: database reachable, registry loaded)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from sqlalchemy import text

router = APIRouter()


@router.get("/health")
async def health() -> dict[str, str]:
    return {"status": "ok"}


@router.get("/ready")
async def ready(request: Request) -> JSONResponse:
    checks: dict[str, Any] = {}
    try:
        async with request.app.state.engine.connect() as conn:
            await conn.execute(text("SELECT 1"))
        checks["database"] = "ok"
    except Exception:
        checks["database"] = "unreachable"
    domains = request.app.state.registry.list()
    checks["domains"] = {d.name: ("ok" if d.healthy else "unhealthy") for d in domains}
    ok = checks["database"] == "ok" and any(d.healthy for d in domains)
    return JSONResponse({"status": "ready" if ok else "not_ready", "checks": checks}, 200 if ok else 503)
