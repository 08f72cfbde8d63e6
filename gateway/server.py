"""The gateway's HTTP server: uvicorn, with bounds on what one slow or hostile client can hold.

- ``HTTP_HEADER_TIMEOUT_S``: a request's headers must be complete this long after the connection
  opened or the previous response went out, else the connection is closed (uvicorn alone waits
  for them forever, so slow-header connections pile up);
- ``HTTP_BODY_TIMEOUT_S``: a request's body must be complete this long after its headers, else the
  connection is closed (slow-body connections would otherwise hold a file descriptor each);
- ``HTTP_MAX_HEADER_BYTES``: a request whose headers grow past this is refused with 400 (uvicorn's
  ``h11_max_incomplete_event_size`` on h11; the same bound enforced here on httptools);
- ``HTTP_KEEP_ALIVE_S``: an idle keep-alive connection is closed after this (``timeout_keep_alive``);
- ``HTTP_GRACEFUL_SHUTDOWN_S``: on SIGTERM, running requests get this long to finish
  (``timeout_graceful_shutdown``), then the server stops anyway.
"""

from __future__ import annotations

import asyncio
from typing import Any

import uvicorn

from gateway.settings import GatewaySettings


def guarded_protocol(
    header_timeout_s: float, max_header_bytes: int, body_timeout_s: float | None = None
) -> type[asyncio.Protocol] | str:
    """uvicorn's httptools protocol with a header deadline and size bound, and a body deadline
    (``body_timeout_s`` after the headers; none when ``None``); ``"h11"`` (bounded by
    ``h11_max_incomplete_event_size`` only) when httptools is not installed."""
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
    except ImportError:  # pragma: no cover - uvicorn[standard] brings httptools
        return "h11"

    class GuardedHttpToolsProtocol(HttpToolsProtocol):
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
            self._header_timer = self.loop.call_later(header_timeout_s, self._headers_too_slow)

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
            if self._parsed_bytes > max_header_bytes:
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
                if self._pending_bytes > max_header_bytes:
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
            if body_timeout_s is not None:
                self._body_timer = self.loop.call_later(body_timeout_s, self._body_too_slow)
            super().on_headers_complete()

        def on_message_complete(self) -> None:
            self._in_body = False
            self._stop_body_timer()
            super().on_message_complete()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing() and not self.pipeline:
                self._await_headers()  # the next request on this keep-alive connection

    return GuardedHttpToolsProtocol


def server_options(settings: GatewaySettings) -> dict[str, Any]:
    """uvicorn's keyword arguments for the gateway."""
    return {
        "host": settings.gateway_host,
        "port": settings.gateway_port,
        "http": guarded_protocol(
            settings.http.header_timeout_s, settings.http.max_header_bytes, settings.http.body_timeout_s
        ),
        "timeout_keep_alive": settings.http.keep_alive_s,
        "h11_max_incomplete_event_size": settings.http.max_header_bytes,
        "timeout_graceful_shutdown": settings.http.graceful_shutdown_s,
        # uvicorn logs at WARNING, so its access lines never show: do not build them either
        "log_level": "warning",
        "access_log": False,
        "log_config": None,  # uvicorn's own lines go through setup_logging's handler (secrets masked)
    }


def serve(app: Any, settings: GatewaySettings) -> None:
    uvicorn.run(app, **server_options(settings))
