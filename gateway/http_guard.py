"""The httptools protocol the gateway's uvicorn serves with: a deadline for a request's headers
and its body, and a bound on the headers' size (see :mod:`gateway.server`). Imported only when
httptools is installed (uvicorn[standard] brings it)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import ClassVar

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol


@dataclass(frozen=True)
class HeaderLimits:
    header_timeout_s: float
    max_header_bytes: int
    #: after the headers; ``None``: a body may take as long as it likes
    body_timeout_s: float | None = None


class GuardedHttpToolsProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with the deadlines and the size bound of :class:`HeaderLimits`
    (a subclass per server sets ``limits``: uvicorn builds the protocol from its class alone)."""

    limits: ClassVar[HeaderLimits]
    _header_timer: asyncio.TimerHandle | None = None
    _body_timer: asyncio.TimerHandle | None = None
    _awaiting_headers = False
    #: bytes received since the connection (or the last response) while headers are incomplete
    _pending_bytes = 0
    #: request line and header bytes the parser has handed over for the current request
    _parsed_bytes = 0
    #: between a request's headers and its end (an answered request's body may still arrive)
    _in_body = False

    def _await_headers(self) -> None:
        self._stop_header_timer()
        self._awaiting_headers = True
        self._pending_bytes = 0
        self._header_timer = self.loop.call_later(self.limits.header_timeout_s, self._headers_too_slow)

    def _stop_header_timer(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _headers_too_slow(self) -> None:
        self._header_timer = None
        if self._awaiting_headers and not self.transport.is_closing():
            self.transport.close()

    def _stop_body_timer(self) -> None:
        if self._body_timer is not None:
            self._body_timer.cancel()
            self._body_timer = None

    def _body_too_slow(self) -> None:
        # the body did not arrive in time: the connection goes (its handler sees a disconnect)
        self._body_timer = None
        if self._in_body and not self.transport.is_closing():
            self.transport.close()

    def _count_parsed(self, size: int) -> None:
        self._parsed_bytes += size
        if self._parsed_bytes > self.limits.max_header_bytes:
            # raised inside a parser callback: uvicorn answers 400 and closes the connection
            raise ValueError("request headers too large")

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._await_headers()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_header_timer()
        self._stop_body_timer()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)  # parses what is complete (on_url, on_header...)
        if self._awaiting_headers and not self._in_body and not self.transport.is_closing():
            # still no complete headers: what the parser buffers meanwhile is bounded too
            self._pending_bytes += len(data)
            if self._pending_bytes > self.limits.max_header_bytes:
                self._awaiting_headers = False
                self._stop_header_timer()
                self.send_400_response("Request headers too large.")

    def on_message_begin(self) -> None:
        self._parsed_bytes = 0
        super().on_message_begin()

    def on_url(self, url: bytes) -> None:
        self._count_parsed(len(url))
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        self._count_parsed(len(name) + len(value))
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        self._awaiting_headers = False
        self._in_body = True
        self._stop_header_timer()
        if self.limits.body_timeout_s is not None:
            self._body_timer = self.loop.call_later(self.limits.body_timeout_s, self._body_too_slow)
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        self._in_body = False
        self._stop_body_timer()
        super().on_message_complete()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and not self.pipeline:
            self._await_headers()  # the next request on this keep-alive connection
