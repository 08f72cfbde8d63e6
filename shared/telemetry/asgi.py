"""Pure ASGI middleware around a whole service: per-request metrics (by route template, never the
raw path) and the server span that continues the caller's W3C trace context."""

from __future__ import annotations

import time

from fastapi.telemetry import TelemetryConfig
from opentelemetry.trace import SpanKind
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from shared.telemetry.metrics import HTTP_LATENCY, HTTP_REQUESTS
from shared.telemetry.tracing import extract_trace_context, mark_error, start_span, tracing_enabled

#: ``FastAPI(telemetry=...)``: FastAPI's native OpenTelemetry would add a second server span per
#: request, a sibling of ours (the one that works on every FastAPI version).
NO_FASTAPI_SPANS: TelemetryConfig = {"tracing": False, "operation_spans": False}
#: Routes scraped or polled all the time: measured, but never traced.
UNTRACED_ROUTES = frozenset({"/metrics", "/health"})


def route_template(scope: Scope) -> str:
    """``/v1/runs/{run_id}`` rather than the path: one series per route, whatever the ids."""
    route = scope.get("route")
    path = getattr(route, "path", None)
    return path if isinstance(path, str) else "unmatched"


class RequestTelemetry:
    def __init__(self, app: ASGIApp, service: str, *, metrics: bool = True, only_continued: bool = False):
        self.app = app
        self.service = service
        self.metrics = metrics
        #: trace only requests that arrive with a ``traceparent`` (the gateway: a turn's own
        #: ``invoke_workflow`` span is the root otherwise, one span fewer per turn)
        self.only_continued = only_continued

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500
        method = scope["method"]

        async def recording_send(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        parent = None
        headers = scope["headers"]
        if (
            tracing_enabled()
            and scope["path"] not in UNTRACED_ROUTES
            and (not self.only_continued or any(k == b"traceparent" for k, _ in headers))
        ):
            parent = extract_trace_context({k.decode("latin-1"): v.decode("latin-1") for k, v in headers})
        try:
            if parent is None:
                await self.app(scope, receive, recording_send)
            else:
                with start_span(
                    f"{method} {scope['path']}",
                    {"http.request.method": method, "url.path": scope["path"]},
                    kind=SpanKind.SERVER,
                    parent=parent,
                ) as span:
                    await self.app(scope, receive, recording_send)
                    route = route_template(scope)
                    if span is not None:
                        span.update_name(f"{method} {route}")
                        span.set_attribute("http.route", route)
                        span.set_attribute("http.response.status_code", status)
                        if status >= 500:
                            mark_error(span, f"HTTP {status}")
        finally:
            if self.metrics:
                self._measure(scope, method, status, time.perf_counter() - started)

    def _measure(self, scope: Scope, method: str, status: int, elapsed_s: float) -> None:
        route = route_template(scope)
        HTTP_REQUESTS.labels(self.service, route, method, str(status)).inc()
        HTTP_LATENCY.labels(self.service, route, method).observe(elapsed_s)
