"""The HTTP face of a :class:`~sdk.service.DomainService`: ``/health``, ``/metrics``,
``/manifest``, lookup tables, the agent card and ``/execute`` (signature checked, body validated
in one pydantic pass, repeated ``Idempotency-Key`` answered from the durable store), and
:func:`serve`, the ``python -m domains.<name>`` entry point."""

from __future__ import annotations

import argparse
import gc
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from pydantic import SecretStr, ValidationError

from sdk.answers import error_body
from sdk.idempotency import MAX_KEY_LENGTH, IdempotencyStoreUnavailable
from shared.manifest import LOOKUP_TABLE, DomainManifest, LookupEntry
from shared.models import ExecutionIntent
from shared.settings import ServiceSettings
from shared.signing import SIGNATURE_HEADER, SignatureInvalid, verify
from shared.telemetry.asgi import NO_FASTAPI_SPANS, RequestTelemetry
from shared.telemetry.logs import setup_logging
from shared.telemetry.metrics import render as render_metrics
from shared.telemetry.tracing import flush_tracing, setup_tracing

if TYPE_CHECKING:
    from sdk.service import DomainService

log = logging.getLogger(__name__)

Lifespan = Callable[[FastAPI], AbstractAsyncContextManager[None]]
IDEMPOTENCY_HEADER = "Idempotency-Key"


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


def build_app(service: DomainService, lifespan: Lifespan | None = None) -> FastAPI:
    manifest = service.manifest()  # validate at start: a bad manifest never serves

    @asynccontextmanager
    async def _lifespan(app: FastAPI) -> AsyncIterator[None]:
        # spans continue the gateway's trace when OTEL_EXPORTER_OTLP_ENDPOINT is set
        setup_tracing(f"domain-{service.domain}")
        await service.open_idempotency()
        try:
            if lifespan is None:
                yield
            else:
                async with lifespan(app):
                    yield
        finally:
            await service.idempotency.close()
            flush_tracing()

    # server spans come from RequestTelemetry (on any FastAPI), not also from FastAPI's own
    app = FastAPI(
        title=f"{service.domain} domain",
        version=service.version,
        lifespan=_lifespan,
        telemetry=NO_FASTAPI_SPANS,
    )
    app.state.service = service
    app.add_middleware(RequestTelemetry, service=service.domain)
    _add_error_handlers(app, service)
    _add_info_routes(app, service, manifest)
    _add_execute_route(app, service, DomainSigningSettings().signing_secret_bytes())
    return app


def _add_error_handlers(app: FastAPI, service: DomainService) -> None:
    """A bad body and a crash answer in the platform's error shape (no stack trace to the caller)."""

    @app.exception_handler(RequestValidationError)
    async def _invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {"loc": (), "msg": "invalid body"}
        param = ".".join(str(p) for p in first["loc"] if p != "body") or None
        return JSONResponse(error_body(f"{param}: {first['msg']}", "invalid_request", param), 422)

    @app.exception_handler(Exception)
    async def _crash(_: Request, exc: Exception) -> JSONResponse:
        log.exception("domain %s failed", service.domain)
        return JSONResponse(error_body("internal error in domain", "domain_error", None, "server_error"), 500)


def _add_info_routes(app: FastAPI, service: DomainService, manifest: DomainManifest) -> None:
    """What a domain says about itself: health, metrics, manifest, lookup tables, agent card."""
    started = time.monotonic()

    # response_model=None: the answers are already plain JSON; a response model per route costs
    # start-up CPU (FastAPI loads pydantic.v1 to build the first one) and a pass per answer
    @app.get("/health", response_model=None)
    async def health() -> dict[str, Any]:
        return {
            "status": "ok",
            "domain": service.domain,
            "version": service.version,
            "uptime_s": round(time.monotonic() - started, 3),
        }

    @app.get("/metrics", include_in_schema=False)
    async def metrics() -> Response:
        body, content_type = render_metrics()
        return Response(body, media_type=content_type)

    @app.get("/manifest", response_model=None)
    async def get_manifest() -> dict[str, Any]:
        return manifest.model_dump(mode="json", exclude_none=True)

    for path, entries in service.lookups().items():
        app.add_api_route(path, _lookup_route(entries), methods=["GET"], include_in_schema=False)

    @app.get("/.well-known/agent-card.json", response_model=None)
    async def agent_card(request: Request) -> dict[str, Any]:
        # imported here: the A2A SDK costs a second at start, and few callers read the card
        from shared.agent_card import card_json, domain_card

        return card_json(domain_card(manifest, str(request.base_url)))


def _refused_call(
    secret: bytes | None, body: bytes, request: Request, key: str | None
) -> JSONResponse | None:
    """The answer to a call that must not run (a bad signature, an over-long key), else None."""
    if secret is not None:  # only calls signed by this domain's gateway run anything
        try:
            # the key is signed too: a captured body replayed under another key is refused
            verify(secret, body, request.headers.get(SIGNATURE_HEADER), idempotency_key=key or "")
        except SignatureInvalid as exc:
            return JSONResponse(error_body(str(exc), "invalid_signature", None, "authentication_error"), 401)
    if key is not None and len(key) > MAX_KEY_LENGTH:
        message = f"{IDEMPOTENCY_HEADER} is longer than {MAX_KEY_LENGTH} characters"
        return JSONResponse(error_body(message, "invalid_idempotency_key", IDEMPOTENCY_HEADER), 400)
    return None


def _add_execute_route(app: FastAPI, service: DomainService, secret: bytes | None) -> None:
    """``POST /execute``: one signed, idempotent call of a capability."""

    @app.post("/execute")
    async def execute(request: Request) -> Response:
        body = await request.body()
        key = request.headers.get(IDEMPOTENCY_HEADER) or None
        refused = _refused_call(secret, body, request, key)
        if refused is not None:
            return refused
        try:
            # parsed and validated in one pass by pydantic, no dict in between
            intent = ExecutionIntent.model_validate_json(body)
        except ValidationError as exc:
            first = exc.errors()[0]
            if first["type"] == "json_invalid":
                return JSONResponse(error_body("body is not valid JSON", "invalid_json"), 400)
            param = ".".join(str(p) for p in first["loc"]) or None
            return JSONResponse(error_body(f"{param}: {first['msg']}", "invalid_request", param), 422)
        try:
            output = await service.execute(intent, key)
        except IdempotencyStoreUnavailable:
            log.exception("domain %s cannot reach its idempotency store", service.domain)
            message = "the domain cannot record this call right now; send it again later with the same key"
            return JSONResponse(error_body(message, "store_unavailable", None, "server_error"), 503)
        return Response(output.model_dump_json(), media_type="application/json")


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
    service.served = True  # the domain's own process: its idempotency keys outlive it
    app = app or service.app()
    # what the start built lives as long as the process: frozen, later collections skip it (a
    # domain's __main__ turns collection off for the start, which makes almost no garbage)
    gc.freeze()
    gc.enable()
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        log_level=args.log_level.lower(),
        log_config=None,  # the JSON (or LOG_FORMAT=text) lines of setup_logging, secrets masked
    )
