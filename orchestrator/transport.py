"""An httpx transport that sends requests with aiohttp, for the gateway's calls to domains.

Why: on the fan-out path (up to ``max_concurrency`` concurrent ``/execute`` calls) the client's
per-request CPU is the latency. httpx's own transport (httpcore + h11, pure Python) costs several
times more CPU per request than aiohttp (C parser, one write per request), and httpcore's pool
re-checks every pooled connection (a socket probe each) on every request and response, so its
cost grows with the number of connections. httpx's own Request/Response objects are most of what
remains: :meth:`AiohttpTransport.post_bytes` skips them for ``/execute`` (see
:class:`orchestrator.client.DomainHttpClient`); the measurements are in bench/results/gateway.md.

Only the transport changes: callers keep httpx's API (``httpx.AsyncClient``, ``httpx.Timeout``,
``httpx.Limits``, ``raise_for_status``, its exception types), so
:func:`orchestrator.client.map_httpx_exceptions` stays the single place where transport errors
become platform errors, and tests can still plug in any other httpx transport.

Behaviour kept from httpx's transport:

* timeouts come from the request (``request.extensions["timeout"]``): ``connect`` bounds opening
  a connection, ``pool`` + ``connect`` bound waiting for a free connection and opening it,
  ``read`` bounds each wait for bytes of the answer. A send that cannot complete shows up as a
  read timeout (aiohttp buffers writes, it has no separate write timeout);
* aiohttp's errors become the httpx exceptions httpx's transport would raise for the same
  event (refused -> ``ConnectError``, no connection in time -> ``ConnectTimeout``, no answer in
  time -> ``ReadTimeout``, peer closed or sent garbage -> ``RemoteProtocolError``...);
* no redirects or cookies here: httpx's client does those from the headers;
* a compressed answer is decoded here, capped on its decoded bytes
  (:mod:`orchestrator.bounded_decoding`), and handed on without ``Content-Encoding``;
* keep-alive connections, up to ``limits.max_connections``, idle ones closed after
  ``limits.keepalive_expiry``.

Not supported: streaming (a response body is read before it is returned, a streamed request
body is read before it is sent) and trio. Domain calls are small JSON bodies on asyncio. A body is
read in chunks up to ``max_answer_bytes``, and decoded within the same bound: past it the
connection is dropped and :class:`AnswerTooLarge` raised, so an oversized answer (received or
decoded) is never held whole in memory.
"""

from __future__ import annotations

import asyncio
import ssl
from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple

import aiohttp
import httpx
from aiohttp.typedefs import RawHeaders
from yarl import URL

from orchestrator.bounded_decoding import AnswerTooLarge as AnswerTooLarge  # where it was defined
from orchestrator.bounded_decoding import decode_body, without_encoding

#: aiohttp adds these when absent; httpx's client already set what it wants to send
_SKIP_AUTO_HEADERS = frozenset({"Accept", "Accept-Encoding", "User-Agent", "Content-Type"})


@lru_cache(maxsize=64)
def _timeout(
    connect: float | None, read: float | None, pool: float | None
) -> aiohttp.ClientTimeout:  # one per distinct httpx.Timeout, not one per request
    return aiohttp.ClientTimeout(
        total=None,
        # waiting for a pooled connection + opening one (httpx: pool, then connect)
        connect=None if connect is None or pool is None else connect + pool,
        sock_connect=connect,
        sock_read=read,
        # aiohttp rounds timeouts >= ceil_threshold up to whole seconds: keep them exact
        ceil_threshold=float("inf"),
    )


@lru_cache(maxsize=256)
def _url(url: str) -> URL:  # a domain's /execute URL, parsed once
    return URL(url, encoded=True)


async def read_capped(
    answer: aiohttp.ClientResponse, limit: int | None, request: httpx.Request | None
) -> bytes:
    """The body, or :class:`AnswerTooLarge` as soon as it is known to exceed ``limit``."""
    if limit is None:
        return await answer.read()
    if answer.content_length is not None and answer.content_length > limit:
        raise AnswerTooLarge(limit, request)
    chunks: list[bytes] = []
    size = 0
    async for chunk in answer.content.iter_chunked(65_536):
        size += len(chunk)
        if size > limit:
            raise AnswerTooLarge(limit, request)
        chunks.append(chunk)
    return b"".join(chunks)


class _Answer(NamedTuple):
    status: int
    raw_headers: RawHeaders
    body: bytes
    version: aiohttp.HttpVersion | None
    reason: str | None


def _headers(headers: httpx.Headers) -> list[tuple[str, str]]:
    """As httpx will have encoded them (``multi_items`` re-derives the encoding per item)."""
    encoding = headers.encoding
    return [(key.decode(encoding), value.decode(encoding)) for key, value in headers.raw]


class AiohttpTransport(httpx.AsyncBaseTransport):
    """``httpx.AsyncClient(transport=AiohttpTransport(limits=...))``. The aiohttp session is made
    on first use, inside the running loop, and belongs to that loop."""

    def __init__(
        self,
        *,
        limits: httpx.Limits | None = None,
        verify: ssl.SSLContext | bool = True,
        max_answer_bytes: int | None = None,
    ) -> None:
        limits = limits or httpx.Limits()
        self._max_answer_bytes = max_answer_bytes
        self._limit = limits.max_connections or 0  # aiohttp: 0 = no limit
        self._keepalive_s = limits.keepalive_expiry if limits.keepalive_expiry is not None else 5.0
        self._ssl = verify
        self._session: aiohttp.ClientSession | None = None

    def _open(self) -> aiohttp.ClientSession:
        if self._session is None or self._session.closed:
            connector = aiohttp.TCPConnector(
                limit=self._limit,
                keepalive_timeout=self._keepalive_s,
                ssl=self._ssl,
            )
            self._session = aiohttp.ClientSession(
                connector=connector,
                cookie_jar=aiohttp.DummyCookieJar(),  # httpx's client keeps the cookies
                auto_decompress=False,  # httpx's Response decodes per Content-Encoding
                skip_auto_headers=_SKIP_AUTO_HEADERS,
                timeout=_timeout(5.0, 5.0, 5.0),  # replaced per request below
            )
        return self._session

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        limits = request.extensions.get("timeout", {})
        timeout = _timeout(limits.get("connect"), limits.get("read"), limits.get("pool"))
        answer = await self._exchange(
            request.method,
            URL(str(request.url), encoded=True),  # httpx already percent-encoded it
            await request.aread(),
            _headers(request.headers),
            timeout,
            request,
        )
        version = answer.version or aiohttp.HttpVersion11
        return httpx.Response(
            answer.status,
            headers=answer.raw_headers,
            content=answer.body,
            request=request,
            extensions={
                "http_version": f"HTTP/{version.major}.{version.minor}".encode(),
                "reason_phrase": (answer.reason or "").encode(),
            },
        )

    async def post_bytes(
        self,
        url: str,
        content: bytes,
        headers: Sequence[tuple[str, str]],
        timeout: httpx.Timeout,  # noqa: ASYNC109 (per-request transport timeouts, as httpx's)
    ) -> tuple[int, bytes]:
        """POST ``content`` and return ``(status, body)`` without building httpx's Request and
        Response objects (half the client's CPU per call on the fan-out path): see
        :class:`orchestrator.client.DomainHttpClient`. Raises the same httpx exceptions as
        :meth:`handle_async_request`."""
        answer = await self._exchange(
            "POST",
            _url(url),
            content,
            headers,
            _timeout(timeout.connect, timeout.read, timeout.pool),
            None,
        )
        return answer.status, answer.body

    async def _exchange(
        self,
        method: str,
        url: URL,
        body: bytes,
        headers: Sequence[tuple[str, str]],
        timeout: aiohttp.ClientTimeout,  # noqa: ASYNC109 (per-request transport timeouts)
        request: httpx.Request | None,
    ) -> _Answer:
        """One request/answer; aiohttp's errors become the httpx exception for the same event."""
        try:
            async with self._open().request(
                method, url, data=body or None, headers=headers, timeout=timeout, allow_redirects=False
            ) as answer:
                raw = await read_capped(answer, self._max_answer_bytes, request)
                encoding = answer.headers.get("Content-Encoding")
                if not encoding:
                    return _Answer(answer.status, answer.raw_headers, raw, answer.version, answer.reason)
                # decoded here, within the same cap: httpx would inflate the whole body at once
                body = decode_body(encoding, raw, self._max_answer_bytes)
                decoded = without_encoding(answer.raw_headers)
                return _Answer(answer.status, decoded, body, answer.version, answer.reason)
        except aiohttp.ConnectionTimeoutError as exc:  # no pooled connection / connect in time
            raise httpx.ConnectTimeout(str(exc) or "connect timeout", request=request) from exc
        except aiohttp.ServerTimeoutError as exc:  # sock_read: no byte of the answer in time
            raise httpx.ReadTimeout(str(exc) or "read timeout", request=request) from exc
        except aiohttp.ClientConnectorError as exc:  # refused, unreachable, DNS, TLS handshake
            raise httpx.ConnectError(str(exc), request=request) from exc
        except (aiohttp.ServerDisconnectedError, aiohttp.ClientPayloadError) as exc:
            raise httpx.RemoteProtocolError(str(exc) or type(exc).__name__, request=request) from exc
        except aiohttp.ClientResponseError as exc:  # a malformed status line or headers
            raise httpx.RemoteProtocolError(exc.message or type(exc).__name__, request=request) from exc
        except aiohttp.ClientOSError as exc:  # reset / broken pipe mid-exchange
            raise httpx.ReadError(str(exc) or type(exc).__name__, request=request) from exc
        except aiohttp.ClientError as exc:  # anything else the transport could not do
            raise httpx.RemoteProtocolError(str(exc) or type(exc).__name__, request=request) from exc
        except (UnicodeError, ValueError) as exc:  # a host name the resolver cannot encode (IDNA)
            raise httpx.ConnectError(f"invalid host name ({type(exc).__name__})", request=request) from exc

    async def aclose(self) -> None:
        if self._session is not None and not self._session.closed:
            await self._session.close()
            await asyncio.sleep(0)  # let aiohttp's connections finish closing (its advice)
        self._session = None
