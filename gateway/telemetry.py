"""The gateway's own telemetry: turn, step and intent metrics, live gauges read at scrape time
(breakers, registry, background queue), and the ``X-Orchestrator-Overhead-Ms`` header.

Overhead = the request's time in the gateway minus the time its turn was blocked on domains (the
union of its steps' intervals, so parallel steps count once). A non-streamed answer carries it as a
header. A stream's headers leave before the turn runs: there the header holds the time to the
response head, and the whole figure closes the stream as an SSE comment
(``: X-Orchestrator-Overhead-Ms: 1.234``), which SSE clients ignore.

>>> from datetime import datetime, timedelta
>>> t0 = datetime(2026, 1, 1)
>>> ms = lambda a, b: (t0 + timedelta(milliseconds=a), t0 + timedelta(milliseconds=b))
>>> blocked_ms([ms(0, 10), ms(5, 20), ms(30, 40)])  # 0-20 (two overlapping), then 30-40
30.0
"""

from __future__ import annotations

import contextvars
import logging
import time
from collections.abc import Callable, Iterable, Iterator, Sized
from dataclasses import dataclass
from datetime import datetime
from typing import ClassVar

from prometheus_client import Counter, Gauge, Histogram
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from orchestrator.breaker import DomainBreakers
from orchestrator.registry import DomainRegistry
from shared.models import RunResult
from shared.status import RunStatus
from shared.telemetry.metrics import LATENCY_BUCKETS

log = logging.getLogger("gateway.turns")

OVERHEAD_HEADER = "X-Orchestrator-Overhead-Ms"
_OVERHEAD_HEADER_RAW = OVERHEAD_HEADER.lower().encode()
_EVENT_STREAM = b"text/event-stream"

TURNS = Counter("orchestrator_turns_total", "Turns finished, by final status.", ["status"])
TURN_LATENCY = Histogram(
    "orchestrator_turn_duration_seconds",
    "A turn's time, from message to stored answer.",
    buckets=LATENCY_BUCKETS,
)
OVERHEAD = Histogram(
    "orchestrator_overhead_seconds",
    "A turn's time not spent waiting on domains (what X-Orchestrator-Overhead-Ms reports).",
    buckets=(0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0),
)
STEPS = Counter(
    "orchestrator_steps_total",
    "Plan steps settled, by domain, capability and status.",
    ["domain", "capability", "status"],
)
STEP_LATENCY = Histogram(
    "orchestrator_step_duration_seconds",
    "A step's time, retries included, by domain and capability.",
    ["domain", "capability"],
    buckets=LATENCY_BUCKETS,
)
RETRIES = Counter(
    "orchestrator_step_retries_total",
    "Extra attempts of steps (attempts beyond the first).",
    ["domain", "capability"],
)
REPLANS = Counter("orchestrator_replans_total", "Plans made again after a recoverable failure.")
INTENT_CONFIDENCE = Histogram(
    "orchestrator_intent_confidence",
    "The intent layer's calibrated confidence in the goal it chose.",
    buckets=(0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 1.0),
)
CLARIFICATIONS = Counter(
    "orchestrator_clarifications_total", "Turns that ended asking the person a question."
)
OUT_OF_SCOPE = Counter(
    "orchestrator_out_of_scope_total", "Turns whose message matched no goal of any domain."
)
ACTIVE_SESSIONS = Gauge(
    "orchestrator_active_sessions",
    "Sessions with a turn running now.",
    multiprocess_mode="livesum",
)


# ------------------------------------------------------------------ live collectors


class GatewayStateCollector(Collector):
    """Read at scrape time, from this process: breaker state per domain (0 closed, 1 half-open,
    2 open), registry size and the background runs still queued or running."""

    _BREAKER_VALUES: ClassVar[dict[str, float]] = {"closed": 0.0, "half-opened": 1.0, "opened": 2.0}

    def __init__(self, breakers: DomainBreakers, registry: DomainRegistry, background: Sized):
        self.breakers = breakers
        self.registry = registry
        self.background = background

    def collect(self) -> Iterator[Metric]:
        catalog = self.registry.catalog
        breaker = GaugeMetricFamily(
            "orchestrator_circuit_breaker_state",
            "A domain's circuit: 0 closed, 1 half-open (one trial call), 2 open (calls refused).",
            labels=["domain"],
        )
        manifests = catalog.manifests()
        for domain in catalog.domains:
            breaker.add_metric([domain], self._BREAKER_VALUES.get(self.breakers.state(domain), 0.0))
        yield breaker
        size = GaugeMetricFamily(
            "orchestrator_registry_size", "What the registry holds, by kind.", labels=["kind"]
        )
        size.add_metric(["domains"], float(len(manifests)))
        size.add_metric(["capabilities"], float(sum(len(m.capabilities) for m in manifests)))
        size.add_metric(["goals"], float(sum(len(m.goals) for m in manifests)))
        yield size
        yield GaugeMetricFamily(
            "orchestrator_background_queue_depth",
            "Background runs (POST /v1/runs with background) accepted and not finished.",
            value=float(len(self.background)),
        )


# ------------------------------------------------------------------ a turn's figures


def blocked_ms(intervals: Iterable[tuple[datetime, datetime]]) -> float:
    """Milliseconds covered by the union of ``intervals``."""
    total = 0.0
    end: datetime | None = None
    for start, finish in sorted(intervals):
        if end is None or start > end:
            total += (finish - start).total_seconds()
            end = finish
        elif finish > end:
            total += (finish - end).total_seconds()
            end = finish
    return total * 1000.0


def domain_wait_ms(run: RunResult, since: datetime) -> float:
    """How long the turn was blocked on its steps' domain calls (steps before ``since``, from an
    earlier turn, excluded)."""
    intervals = [
        (max(step.started_at, since), step.finished_at)
        for step in run.steps
        if step.started_at is not None and step.finished_at is not None and step.finished_at > since
    ]
    return blocked_ms(intervals)


def record_turn(run: RunResult, duration_s: float, domain_wait_s: float) -> None:
    """The metrics of a finished turn and of its steps (``METRICS_ENABLED``)."""
    TURNS.labels(run.status.value).inc()
    TURN_LATENCY.observe(duration_s)
    OVERHEAD.observe(max(0.0, duration_s - domain_wait_s))
    if run.intent is not None:
        INTENT_CONFIDENCE.observe(run.intent.confidence)
        if run.intent.out_of_scope:
            OUT_OF_SCOPE.inc()
    if run.status == RunStatus.WAITING_INPUT:
        CLARIFICATIONS.inc()
    for step in run.steps:
        STEPS.labels(step.domain, step.capability, step.status.value).inc()
        if step.duration_ms is not None:
            STEP_LATENCY.labels(step.domain, step.capability).observe(step.duration_ms / 1000.0)
        if step.attempts > 1:
            RETRIES.labels(step.domain, step.capability).inc(step.attempts - 1)


def log_turn(run: RunResult, duration_s: float, domain_wait_s: float) -> None:
    """The one INFO line of a finished turn, and a DEBUG line per step (``LOG_LEVEL=DEBUG``):
    at the default level a turn formats and writes one line."""
    if log.isEnabledFor(logging.DEBUG):
        for step in run.steps:
            log.debug(
                "step %s",
                step.status.value,
                extra={
                    "event": "step",
                    "run_id": run.run_id,
                    "session_id": run.session_id,
                    "domain": step.domain,
                    "capability": step.capability,
                    "status": step.status.value,
                    "duration_ms": step.duration_ms,
                    "attempts": step.attempts,
                },
            )
    if log.isEnabledFor(logging.INFO):
        log.info(
            "turn %s",
            run.status.value,
            extra={
                "event": "turn",
                "run_id": run.run_id,
                "session_id": run.session_id,
                "status": run.status.value,
                "duration_ms": round(duration_s * 1000.0, 3),
                "steps": len(run.steps),
                "domain_wait_ms": round(domain_wait_s * 1000.0, 3),
            },
        )


# ------------------------------------------------------------------ the overhead header


@dataclass
class RequestTiming:
    """Filled by the turn that runs inside a request, read by :class:`OverheadHeader`."""

    domain_wait_s: float = 0.0
    turned: bool = False


_timing: contextvars.ContextVar[RequestTiming | None] = contextvars.ContextVar("request_timing", default=None)


def note_domain_wait(seconds: float) -> None:
    """Tell the request being answered (if any) how long its turn waited on domains."""
    timing = _timing.get()
    if timing is not None:
        timing.domain_wait_s += seconds
        timing.turned = True


def _overhead_ms(started: float, timing: RequestTiming) -> str:
    elapsed = time.perf_counter() - started
    return f"{max(0.0, elapsed - timing.domain_wait_s) * 1000.0:.3f}"


class OverheadHeader:
    """Adds ``X-Orchestrator-Overhead-Ms`` to the turn routes' answers (see the module doc)."""

    def __init__(self, app: ASGIApp, routes: Callable[[str, str], bool]):
        self.app = app
        self.routes = routes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not self.routes(scope["method"], scope["path"]):
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        # the holder is shared by reference: tasks the route starts (a stream's turn) copy the
        # context, and so write to this same object
        timing = RequestTiming()
        token = _timing.set(timing)
        streaming = False

        async def timed_send(message: Message) -> None:
            nonlocal streaming
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                streaming = any(k == b"content-type" and v.startswith(_EVENT_STREAM) for k, v in headers)
                if message["status"] < 400:
                    headers.append((_OVERHEAD_HEADER_RAW, _overhead_ms(started, timing).encode()))
                message = {**message, "headers": headers}
            elif streaming and message["type"] == "http.response.body" and not message.get("more_body"):
                comment = f": {OVERHEAD_HEADER}: {_overhead_ms(started, timing)}\n\n".encode()
                await send({"type": "http.response.body", "body": comment, "more_body": True})
            await send(message)

        try:
            await self.app(scope, receive, timed_send)
        finally:
            _timing.reset(token)


#: Every route that runs a turn (the overhead header and turn metrics apply to them).
TURN_ROUTES = frozenset({"/v1/chat/completions", "/v1/responses", "/v1/runs", "/a2a"})


def is_turn_route(method: str, path: str) -> bool:
    """The routes that run a turn: chat completions, responses, the native runs endpoint and A2A."""
    return method == "POST" and path in TURN_ROUTES
