"""A local MCP server run as a child process over stdio, one session held for the gateway's life.

Only the operator declares these (an entry of the bootstrap file with a ``command``,
:mod:`orchestrator.mcp_bootstrap`): nothing an HTTP call sends can start a process. The registry
names such a server ``mcp+stdio://<name>``; :class:`~orchestrator.mcp_domain.McpDomains` asks
:meth:`StdioServer.client` for its session on every call.

A background task owns the child: it starts it with the official ``mcp`` package's stdio
client, keeps the session until asked to stop or to restart, and starts it again when it died
(waiting longer after each failed start, up to :data:`MAX_BACKOFF_S`). The child's output
ending is what says it died: the session is dropped and a new child started at once, and a call
arriving meanwhile waits for the new session instead of failing.

The SDK is imported when a server starts, not with this module: the registry reads the URL
helpers below on every start, and most gateways declare no stdio server.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING

import anyio

from shared.errors import DomainUnavailable

if TYPE_CHECKING:
    from mcp import Client
    from mcp.client._transport import TransportStreams
    from mcp.client.stdio import StdioServerParameters

log = logging.getLogger(__name__)

#: Base URL prefix of a stdio MCP server in the registry: ``mcp+stdio://<name>``.
STDIO_PREFIX = "mcp+stdio://"
#: Seconds between a failed start and the next one, doubled each time up to :data:`MAX_BACKOFF_S`.
FIRST_BACKOFF_S = 0.5
MAX_BACKOFF_S = 30.0
#: Seconds a stopping server gets to end its session (the SDK closes stdin, then terminates it).
STOP_GRACE_S = 10.0


def stdio_base_url(name: str) -> str:
    return f"{STDIO_PREFIX}{name}"


def is_stdio_url(url: str) -> bool:
    return url.startswith(STDIO_PREFIX)


def stdio_name(url: str) -> str:
    return url.removeprefix(STDIO_PREFIX).rstrip("/")


class StdioServer:
    """One declared stdio MCP server: its child process and the session held with it."""

    def __init__(self, name: str, parameters: StdioServerParameters) -> None:
        self.name = name
        self.parameters = parameters
        self._client: Client | None = None
        #: why the last start failed (None while starting or connected)
        self._failure: str | None = None
        self._changed = asyncio.Event()
        self._restart = asyncio.Event()
        self._stopping = False
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._hold(), name=f"mcp-stdio-{self.name}")

    async def stop(self) -> None:
        """End the session and the child process (it gets :data:`STOP_GRACE_S` to exit)."""
        self._stopping = True
        self._restart.set()
        if self._task is None:
            return
        try:
            await asyncio.wait_for(asyncio.shield(self._task), STOP_GRACE_S)
        except TimeoutError:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        self._task = None

    async def client(self) -> Client:
        """The live session, waiting for the restarted one when the child died;
        ``DomainUnavailable`` when the last start failed. The caller bounds the wait (its call's
        timeout)."""
        while True:
            client = self._client
            if client is not None and not self._restart.is_set():
                return client
            if self._failure is not None:
                raise DomainUnavailable(self._failure, details={"delivered": False})
            if self._stopping:
                raise DomainUnavailable(
                    f"stdio MCP server {self.name} is stopping", details={"delivered": False}
                )
            changed = self._changed
            await changed.wait()

    def _ended(self) -> None:
        """The child closed its output (it died, or exited): start it again."""
        if not self._stopping:
            log.warning("stdio MCP server %s ended: starting it again", self.name)
        self._restart.set()

    def _notify(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    async def _hold(self) -> None:
        from mcp import Client

        backoff = FIRST_BACKOFF_S
        while not self._stopping:
            self._restart.clear()
            connected = False
            try:
                # entered and left in this task: the SDK's task groups require it
                transport = _watched(self.parameters, on_end=self._ended)
                async with Client(transport, cache=None) as client:
                    self._client, self._failure, connected = client, None, True
                    backoff = FIRST_BACKOFF_S
                    self._notify()
                    await self._restart.wait()
            except Exception as exc:  # a command that does not start, a handshake that fails
                if not connected:
                    self._failure = f"stdio MCP server {self.name} did not start ({type(exc).__name__})"
                    log.warning("%s: %s", self._failure, exc)
                else:  # it ended under a held session: started again below, at once
                    log.warning("stdio MCP server %s session ended (%s)", self.name, type(exc).__name__)
            finally:
                self._client = None
            self._notify()
            if self._failure is not None and not self._stopping:
                self._restart.clear()  # a child that died in its handshake set it: wait anyway
                # asyncio.timeout, not wait_for: on 3.11 wait_for can swallow a cancellation
                # that arrives as the event is set, and a stop must not be lost
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(backoff):
                        await self._restart.wait()
                backoff = min(backoff * 2, MAX_BACKOFF_S)
                self._failure = None  # starting again: callers wait for the outcome
        self._notify()


@asynccontextmanager
async def _watched(
    parameters: StdioServerParameters, on_end: Callable[[], None]
) -> AsyncIterator[TransportStreams]:
    """The SDK's stdio transport, calling ``on_end`` as soon as the child's output ends (the SDK
    tells the session, not its owner): the messages pass through one relay stream."""
    from mcp.client.stdio import stdio_client
    from mcp.shared.message import SessionMessage

    async with stdio_client(parameters) as (read, write):
        relay_in, relay_out = anyio.create_memory_object_stream[SessionMessage | Exception](0)

        async def relay() -> None:
            try:
                async with relay_in:
                    async for message in read:
                        await relay_in.send(message)
            except (anyio.ClosedResourceError, anyio.BrokenResourceError):
                pass  # the session closed its end: it is ending anyway
            finally:
                on_end()

        async with anyio.create_task_group() as relaying:
            relaying.start_soon(relay)
            try:
                yield relay_out, write
            finally:
                relaying.cancel_scope.cancel()
