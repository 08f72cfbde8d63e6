"""A channel's server started after the gateway's start-up, in a task the lifespan owns.

The ``/mcp`` and ``/a2a`` servers are built on protocol SDKs (``mcp``, ``a2a-sdk``) whose models
cost a noticeable part of the gateway's start, and nothing else at start-up needs them. So the
lifespan does not build them in line: :meth:`Deferred.running` starts a task that imports the SDK
in a worker thread (the event loop keeps serving meanwhile), builds the server and holds it until
shutdown. A request arriving before that waits for it, at most :data:`START_WAIT_S`, then is
refused with a 503.

Why at start-up and not on the first request: a server may need a long-lived task anyway (the
MCP session manager's task group is entered and left in one task), and started at once no client
pays the import on its first call. ``tests/gateway/test_lazy_imports.py`` checks that importing
the gateway imports neither SDK.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Generic, TypeVar

from shared.errors import PlatformError

log = logging.getLogger(__name__)

T = TypeVar("T")

#: Seconds a request arriving while the server starts waits for it.
START_WAIT_S = 30.0


class ChannelUnavailable(PlatformError):
    """The channel's server is not running (it did not start, or the gateway is stopping)."""

    status_code = 503
    code = "service_unavailable"
    error_type = "server_error"


class Deferred(Generic[T]):
    """A server ``open`` builds and holds (an async context), started by :meth:`running` and
    waited for by :meth:`server`; ``name`` names it in errors and the log."""

    def __init__(self, name: str, open: Callable[[], AbstractAsyncContextManager[T]]) -> None:
        self.name = name
        self._open = open
        self._server: T | None = None
        #: set once the server runs, or will not (it failed to start, or the gateway stops)
        self._settled = asyncio.Event()
        self._stop = asyncio.Event()

    @asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        """Start the server in the background; on exit, stop it (its context is left)."""
        task = asyncio.create_task(self._hold(), name=f"start-{self.name}")
        try:
            yield
        finally:
            self._stop.set()
            if not self._settled.is_set():  # still importing: nothing runs yet that needs ending
                task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def server(self) -> T:
        """The running server, once started (waiting for it at most :data:`START_WAIT_S`)."""
        if not self._settled.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._settled.wait(), START_WAIT_S)
        if self._server is None:
            raise ChannelUnavailable(
                f"The {self.name} endpoint is not available right now; try again shortly."
            )
        return self._server

    async def _hold(self) -> None:
        try:
            async with self._open() as server:
                self._server = server
                self._settled.set()
                await self._stop.wait()
        except Exception:  # the rest of the gateway serves on; this channel answers 503
            log.exception("the %s endpoint did not start", self.name)
        finally:
            self._server = None
            self._settled.set()
