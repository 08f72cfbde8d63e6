"""``GET /metrics``: every metric of this gateway in the Prometheus text format (all workers'
when ``PROMETHEUS_MULTIPROC_DIR`` is set), behind the same bearer keys as ``/v1``."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import Response

from shared.telemetry.metrics import render

router = APIRouter()


@router.get("/metrics", include_in_schema=False)
async def metrics() -> Response:
    body, content_type = render()
    return Response(body, media_type=content_type)
