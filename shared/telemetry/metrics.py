"""Prometheus metrics shared by every service, and the body of ``GET /metrics``.

Multi-process: with ``PROMETHEUS_MULTIPROC_DIR`` set (an empty directory, wiped before the
workers start) prometheus-client keeps each worker's values in files there and :func:`render`
aggregates them, so any worker answers for all; collectors that read live objects (breakers,
registry, queue) still describe the worker that answers. Without it, values live in memory.

>>> body, content_type = render()
>>> content_type.startswith("text/plain")
True
>>> b"http_requests_total" in body or b"# HELP" in body
True
"""

from __future__ import annotations

import os
from collections.abc import Iterable

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
)
from prometheus_client.registry import Collector

#: Request latency buckets (seconds): most answers of this platform take milliseconds.
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)

HTTP_REQUESTS = Counter(
    "http_requests_total",
    "HTTP requests answered, by service, route template, method and status code.",
    ["service", "route", "method", "status"],
)
HTTP_LATENCY = Histogram(
    "http_request_duration_seconds",
    "Time from request to the end of the response body, by service, route template and method.",
    ["service", "route", "method"],
    buckets=LATENCY_BUCKETS,
)

#: Collectors of live, per-process state (added by the services), rendered next to the metrics.
_live_collectors: list[Collector] = []


def multiprocess_dir() -> str | None:
    return os.environ.get("PROMETHEUS_MULTIPROC_DIR") or None


def add_live_collector(collector: Collector) -> None:
    """Register a collector that reads live objects at scrape time (replacing one of the same
    class, so an app rebuilt in the same process does not describe its predecessor)."""
    for old in [c for c in _live_collectors if type(c) is type(collector)]:
        _live_collectors.remove(old)
        if multiprocess_dir() is None:
            REGISTRY.unregister(old)
    _live_collectors.append(collector)
    if multiprocess_dir() is None:
        REGISTRY.register(collector)


def _registry() -> CollectorRegistry:
    if multiprocess_dir() is None:
        return REGISTRY
    from prometheus_client import multiprocess

    registry = CollectorRegistry()
    multiprocess.MultiProcessCollector(registry)
    for collector in _live_collectors:
        registry.register(collector)
    return registry


def render() -> tuple[bytes, str]:
    """The ``/metrics`` body and its content type (the Prometheus text format)."""
    return generate_latest(_registry()), CONTENT_TYPE_LATEST


def sample_value(name: str, labels: dict[str, str] | None = None) -> float | None:
    """One sample's value from the process' registry (tests and benchmarks)."""
    return REGISTRY.get_sample_value(name, labels or {})


def live_collectors() -> Iterable[Collector]:
    return tuple(_live_collectors)
