"""Metrics, traces and structured logs, shared by the gateway and the domain SDK.

* :mod:`shared.telemetry.metrics`: Prometheus metrics and the ``/metrics`` body (multi-process
  aware);
* :mod:`shared.telemetry.tracing`: OpenTelemetry spans, exported over OTLP/HTTP only when an
  endpoint is configured, and the W3C ``traceparent`` between services;
* :mod:`shared.telemetry.logs`: one JSON line per log event (or text), with secrets masked;
* :mod:`shared.telemetry.asgi`: the middleware that measures every request and continues its trace.
"""
