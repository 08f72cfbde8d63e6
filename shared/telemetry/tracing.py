"""OpenTelemetry tracing: set up only when ``OTEL_EXPORTER_OTLP_ENDPOINT`` (or the traces-only
``OTEL_EXPORTER_OTLP_TRACES_ENDPOINT``) is set; otherwise nothing is recorded or exported and every
helper here returns at once.

Span names follow the GenAI semantic conventions' operation names: ``invoke_workflow`` (a turn),
``plan``, ``execute_tool`` (a domain call), with ``gen_ai.operation.name`` and
``gen_ai.conversation.id`` (the session).

>>> tracing_enabled()
False
>>> with start_span("plan", {"gen_ai.operation.name": "plan"}) as span:
...     span is None
True
>>> headers: dict[str, str] = {}
>>> inject_trace_context(headers)
>>> headers
{}
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING

from opentelemetry import context as otel_context
from opentelemetry import trace
from opentelemetry.propagate import extract, inject
from opentelemetry.trace import Span, SpanKind, Status, StatusCode
from opentelemetry.util.types import AttributeValue

if TYPE_CHECKING:
    from opentelemetry.sdk.trace import TracerProvider

    from shared.models import ExecutionIntent

log = logging.getLogger(__name__)

TRACER_NAME = "agent_orchestrator"
_ENDPOINT_VARIABLES = ("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_ENDPOINT")

#: GenAI semantic-convention attribute names
OPERATION = "gen_ai.operation.name"
CONVERSATION = "gen_ai.conversation.id"
TOOL_NAME = "gen_ai.tool.name"


class _Tracing:
    """The process' tracing switch: one provider per process, set once."""

    provider: TracerProvider | None = None  # set once tracing is set up

    @property
    def enabled(self) -> bool:
        return self.provider is not None


_state = _Tracing()
_tracer = trace.get_tracer(TRACER_NAME)


def otlp_endpoint_configured(environ: Mapping[str, str] | None = None) -> bool:
    env = os.environ if environ is None else environ
    return any(env.get(name) for name in _ENDPOINT_VARIABLES)


def tracing_enabled() -> bool:
    return _state.enabled


def setup_tracing(
    service_name: str, endpoint: str | None = None, environ: Mapping[str, str] | None = None
) -> bool:
    """Install a tracer provider exporting over OTLP/HTTP when an endpoint is configured
    (``endpoint``, the base URL as ``OTEL_EXPORTER_OTLP_ENDPOINT`` takes it, or the variables);
    True if tracing is on. Idempotent: a second call (another app in the process) keeps the first."""
    if _state.enabled:
        return True
    if not endpoint and not otlp_endpoint_configured(environ):
        return False
    # imported here: a process without an endpoint never loads the SDK or the exporter
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor

    env = os.environ if environ is None else environ
    name = env.get("OTEL_SERVICE_NAME") or service_name
    provider = TracerProvider(resource=Resource.create({"service.name": name}))
    # without ``endpoint`` the exporter reads it (and headers, timeout) from the OTEL_* variables
    exporter = OTLPSpanExporter(endpoint=f"{endpoint.rstrip('/')}/v1/traces" if endpoint else None)
    provider.add_span_processor(BatchSpanProcessor(exporter))
    trace.set_tracer_provider(provider)
    _state.provider = provider
    log.info("tracing on: spans of %s go to the OTLP endpoint", name)
    return True


def flush_tracing(timeout_ms: int = 5_000) -> None:
    """Send the spans still buffered (at shutdown); the provider itself stays for the process."""
    if _state.provider is not None:
        _state.provider.force_flush(timeout_ms)


@contextmanager
def start_span(
    name: str,
    attributes: Mapping[str, AttributeValue] | None = None,
    *,
    kind: SpanKind = SpanKind.INTERNAL,
    parent: otel_context.Context | None = None,
    current: bool = True,
) -> Iterator[Span | None]:
    """A span around the block, or ``None`` when tracing is off. ``current``: spans started inside
    the block are its children (a leaf span passes False: cheaper, nothing to attach). An
    exception escaping the block marks the span as an error."""
    if not _state.enabled:
        yield None
        return
    if current:
        with _tracer.start_as_current_span(name, context=parent, kind=kind, attributes=attributes) as span:
            yield span
        return
    leaf = _tracer.start_span(name, context=parent, kind=kind, attributes=attributes)
    try:
        yield leaf
    except BaseException as exc:
        leaf.record_exception(exc)
        leaf.set_status(Status(StatusCode.ERROR, type(exc).__name__))
        raise
    finally:
        leaf.end()


def mark_error(span: Span | None, description: str) -> None:
    if span is not None:
        span.set_status(Status(StatusCode.ERROR, description))


def inject_trace_context(headers: dict[str, str]) -> None:
    """Add ``traceparent`` (W3C) for the current span to outgoing ``headers``."""
    if _state.enabled:
        inject(headers)


def extract_trace_context(headers: Mapping[str, str]) -> otel_context.Context | None:
    """The caller's trace context from incoming ``headers`` (None when tracing is off)."""
    if not _state.enabled:
        return None
    return extract(headers)


def current_trace_id() -> str | None:
    """The current span's trace id (32 hex digits), or None outside a recorded span."""
    if not _state.enabled:
        return None
    context = trace.get_current_span().get_span_context()
    return f"{context.trace_id:032x}" if context.is_valid else None


def tool_call_attributes(intent: ExecutionIntent) -> dict[str, AttributeValue]:
    """An ``execute_tool`` span's attributes for one domain call (an ``ExecutionIntent``).

    >>> from shared.models import ExecutionIntent
    >>> call = ExecutionIntent(domain="finance", capability="get_quote", context={"session_id": "s1"})
    >>> attributes = tool_call_attributes(call)
    >>> attributes["gen_ai.tool.name"], attributes["gen_ai.conversation.id"]
    ('get_quote', 's1')
    """
    context = intent.context
    attributes: dict[str, AttributeValue] = {
        OPERATION: "execute_tool",
        TOOL_NAME: intent.capability,
        "gen_ai.tool.type": "extension",
        "orchestrator.domain": intent.domain,
    }
    if context.get("session_id"):
        attributes[CONVERSATION] = str(context["session_id"])
    if context.get("run_id"):
        attributes["run.id"] = str(context["run_id"])
    return attributes
