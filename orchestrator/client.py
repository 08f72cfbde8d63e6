"""The client for domain services: manifest, health and execute through one
:class:`~orchestrator.domain_transport.DomainTransport` per :class:`DomainKind` (plain HTTP
``/manifest``, ``/health``, ``/execute``; an MCP server; a remote A2A agent).

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
from collections import OrderedDict
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from http.cookiejar import CookieJar, DefaultCookiePolicy

import httpx
from opentelemetry.trace import SpanKind
from pydantic import ValidationError

from orchestrator.a2a_domain import A2ADomains
from orchestrator.bounded_decoding import BoundedDecoder
from orchestrator.domain_transport import DomainKind, DomainTransport, HealthAnswer
from orchestrator.mcp_domain import McpDomains
from orchestrator.sanitize import clean_output
from orchestrator.transport import AiohttpTransport, AnswerTooLarge
from shared.errors import DomainProtocolError, DomainUnavailable
from shared.manifest import (
    DomainManifest,
    LookupEntry,
    ManifestInvalid,
    ManifestLimits,
    parse_lookup,
    parse_manifest,
)
from shared.models import DomainOutput, ExecutionIntent
from shared.signing import SIGNATURE_HEADER, sign
from shared.telemetry.tracing import inject_trace_context, start_span, tool_call_attributes

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

    def __init__(
        self,
        timeout: httpx.Timeout | float,
        limits: httpx.Limits | None,
        max_answer_bytes: int | None = None,
    ) -> None:
        self._aiohttp = AiohttpTransport(limits=limits, max_answer_bytes=max_answer_bytes)
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
    max_answer_bytes: int | None = None,
) -> DomainHttpClient:
    """The HTTP client for :class:`DomainClient`: keep-alive connections up to
    ``limits.max_connections`` (size it above the largest fan-out, or calls queue for a
    connection), ``timeout`` as the default for calls that pass none, no answer body read past
    ``max_answer_bytes``."""
    return DomainHttpClient(timeout, limits, max_answer_bytes)


@contextmanager
def map_httpx_exceptions(url: str) -> Iterator[None]:
    """Translate transport errors and malformed answers from ``url`` into platform errors with a
    plain, one-line message (never a stack trace). Errors raised before the request could reach
    the domain carry ``details={"delivered": False}`` (safe to retry even when not idempotent)."""
    try:
        yield
    except AnswerTooLarge as exc:
        raise DomainProtocolError(f"{url} answered with a body larger than {exc.limit} bytes") from None
    except httpx.InvalidURL:  # a host the client cannot encode: no request could be made
        raise DomainUnavailable(f"could not connect to {url}", details={"delivered": False}) from None
    except httpx.DecodingError as exc:  # an encoding refused or broken (orchestrator.bounded_decoding)
        raise DomainProtocolError(f"{url} answered with a body that cannot be decoded: {exc}") from None
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


#: Manifests remembered by the bytes they were read from (about one per registered domain).
LAST_MANIFESTS_KEPT = 256


class HttpDomainTransport:
    """:class:`DomainTransport` of a plain HTTP domain: ``GET /manifest``, ``GET /health``,
    ``POST /execute`` (the domain protocol of docs/domains.md).

    ``max_answer_bytes``: no answer body is read past it (the call fails instead);
    ``manifest_limits``: size, depth and counts a manifest must stay within;
    ``signing_secrets``: domain name -> secret; that domain's ``/execute`` calls carry a
    :mod:`shared.signing` signature."""

    def __init__(
        self,
        http: httpx.AsyncClient,
        *,
        max_answer_bytes: int | None,
        manifest_limits: ManifestLimits,
        signing_secrets: Mapping[str, bytes],
    ) -> None:
        self.http = http
        self.max_answer_bytes = max_answer_bytes
        self.manifest_limits = manifest_limits
        self.signing_secrets = dict(signing_secrets)
        #: manifest URL -> the bytes last read there and the manifest they gave (most recent last)
        self._last_manifests: OrderedDict[str, tuple[bytes, DomainManifest]] = OrderedDict()

    async def manifest(self, base_url: str, domain: str) -> DomainManifest:
        url = _join(base_url, "/manifest")
        raw = await self._get_document(url, self.manifest_limits.max_bytes, "$")
        if not raw.lstrip().startswith(b"{"):  # not a manifest at all: nothing of it is shown
            raise DomainProtocolError(f"{url} answered with a body that is not a JSON object")
        return await self._with_lookups(base_url, self._parsed(url, raw))

    def _parsed(self, url: str, raw: bytes) -> DomainManifest:
        """``raw`` validated, or a copy of the manifest these same bytes gave last time: every
        refresh reads every manifest again, and most never change, while validating one against
        the published schema costs several times a copy (the copy: lookups are filled in place)."""
        known = self._last_manifests.get(url)
        if known is not None and known[0] == raw:
            self._last_manifests.move_to_end(url)
            return known[1].model_copy(deep=True)
        manifest = parse_manifest(raw, self.manifest_limits)
        self._last_manifests[url] = (raw, manifest.model_copy(deep=True))
        while len(self._last_manifests) > LAST_MANIFESTS_KEPT:
            self._last_manifests.popitem(last=False)
        return manifest

    async def _get_document(self, url: str, cap: int, path: str) -> bytes:
        """``GET url`` read up to ``cap`` bytes; a larger answer is a :class:`ManifestInvalid`
        at the manifest's field ``path``."""
        with map_httpx_exceptions(url):
            try:
                return await self._get(url, cap)
            except AnswerTooLarge:
                raise ManifestInvalid([{"path": path, "message": f"larger than {cap} bytes"}]) from None

    async def _with_lookups(self, base_url: str, manifest: DomainManifest) -> DomainManifest:
        """``manifest`` with the lookup tables its entities name by ``lookup_path`` fetched into
        their ``lookup``, so everything downstream (intent, stored registrations, other gateways)
        reads one self-contained manifest."""
        limits = self.manifest_limits
        fetched: dict[str, list[LookupEntry]] = {}
        total_bytes = total_entries = 0
        for i, goal in enumerate(manifest.goals):
            for name, spec in goal.entities_schema.items():
                if spec.lookup_path is None or spec.lookup is not None:
                    continue
                if spec.lookup_path not in fetched:
                    where = f"goals.{i}.entities_schema.{name}"
                    # what is left of the manifest's budget bounds this read too
                    room = min(limits.max_lookup_bytes, limits.max_lookup_total_bytes - total_bytes)
                    raw = await self._get_document(_join(base_url, spec.lookup_path), room, f"{where}.lookup")
                    table = parse_lookup(raw, where, limits)
                    total_bytes += len(raw)
                    total_entries += len(table)
                    if total_entries > limits.max_lookup_total_entries:
                        raise ManifestInvalid(
                            [
                                {
                                    "path": f"{where}.lookup",
                                    "message": "the manifest's lookup tables have more than "
                                    f"{limits.max_lookup_total_entries} entries together",
                                }
                            ]
                        )
                    fetched[spec.lookup_path] = table
                spec.lookup = fetched[spec.lookup_path]
        return manifest

    async def health(self, base_url: str) -> HealthAnswer:
        url = _join(base_url, "/health")
        with map_httpx_exceptions(url):
            body = json.loads(await self._get(url, self.max_answer_bytes))
        if not isinstance(body, dict):
            raise DomainProtocolError(f"{url} answered with a non-object body")
        return body

    async def execute(
        self,
        base_url: str,
        intent: ExecutionIntent,
        idempotency_key: str,
        timeout: float | None,  # noqa: ASYNC109 (per-request httpx timeout, the contract)
    ) -> DomainOutput:
        url = _join(base_url, "/execute")
        # pydantic writes and reads the JSON itself: no dict in between, one pass each way
        content = intent.model_dump_json().encode()
        headers = {"Content-Type": _JSON, "Idempotency-Key": idempotency_key}
        inject_trace_context(headers)
        secret = self.signing_secrets.get(intent.domain)
        if secret is not None:
            headers[SIGNATURE_HEADER] = sign(secret, content, idempotency_key=idempotency_key)
        with map_httpx_exceptions(url):
            if isinstance(self.http, DomainHttpClient):  # the hot path: no httpx objects
                status, body = await self.http.post_bytes(url, content, headers, timeout)
            else:
                request = self.http.build_request(
                    "POST",
                    url,
                    content=content,
                    headers=headers,
                    timeout=timeout if timeout is not None else httpx.USE_CLIENT_DEFAULT,
                )
                status, body = await self._send_capped(request, self.max_answer_bytes)
            if not 200 <= status < 300:  # rare: let httpx word the error
                httpx.Response(status, content=body, request=httpx.Request("POST", url)).raise_for_status()
            # the texts a person will read, without control or bidi-override characters
            return clean_output(DomainOutput.model_validate_json(body))

    async def _get(self, url: str, cap: int | None) -> bytes:
        status, body = await self._send_capped(self.http.build_request("GET", url), cap)
        if not 200 <= status < 300:
            httpx.Response(status, content=body, request=httpx.Request("GET", url)).raise_for_status()
        return body

    async def _send_capped(self, request: httpx.Request, cap: int | None) -> tuple[int, bytes]:
        """Send and read the body in chunks, decoded per its ``Content-Encoding`` within ``cap``
        decoded bytes (``AnswerTooLarge`` past it): a small compressed body must not inflate
        past the cap before it is counted."""
        response = await self.http.send(request, stream=True)
        try:
            decoder = BoundedDecoder(response.headers.get("content-encoding"), cap)
            if response.is_stream_consumed:
                # a transport that hands over a body already read (the aiohttp one, which decoded
                # it within its own cap and dropped Content-Encoding): counted against ``cap`` too
                if len(response.content) > decoder.limit:
                    raise AnswerTooLarge(decoder.limit, request)
                return response.status_code, response.content
            chunks: list[bytes] = []
            try:
                async for chunk in response.aiter_raw():
                    chunks.append(decoder.feed(chunk))
                chunks.append(decoder.flush())
            except AnswerTooLarge:
                raise AnswerTooLarge(decoder.limit, request) from None
            return response.status_code, b"".join(chunks)
        finally:
            await response.aclose()


class McpTransport:
    """:class:`DomainTransport` of an MCP server (:mod:`orchestrator.mcp_domain`). MCP has no
    idempotency key: the capability's policy (from ``idempotentHint``) keeps retries safe."""

    def __init__(self, mcp: McpDomains, manifest_limits: ManifestLimits) -> None:
        self.mcp = mcp
        self.manifest_limits = manifest_limits

    async def manifest(self, base_url: str, domain: str) -> DomainManifest:
        return await self.mcp.manifest(base_url, domain, self.manifest_limits)

    async def health(self, base_url: str) -> HealthAnswer:
        return await self.mcp.health(base_url)

    async def execute(
        self,
        base_url: str,
        intent: ExecutionIntent,
        idempotency_key: str,
        timeout: float | None,  # noqa: ASYNC109 (the per-call timeout of the contract)
    ) -> DomainOutput:
        return clean_output(await self.mcp.execute(base_url, intent, timeout))


class A2ATransport:
    """:class:`DomainTransport` of a remote A2A agent (:mod:`orchestrator.a2a_domain`), on the
    domain HTTP client; its httpx errors are worded by :func:`map_httpx_exceptions`."""

    def __init__(self, a2a: A2ADomains, http: httpx.AsyncClient, manifest_limits: ManifestLimits) -> None:
        self.a2a = a2a
        self.http = http
        self.manifest_limits = manifest_limits

    async def manifest(self, base_url: str, domain: str) -> DomainManifest:
        with map_httpx_exceptions(base_url):
            return await self.a2a.manifest(self.http, base_url, domain, self.manifest_limits)

    async def health(self, base_url: str) -> HealthAnswer:
        with map_httpx_exceptions(base_url):
            return await self.a2a.health(self.http, base_url)

    async def execute(
        self,
        base_url: str,
        intent: ExecutionIntent,
        idempotency_key: str,
        timeout: float | None,  # noqa: ASYNC109 (the per-call timeout of the contract)
    ) -> DomainOutput:
        with map_httpx_exceptions(base_url):
            return clean_output(await self.a2a.execute(self.http, base_url, intent, timeout, idempotency_key))


class DomainClient:
    """Calls a domain's manifest, health and execute through the transport of its
    :class:`DomainKind`, one built per kind here (as httpx mounts transports): plain HTTP
    (:class:`HttpDomainTransport`), MCP servers (``mcp``, :mod:`orchestrator.mcp_domain`) and
    remote A2A agents (:mod:`orchestrator.a2a_domain`).

    The registry passes the ``kind`` it stored when the domain was registered; a caller holding
    only a base URL (a test, a one-off tool) may leave it out and the URL says the kind.
    ``max_answer_bytes``, ``manifest_limits`` and ``signing_secrets``: see
    :class:`HttpDomainTransport`."""

    def __init__(
        self,
        http: httpx.AsyncClient,
        *,
        max_answer_bytes: int | None = None,
        manifest_limits: ManifestLimits | None = None,
        signing_secrets: Mapping[str, bytes] | None = None,
        mcp: McpDomains | None = None,
    ):
        limits = manifest_limits or ManifestLimits()
        self.http = http
        self.mcp = mcp or McpDomains(max_answer_bytes=max_answer_bytes)
        self.a2a = A2ADomains()
        self.transports: dict[DomainKind, DomainTransport] = {
            DomainKind.HTTP: HttpDomainTransport(
                http,
                max_answer_bytes=max_answer_bytes,
                manifest_limits=limits,
                signing_secrets=signing_secrets or {},
            ),
            DomainKind.MCP: McpTransport(self.mcp, limits),
            DomainKind.A2A: A2ATransport(self.a2a, http, limits),
        }

    def transport(self, base_url: str, kind: DomainKind | None = None) -> DomainTransport:
        return self.transports[kind if kind is not None else DomainKind.of(base_url)]

    async def manifest(
        self, base_url: str, domain: str = "", *, kind: DomainKind | None = None
    ) -> DomainManifest:
        """Fetch and validate the manifest; an invalid one raises ``shared.manifest.ManifestInvalid``
        (field paths in ``errors``), one larger than the limits too. ``domain``: the name it is
        registered under (an MCP server's or an agent's manifest is built for it)."""
        return await self.transport(base_url, kind).manifest(base_url, domain)

    async def health(self, base_url: str, *, kind: DomainKind | None = None) -> HealthAnswer:
        return await self.transport(base_url, kind).health(base_url)

    async def execute(
        self,
        base_url: str,
        intent: ExecutionIntent,
        idempotency_key: str,
        timeout: float | None = None,  # noqa: ASYNC109 (per-request httpx timeout, the contract)
        *,
        kind: DomainKind | None = None,
    ) -> DomainOutput:
        """One call in an ``execute_tool`` span, whose ``traceparent`` the domain continues."""
        with start_span("execute_tool", tool_call_attributes(intent), kind=SpanKind.CLIENT):
            return await self.transport(base_url, kind).execute(base_url, intent, idempotency_key, timeout)


def _join(base_url: str, path: str) -> str:
    return base_url.rstrip("/") + path
