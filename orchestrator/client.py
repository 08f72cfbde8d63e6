"""HTTP client for domain services (``/manifest``, ``/health``, ``/execute``).

httpx's exceptions are translated into the platform's (``DomainUnavailable``,
``DomainProtocolError``) in exactly one place, :func:`map_httpx_exceptions`, the way httpx itself
maps httpcore's: nothing above this module ever sees an httpx exception.

:func:`domain_http_client` builds the client to give :class:`DomainClient`: a
:class:`DomainHttpClient`, httpx's API on the aiohttp transport (:mod:`orchestrator.transport`),
several times cheaper per request than httpx's own, plus a path for ``/execute`` that skips
httpx's Request/Response objects. A fan-out of concurrent calls waits on exactly that CPU.
Any other ``httpx.AsyncClient`` works too (tests plug in-process transports in).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from http.cookiejar import CookieJar, DefaultCookiePolicy
from typing import Any

import httpx
from pydantic import ValidationError

from orchestrator.transport import AiohttpTransport
from shared.errors import DomainProtocolError, DomainUnavailable
from shared.manifest import DomainManifest, validate_manifest
from shared.models import DomainOutput, ExecutionIntent

#: HTTP statuses that mean "the service is not able to answer right now" rather than "wrong call".
_UNAVAILABLE_STATUSES = frozenset({502, 503, 504})
#: The body is serialized here (pydantic, straight to JSON bytes): say what it is.
_JSON = "application/json"


class DomainHttpClient(httpx.AsyncClient):
    """An ``httpx.AsyncClient`` on :class:`AiohttpTransport` that can also POST bytes and get
    ``(status, body)`` back without httpx's Request/Response objects (:meth:`post_bytes`), the
    cheapest path per call (bench/results/gateway.md).
    Differences from ``post``, all deliberate for calls between our own services:

    * no cookies, on either path: one client serves every person's calls, so nothing a domain
      sets may be sent back on someone else's behalf;
    * no proxy from the environment (``trust_env=False``): domains are internal services;
    * ``Accept-Encoding: identity`` on the lean path, whose body is not decoded.

    With ``auth`` or event hooks set (which only httpx's request path runs), ``post_bytes`` takes
    that path."""

    def __init__(self, timeout: httpx.Timeout | float, limits: httpx.Limits | None) -> None:
        self._aiohttp = AiohttpTransport(limits=limits)
        super().__init__(
            timeout=timeout,
            transport=self._aiohttp,
            cookies=CookieJar(DefaultCookiePolicy(allowed_domains=[])),  # a jar that stores none
            trust_env=False,
        )

    async def post_bytes(
        self,
        url: str,
        content: bytes,
        headers: dict[str, str],
        timeout: float | None = None,  # noqa: ASYNC109 (per-request httpx timeout, as post's)
    ) -> tuple[int, bytes]:
        """POST ``content``; ``(status, body)``. Raises what ``post`` raises (httpx exceptions)."""
        if self.auth is not None or any(self.event_hooks.values()):
            response = await self.post(
                url,
                content=content,
                headers=headers,
                timeout=timeout if timeout is not None else httpx.USE_CLIENT_DEFAULT,
            )
            return response.status_code, response.content
        # the client's default headers (names in lower case, as httpx.Headers gives them), then ours
        merged = dict(self.headers.items())
        merged["accept-encoding"] = "identity"
        merged.update((k.lower(), v) for k, v in headers.items())
        limits = self.timeout if timeout is None else httpx.Timeout(timeout)
        return await self._aiohttp.post_bytes(url, content, list(merged.items()), limits)


def domain_http_client(
    timeout: httpx.Timeout | float = 10.0,
    limits: httpx.Limits | None = None,
) -> DomainHttpClient:
    """The HTTP client for :class:`DomainClient`: keep-alive connections up to
    ``limits.max_connections`` (size it above the largest fan-out, or calls queue for a
    connection), ``timeout`` as the default for calls that pass none."""
    return DomainHttpClient(timeout, limits)


@contextmanager
def map_httpx_exceptions(url: str) -> Iterator[None]:
    """Translate transport errors and malformed answers from ``url`` into platform errors with a
    plain, one-line message (never a stack trace). Errors raised before the request could reach
    the domain carry ``details={"delivered": False}`` (safe to retry even when not idempotent)."""
    try:
        yield
    except httpx.ConnectTimeout:
        # the connection was never made: the domain cannot have seen the request
        raise DomainUnavailable(f"could not connect to {url} in time", details={"delivered": False}) from None
    except httpx.TimeoutException as exc:
        raise DomainUnavailable(f"{url} did not answer in time ({type(exc).__name__})") from None
    except httpx.ConnectError:
        raise DomainUnavailable(f"could not connect to {url}", details={"delivered": False}) from None
    except httpx.TransportError as exc:
        raise DomainUnavailable(f"connection to {url} failed ({type(exc).__name__})") from None
    except httpx.HTTPStatusError as exc:
        status = exc.response.status_code
        message = f"{url} answered HTTP {status}{_error_message(exc.response)}"
        if status in _UNAVAILABLE_STATUSES:
            raise DomainUnavailable(message) from None
        raise DomainProtocolError(message) from None
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise DomainProtocolError(f"{url} answered with a body that is not JSON") from None
    except ValidationError as exc:
        first = exc.errors()[0]
        if first["type"] == "json_invalid":  # model_validate_json parses and validates in one go
            raise DomainProtocolError(f"{url} answered with a body that is not JSON") from None
        where = ".".join(str(p) for p in first["loc"]) or "$"
        raise DomainProtocolError(
            f"{url} answered with an invalid body: {where}: {first['msg']}", param=where
        ) from None


def _error_message(response: httpx.Response) -> str:
    """The ``{"error": {"message": ...}}`` a domain (built with the SDK) puts in its error bodies."""
    try:
        body = response.json()
    except ValueError:
        return ""
    if isinstance(body, dict) and isinstance(body.get("error"), dict):
        message = body["error"].get("message")
        if isinstance(message, str) and message:
            return f": {message[:300]}"
    return ""


class DomainClient:
    def __init__(self, http: httpx.AsyncClient):
        self.http = http

    async def manifest(self, base_url: str) -> DomainManifest:
        """Fetch and validate ``/manifest``; an invalid one raises ``shared.manifest.ManifestInvalid``
        (field paths in ``errors``)."""
        return validate_manifest(await self._get_json(base_url, "/manifest"))

    async def health(self, base_url: str) -> dict[str, Any]:
        body = await self._get_json(base_url, "/health")
        if not isinstance(body, dict):
            raise DomainProtocolError(f"{_join(base_url, '/health')} answered with a non-object body")
        return body

    async def execute(
        self,
        base_url: str,
        intent: ExecutionIntent,
        idempotency_key: str,
        timeout: float | None = None,  # noqa: ASYNC109 (per-request httpx timeout, the contract)
    ) -> DomainOutput:
        url = _join(base_url, "/execute")
        # pydantic writes and reads the JSON itself: no dict in between, one pass each way
        content = intent.model_dump_json().encode()
        headers = {"Content-Type": _JSON, "Idempotency-Key": idempotency_key}
        with map_httpx_exceptions(url):
            if isinstance(self.http, DomainHttpClient):  # the hot path: no httpx objects
                status, body = await self.http.post_bytes(url, content, headers, timeout)
                if not 200 <= status < 300:  # rare: let httpx word the error as below
                    httpx.Response(
                        status, content=body, request=httpx.Request("POST", url)
                    ).raise_for_status()
            else:
                response = await self.http.post(
                    url,
                    content=content,
                    headers=headers,
                    timeout=timeout if timeout is not None else httpx.USE_CLIENT_DEFAULT,
                )
                response.raise_for_status()
                body = response.content
            return DomainOutput.model_validate_json(body)

    async def _get_json(self, base_url: str, path: str) -> Any:
        url = _join(base_url, path)
        with map_httpx_exceptions(url):
            response = await self.http.get(url)
            response.raise_for_status()
            return json.loads(response.content)


def _join(base_url: str, path: str) -> str:
    return base_url.rstrip("/") + path
