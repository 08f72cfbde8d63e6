"""A small SDK for domain services: declare capabilities and goals in Python, get
``/health``, ``/manifest`` and ``/execute`` for free, and answer with :func:`clarify` and
:func:`fail` so the core gets the typed ``clarification`` / ``failure`` fields.

>>> from shared.models import DomainOutput, ExecutionIntent
>>> svc = DomainService("echo", "1.0", "Repeats what it is told")
>>> @svc.capability("echo", "Repeat the text", role="fallback")
... def echo(intent: ExecutionIntent) -> DomainOutput:
...     text = intent.parameters.get("text", "")
...     if not text:
...         return fail("Nothing to repeat.", "missing_parameter")
...     return DomainOutput(status="success", explanation=text)
>>> svc.add_goal({"goal": "ECHO", "description": "repeat text", "capabilities": ["echo"]})
>>> svc.manifest().capabilities[0].name
'echo'
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import logging
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from pydantic import SecretStr, ValidationError

from shared.manifest import LOOKUP_TABLE, DomainManifest, Goal, LocalizedText, LookupEntry, validate_manifest
from shared.models import (
    Clarification,
    ClarificationOption,
    ContinueWith,
    DomainOutput,
    ExecutionIntent,
    Failure,
)
from shared.settings import ServiceSettings
from shared.signing import SIGNATURE_HEADER, SignatureInvalid, verify
from shared.telemetry.asgi import NO_FASTAPI_SPANS, RequestTelemetry
from shared.telemetry.logs import setup_logging
from shared.telemetry.metrics import render as render_metrics
from shared.telemetry.tracing import flush_tracing, setup_tracing

log = logging.getLogger(__name__)

Handler = Callable[[ExecutionIntent], DomainOutput | Awaitable[DomainOutput]]
Lifespan = Callable[[FastAPI], AbstractAsyncContextManager[None]]


def error_body(
    message: str, code: str, param: str | None = None, type_: str = "invalid_request_error"
) -> dict[str, Any]:
    """The body of an HTTP error answer, in the OpenAI error shape the gateway also uses."""
    return {"error": {"message": message, "type": type_, "param": param, "code": code}}


# ------------------------------------------------------------------ answers


def option(value: Any, label: str = "", *, aliases: Iterable[str] = (), **data: Any) -> ClarificationOption:
    """One answer the person may pick: ``value`` fills the clarification's ``param``, ``aliases``
    are other words a reply may name it by, ``data`` the domain's own fields about it.

    >>> option("NDA-FI.HE", "Nordea — Helsinki", aliases=["Helsinki"], currency="EUR").model_dump()
    {'value': 'NDA-FI.HE', 'label': 'Nordea — Helsinki', 'aliases': ['Helsinki'], 'data': {'currency': 'EUR'}}
    """
    return ClarificationOption(value=value, label=label, aliases=list(aliases), data=data)


def clarify(
    question: str,
    options: Iterable[ClarificationOption] = (),
    *,
    param: str | None = None,
    continue_with: str | ContinueWith | None = None,
    result: Mapping[str, Any] | None = None,
    metadata: Mapping[str, Any] | None = None,
    confidence: float = 1.0,
) -> DomainOutput:
    """Ask the person: pick one of ``options`` (the step runs again with ``param`` = the picked
    value), or keep talking (the next message goes to ``continue_with``, a capability name or a
    :class:`ContinueWith`). ``question`` is also the answer's ``explanation``.

    >>> out = clarify("Which Nordea?", [option("NDA-SE.ST", "Stockholm"), option("NDA-FI.HE", "Helsinki")],
    ...               param="symbol")
    >>> out.status, out.clarification.param, [o.value for o in out.clarification.options]
    ('clarification', 'symbol', ['NDA-SE.ST', 'NDA-FI.HE'])
    >>> clarify("And then?", continue_with="chat_reply").clarification.continue_with
    ContinueWith(capability='chat_reply', param='reply')

    Options nobody can pick are a mistake, caught here rather than ignored by the core:

    >>> clarify("Which one?", [option("a"), option("b")])
    Traceback (most recent call last):
    ...
    ValueError: options need the param their value fills (or a continue_with)
    """
    listed = list(options)
    if listed and param is None and continue_with is None:
        raise ValueError("options need the param their value fills (or a continue_with)")
    target = ContinueWith(capability=continue_with) if isinstance(continue_with, str) else continue_with
    return DomainOutput(
        status="clarification",
        explanation=question,
        result=dict(result or {}),
        confidence=confidence,
        clarification=Clarification(question=question, options=listed, param=param, continue_with=target),
        metadata=dict(metadata or {}),
    )


def fail(
    explanation: str,
    reason: str,
    *,
    recoverable: bool = False,
    suggestions: Iterable[Mapping[str, Any]] | None = None,
    result: Mapping[str, Any] | None = None,
    metadata: Mapping[str, Any] | None = None,
) -> DomainOutput:
    """Say why it could not be done: ``reason`` is a stable code, ``recoverable`` tells the core
    that other parameters may succeed, ``suggestions`` are parameter patches worth retrying with.

    >>> out = fail("No 'Aple'.", "symbol_not_found", recoverable=True, suggestions=[{"symbol": "AAPL"}])
    >>> out.status, out.failure.reason, out.recoverable, out.failure.suggestions
    ('failure', 'symbol_not_found', True, [{'symbol': 'AAPL'}])
    >>> fail("No chat configured.", "missing_chat_id").recoverable
    False
    """
    return DomainOutput(
        status="failure",
        explanation=explanation,
        result=dict(result or {}),
        failure=Failure(
            reason=reason,
            recoverable=recoverable,
            suggestions=[dict(s) for s in suggestions or ()],
        ),
        metadata=dict(metadata or {}),
    )


class IdempotencyCache:
    """Remembers the first result for each ``Idempotency-Key`` so a repeated call (a retry, a
    duplicate delivery) returns it instead of running the capability again. Concurrent calls with
    the same key wait for the first one."""

    def __init__(self, max_entries: int = 10_000):
        self._max = max_entries
        self._entries: OrderedDict[str, asyncio.Future[DomainOutput]] = OrderedDict()

    async def run(
        self, key: str | None, call: Callable[[], Awaitable[DomainOutput]]
    ) -> tuple[DomainOutput, bool]:
        """Return ``(output, replayed)``."""
        if not key:
            return await call(), False
        existing = self._entries.get(key)
        if existing is not None:
            return await asyncio.shield(existing), True
        future: asyncio.Future[DomainOutput] = asyncio.get_running_loop().create_future()
        self._entries[key] = future
        while len(self._entries) > self._max:
            self._entries.popitem(last=False)
        try:
            output = await call()
        except BaseException as exc:
            # a failure is not remembered: the caller may retry with the same key
            self._entries.pop(key, None)
            future.set_exception(exc)
            future.exception()  # mark retrieved
            raise
        future.set_result(output)
        return output, False


class DomainService:
    def __init__(
        self, domain: str, version: str, description: LocalizedText, *, confidence_gate: bool = True
    ):
        self.domain = domain
        self.version = version
        self.description = description
        self.confidence_gate = confidence_gate
        self._capabilities: list[dict[str, Any]] = []
        self._handlers: dict[str, Handler] = {}
        self._goals: list[dict[str, Any]] = []
        self._manifest: DomainManifest | None = None
        #: path -> the lookup table served there (an entity's ``lookup_path``)
        self._lookups: dict[str, Callable[[], list[LookupEntry]]] = {}
        self.idempotency = IdempotencyCache()
        #: how many times each capability actually ran (replays excluded), for ops and benchmarks
        self.executions: dict[str, int] = {}

    # -------------------------------------------------------------- declaring

    def capability(
        self,
        name: str,
        description: LocalizedText,
        *,
        parameters: dict[str, Any] | None = None,
        output_schema: dict[str, Any] | None = None,
        role: str | None = None,
        metadata: dict[str, Any] | None = None,
    ) -> Callable[[Handler], Handler]:
        def register(handler: Handler) -> Handler:
            self._capabilities.append(
                {
                    "name": name,
                    "description": description,
                    "parameters": parameters or {"type": "object"},
                    "output_schema": output_schema,
                    "role": role,
                    "metadata": metadata or {},
                }
            )
            self._handlers[name] = handler
            self._manifest = None
            return handler

        return register

    def add_goal(self, goal: dict[str, Any] | Goal) -> None:
        self._goals.append(goal.model_dump(exclude_none=True) if isinstance(goal, Goal) else goal)
        self._manifest = None

    def lookup(self, path: str, entries: Callable[[], list[LookupEntry]]) -> None:
        """Serve ``entries()`` (read on every request: the table may change) at ``GET path``, the
        ``lookup_path`` of an entity whose values are too many or too changing for the manifest."""
        self._lookups[path] = entries

    def manifest_with_lookups(self) -> DomainManifest:
        """The manifest as a gateway sees it once fetched: each ``lookup_path``'s table in its
        entity's ``lookup`` (for in-process use: benchmarks and tests without HTTP)."""
        manifest = self.manifest().model_copy(deep=True)
        for goal in manifest.goals:
            for spec in goal.entities_schema.values():
                if spec.lookup_path in self._lookups and spec.lookup is None:
                    spec.lookup = self._lookups[spec.lookup_path]()
        return manifest

    def manifest(self) -> DomainManifest:
        if self._manifest is None:
            raw = {
                "domain": self.domain,
                "version": self.version,
                "description": self.description,
                "confidence_gate": self.confidence_gate,
                "capabilities": [{k: v for k, v in c.items() if v is not None} for c in self._capabilities],
                "goals": self._goals,
            }
            self._manifest = validate_manifest(raw)
        return self._manifest

    # -------------------------------------------------------------- running

    async def execute(self, intent: ExecutionIntent, idempotency_key: str | None = None) -> DomainOutput:
        handler = self._handlers.get(intent.capability)
        if handler is None:
            return fail(
                f"The {self.domain} domain has no capability '{intent.capability}'.", "unknown_capability"
            )

        async def call() -> DomainOutput:
            self.executions[intent.capability] = self.executions.get(intent.capability, 0) + 1
            result = handler(intent)
            if inspect.isawaitable(result):
                result = await result
            assert isinstance(result, DomainOutput), f"{intent.capability} must return DomainOutput"
            return result

        output, replayed = await self.idempotency.run(idempotency_key, call)
        if replayed:
            output = output.model_copy(update={"metadata": {**output.metadata, "idempotent_replay": True}})
        return output

    def app(self, lifespan: Lifespan | None = None) -> FastAPI:
        manifest = self.manifest()  # validate at start: a bad manifest never serves

        @asynccontextmanager
        async def _lifespan(app: FastAPI) -> AsyncIterator[None]:
            # spans continue the gateway's trace when OTEL_EXPORTER_OTLP_ENDPOINT is set
            setup_tracing(f"domain-{self.domain}")
            try:
                if lifespan is None:
                    yield
                else:
                    async with lifespan(app):
                        yield
            finally:
                flush_tracing()

        # server spans come from RequestTelemetry (on any FastAPI), not also from FastAPI's own
        app = FastAPI(
            title=f"{self.domain} domain",
            version=self.version,
            lifespan=_lifespan,
            telemetry=NO_FASTAPI_SPANS,
        )
        app.state.service = self
        app.add_middleware(RequestTelemetry, service=self.domain)
        started = time.monotonic()

        @app.exception_handler(RequestValidationError)
        async def _invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
            first = exc.errors()[0] if exc.errors() else {"loc": (), "msg": "invalid body"}
            param = ".".join(str(p) for p in first["loc"] if p != "body") or None
            return JSONResponse(error_body(f"{param}: {first['msg']}", "invalid_request", param), 422)

        @app.exception_handler(Exception)
        async def _crash(_: Request, exc: Exception) -> JSONResponse:
            log.exception("domain %s failed", self.domain)
            return JSONResponse(
                error_body("internal error in domain", "domain_error", None, "server_error"), 500
            )

        @app.get("/health")
        async def health() -> dict[str, Any]:
            return {
                "status": "ok",
                "domain": self.domain,
                "version": self.version,
                "uptime_s": round(time.monotonic() - started, 3),
            }

        @app.get("/metrics", include_in_schema=False)
        async def metrics() -> Response:
            body, content_type = render_metrics()
            return Response(body, media_type=content_type)

        @app.get("/manifest")
        async def get_manifest() -> dict[str, Any]:
            return manifest.model_dump(mode="json", exclude_none=True)

        for path, entries in self._lookups.items():
            app.add_api_route(path, _lookup_route(entries), methods=["GET"], include_in_schema=False)

        @app.get("/.well-known/agent-card.json")
        async def agent_card(request: Request) -> dict[str, Any]:
            # imported here: the A2A SDK costs a second at start, and few callers read the card
            from shared.agent_card import card_json, domain_card

            return card_json(domain_card(manifest, str(request.base_url)))

        secret = DomainSigningSettings().signing_secret_bytes()

        @app.post("/execute")
        async def execute(request: Request) -> Response:
            body = await request.body()
            if secret is not None:  # only calls signed by this domain's gateway run anything
                try:
                    verify(secret, body, request.headers.get(SIGNATURE_HEADER))
                except SignatureInvalid as exc:
                    return JSONResponse(
                        error_body(str(exc), "invalid_signature", None, "authentication_error"), 401
                    )
            try:
                # parsed and validated in one pass by pydantic, no dict in between
                intent = ExecutionIntent.model_validate_json(body)
            except ValidationError as exc:
                first = exc.errors()[0]
                if first["type"] == "json_invalid":
                    return JSONResponse(error_body("body is not valid JSON", "invalid_json"), 400)
                param = ".".join(str(p) for p in first["loc"]) or None
                return JSONResponse(error_body(f"{param}: {first['msg']}", "invalid_request", param), 422)
            output = await self.execute(intent, request.headers.get("idempotency-key"))
            return Response(output.model_dump_json(), media_type="application/json")

        return app


class DomainSigningSettings(ServiceSettings):
    """``DOMAIN_SIGNING_SECRET``: when set, ``/execute`` refuses (401) calls without a valid
    :mod:`shared.signing` signature made with it (the gateway's ``DOMAIN_SECRETS`` entry)."""

    domain_signing_secret: SecretStr | None = None

    def signing_secret_bytes(self) -> bytes | None:
        if self.domain_signing_secret is None or not self.domain_signing_secret.get_secret_value():
            return None
        return self.domain_signing_secret.get_secret_value().encode()


class DomainProcessSettings(ServiceSettings):
    """Where ``python -m domains.<name>`` listens: ``DOMAIN_HOST``, ``DOMAIN_PORT``, ``LOG_LEVEL``
    (the command line's ``--host``/``--port``/``--log-level`` win)."""

    domain_host: str = "127.0.0.1"
    #: Unset: the ``default_port`` the domain's entry point passes to :func:`serve`.
    domain_port: int | None = None
    # uvicorn's info level logs every request: a domain process stays quiet unless asked
    log_level: str = "warning"


def _lookup_route(entries: Callable[[], list[LookupEntry]]) -> Callable[[], Awaitable[Response]]:
    async def lookup_table() -> Response:
        body = LOOKUP_TABLE.dump_json(entries(), exclude_defaults=True)
        return Response(body, media_type="application/json")

    return lookup_table


def serve(service: DomainService, app: FastAPI | None = None, *, default_port: int = 0) -> None:
    """Command-line entry for ``python -m domains.<name> --host H --port P``."""
    import uvicorn

    settings = DomainProcessSettings()
    parser = argparse.ArgumentParser(description=f"Run the {service.domain} domain service")
    parser.add_argument("--host", default=settings.domain_host)
    parser.add_argument(
        "--port", type=int, default=default_port if settings.domain_port is None else settings.domain_port
    )
    parser.add_argument("--log-level", default=settings.log_level)
    args = parser.parse_args()
    setup_logging(args.log_level)
    uvicorn.run(
        app or service.app(),
        host=args.host,
        port=args.port,
        log_level=args.log_level.lower(),
        log_config=None,  # the JSON (or LOG_FORMAT=text) lines of setup_logging, secrets masked
    )
