"""A channel's server started by its first request, in a task the lifespan owns and stops.

The ``/mcp`` and ``/a2a`` servers are built on protocol SDKs (``mcp``, ``a2a-sdk``) whose models
cost a noticeable part of the gateway's start, and nothing else needs them. So the lifespan does
not build them: the first request to the channel starts a task that imports the SDK in a worker
thread (the event loop keeps serving meanwhile), builds the server and holds it until shutdown
(:meth:`Deferred.running`). That request, and any arriving meanwhile, waits for it, at most
:data:`START_WAIT_S`, then is refused with a 503.

Why on the first request and not right after start-up: an import thread still holds the GIL half
the time, so started at once it slowed the gateway's first answers (a first chat answer by about
half a second on 2 cores), and most gateways are never called over MCP or A2A; the first such
call pays the import once instead. It is a task of its own, not the request's, because a server
may need a long-lived one (the MCP session manager's task group is entered and left in one
task). ``tests/gateway/test_lazy_imports.py`` checks that importing the gateway imports neither SDK.
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
    """A server ``open`` builds and holds (an async context), started by the first
    :meth:`server` call within :meth:`running`; ``name`` names it in errors and the log."""

    def __init__(self, name: str, open: Callable[[], AbstractAsyncContextManager[T]]) -> None:
        self.name = name
        self._open = open
        self._server: T | None = None
        #: set once the server runs, or will not (it failed to start, or the gateway stops)
        self._settled = asyncio.Event()
        self._stop = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    @asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        """The span :meth:`server` may start the server in; on exit, it is stopped (its context
        left) if it was started."""
        try:
            yield
        finally:
            self._stop.set()
            task = self._task
            if task is not None:
                if not self._settled.is_set():  # still importing: nothing runs yet that needs ending
                    task.cancel()
                # waits for the task without raising its cancellation (a cancellation of ours still is)
                await asyncio.wait([task])
            self._settled.set()

    async def server(self) -> T:
        """The running server, started by the first call (waiting for it at most
        :data:`START_WAIT_S`)."""
        if self._task is None and not self._stop.is_set():
            self._task = asyncio.create_task(self._hold(), name=f"start-{self.name}")
        if not self._settled.is_set():
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(START_WAIT_S):  # not wait_for: see durable/liveness.py
                    await self._settled.wait()
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
