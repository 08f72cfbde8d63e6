"""Answer bodies decoded per their ``Content-Encoding`` with a cap on the decoded bytes.

A few kilobytes of ``gzip`` (twice over) can inflate to gigabytes: a cap on the bytes received
bounds nothing once they are decoded in one go, which is what httpx's decoders do with a body
the transport has already read. Here every layer is inflated with ``max_length`` (zlib's own
bound), so no more than the cap plus one byte is ever produced before the answer is refused.

Supported: ``gzip`` (``x-gzip``), ``deflate`` (zlib-wrapped or raw, as httpx accepts) and
``identity``, stacked in any order up to :data:`MAX_LAYERS`; anything else is refused, since it
cannot be decoded within the cap.
"""

from __future__ import annotations

import zlib
from collections.abc import AsyncIterator

import httpx
import httpx2

#: ``Content-Encoding`` layers decoded at most (a real answer has one).
MAX_LAYERS = 3
#: The cap when the caller sets none: no outbound answer is read unbounded.
DEFAULT_MAX_DECODED_BYTES = 64 * 1024 * 1024


class AnswerTooLarge(httpx.RemoteProtocolError):
    """The answer's body, as received or decoded, is larger than ``limit`` bytes."""

    def __init__(self, limit: int, request: httpx.Request | None = None):
        super().__init__(f"answer larger than {limit} bytes", request=request)
        self.limit = limit


def encodings_of(content_encoding: str | None) -> list[str]:
    """The layers of a ``Content-Encoding`` value, in the order they were applied.

    >>> encodings_of("gzip, identity, GZIP")
    ['gzip', 'gzip']
    """
    if not content_encoding:
        return []
    named = [e.strip().lower() for e in content_encoding.split(",")]
    return [e for e in named if e and e != "identity"]


class _Inflate:
    """One compressed layer, inflated chunk by chunk within ``limit`` output bytes."""

    def __init__(self, encoding: str, limit: int):
        if encoding in ("gzip", "x-gzip"):
            self._zlib = zlib.decompressobj(16 + zlib.MAX_WBITS)
            self._raw_fallback = False
        elif encoding == "deflate":
            self._zlib = zlib.decompressobj()
            self._raw_fallback = True  # some servers send raw deflate: tried on the first error
        else:
            raise httpx.DecodingError(f"unsupported Content-Encoding '{encoding[:40]}'")
        self._limit = limit
        self._produced = 0

    def feed(self, data: bytes) -> bytes:
        room = self._limit - self._produced
        try:
            out = self._zlib.decompress(data, room + 1)
        except zlib.error as exc:
            if not (self._raw_fallback and self._produced == 0):
                raise httpx.DecodingError(f"answer is not valid compressed data ({exc})") from None
            self._raw_fallback = False
            self._zlib = zlib.decompressobj(-zlib.MAX_WBITS)
            return self.feed(data)
        self._raw_fallback = False
        # output stopped at max_length with input left over: more than ``room`` bytes
        if len(out) > room or self._zlib.unconsumed_tail:
            raise AnswerTooLarge(self._limit)
        self._produced += len(out)
        return out

    def flush(self) -> bytes:
        out = self._zlib.flush()
        self._produced += len(out)
        if self._produced > self._limit:
            raise AnswerTooLarge(self._limit)
        return out


class BoundedDecoder:
    """``feed`` the raw chunks of an answer, then ``flush``; each returns decoded bytes, and the
    total never exceeds ``limit`` (:class:`AnswerTooLarge` instead). Unsupported or broken
    encodings raise ``httpx.DecodingError``."""

    def __init__(self, content_encoding: str | None, limit: int | None):
        self.limit = DEFAULT_MAX_DECODED_BYTES if limit is None else limit
        layers = encodings_of(content_encoding)
        if len(layers) > MAX_LAYERS:
            raise httpx.DecodingError(f"answer encoded {len(layers)} times over (at most {MAX_LAYERS})")
        # undone in the reverse order of application; every layer within the same cap
        self._layers = [_Inflate(e, self.limit) for e in reversed(layers)]
        self._size = 0

    def feed(self, chunk: bytes) -> bytes:
        for layer in self._layers:
            chunk = layer.feed(chunk) if chunk else chunk
        return self._count(chunk)

    def flush(self) -> bytes:
        out = b""
        for layer in self._layers:
            if out:
                out = layer.feed(out)
            out += layer.flush()
        return self._count(out)

    def _count(self, out: bytes) -> bytes:
        self._size += len(out)
        if self._size > self.limit:
            raise AnswerTooLarge(self.limit)
        return out


def decode_body(content_encoding: str | None, body: bytes, limit: int | None) -> bytes:
    """A whole raw body decoded within ``limit`` bytes.

    >>> import gzip
    >>> decode_body("gzip", gzip.compress(b"ok"), 10)
    b'ok'
    >>> decode_body("gzip, gzip", gzip.compress(gzip.compress(bytes(10_000))), 1000)
    Traceback (most recent call last):
    ...
    orchestrator.bounded_decoding.AnswerTooLarge: answer larger than 1000 bytes
    """
    decoder = BoundedDecoder(content_encoding, limit)
    return decoder.feed(body) + decoder.flush()


def without_encoding(headers: tuple[tuple[bytes, bytes], ...]) -> tuple[tuple[bytes, bytes], ...]:
    """Raw headers of a body already decoded: no ``Content-Encoding``, no stale ``Content-Length``."""
    dropped = (b"content-encoding", b"content-length")
    return tuple((k, v) for k, v in headers if k.lower() not in dropped)


class _DecodedStream(httpx2.AsyncByteStream):
    """An answer's raw stream, decoded within the cap as it is read."""

    def __init__(self, raw: httpx2.AsyncByteStream, decoder: BoundedDecoder):
        self._raw = raw
        self._decoder = decoder

    async def __aiter__(self) -> AsyncIterator[bytes]:
        try:
            async for chunk in self._raw:
                out = self._decoder.feed(chunk)
                if out:
                    yield out
            out = self._decoder.flush()
            if out:
                yield out
        except AnswerTooLarge as exc:  # as the client's own transport errors, so callers map it
            raise httpx2.RemoteProtocolError(str(exc)) from None
        except httpx.DecodingError as exc:
            raise httpx2.DecodingError(str(exc)) from None

    async def aclose(self) -> None:
        await self._raw.aclose()


class BoundedDecodingTransport(httpx2.AsyncBaseTransport):
    """An ``httpx2`` transport (the MCP SDK's client) whose answers are decoded here within
    ``limit`` decoded bytes and handed on without ``Content-Encoding``: the client's own decoders
    bound each chunk, not the body a caller reads whole."""

    def __init__(self, inner: httpx2.AsyncBaseTransport, limit: int | None):
        self._inner = inner
        self._limit = limit

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        response = await self._inner.handle_async_request(request)
        try:
            decoder = BoundedDecoder(response.headers.get("content-encoding"), self._limit)
        except httpx.DecodingError as exc:
            await response.aclose()
            raise httpx2.DecodingError(str(exc), request=request) from None
        if not isinstance(response.stream, httpx2.AsyncByteStream):  # a body already in memory
            return response
        return httpx2.Response(
            response.status_code,
            headers=without_encoding(tuple(response.headers.raw)),
            stream=_DecodedStream(response.stream, decoder),
            request=request,
            extensions=response.extensions,
        )

    async def aclose(self) -> None:
        await self._inner.aclose()
