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
        from gateway.http_guard import GuardedHttpToolsProtocol, HeaderLimits
    except ImportError:  # pragma: no cover - uvicorn[standard] brings httptools
        return "h11"
    limits = HeaderLimits(header_timeout_s, max_header_bytes, body_timeout_s)
    return type("GuardedHttpToolsProtocol", (GuardedHttpToolsProtocol,), {"limits": limits})


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
