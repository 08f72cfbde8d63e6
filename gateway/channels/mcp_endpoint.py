"""``/mcp``: the route, and the platform's MCP server (:mod:`gateway.channels.mcp`) started in the
background once the gateway has started.

The server is built on the ``mcp`` SDK, whose protocol models cost a noticeable part of the
gateway's start; nothing else at start-up needs it. So the lifespan starts it in a task it owns
rather than building it in line: the SDK is imported in a worker thread (the event loop keeps
serving meanwhile), then the server's session manager runs in that task until shutdown. A call
arriving before that waits for it, at most :data:`START_WAIT_S`, then gets a 503.

Why at start-up and not on the first call: the session manager's task group has to live in one
long-lived task anyway (anyio wants it entered and left in the same task), and started at once
no MCP client pays the import on its first call. ``tests/gateway/test_lazy_imports.py`` checks
that importing the gateway does not import the SDK.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING

from fastapi import APIRouter, Request, Response
from starlette.types import Message, Receive, Scope, Send

from gateway.deps import PrincipalDep, services
from shared.errors import PlatformError

if TYPE_CHECKING:
    from gateway.channels.mcp import PlatformMcp
    from gateway.turns.turn import TurnService
    from orchestrator.registry import DomainRegistry

log = logging.getLogger(__name__)

#: Seconds a call arriving while the server starts waits for it.
START_WAIT_S = 30.0
#: Where the caller's tenant waits for the MCP handlers, in the request's state.
TENANT_STATE = "mcp_tenant"
#: Where the caller's run-quota slot is taken from, for each tool call (a turn).
SLOT_STATE = "mcp_run_slot"


class McpUnavailable(PlatformError):
    """The MCP server is not running (it did not start, or the gateway is stopping): retry later."""

    status_code = 503
    code = "service_unavailable"
    error_type = "server_error"


def _server_class() -> type[PlatformMcp]:
    from gateway.channels.mcp import PlatformMcp

    return PlatformMcp


class McpEndpoint:
    """The ``/mcp`` server of one gateway: started by :meth:`running`, waited for by :meth:`server`."""

    def __init__(self, turns: TurnService, registry: DomainRegistry) -> None:
        self._turns = turns
        self._registry = registry
        self._server: PlatformMcp | None = None
        #: set once the server runs, or will not (it failed to start, or the gateway stops)
        self._settled = asyncio.Event()
        self._stop = asyncio.Event()

    @asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        """Start the server in the background; on exit, stop it (its session manager ends)."""
        task = asyncio.create_task(self._serve(), name="mcp-endpoint")
        try:
            yield
        finally:
            self._stop.set()
            if not self._settled.is_set():  # still importing: nothing runs yet that needs ending
                task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def server(self) -> PlatformMcp:
        """The running server, once it has started (waiting for it at most :data:`START_WAIT_S`)."""
        if not self._settled.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._settled.wait(), START_WAIT_S)
        if self._server is None:
            raise McpUnavailable("The MCP endpoint is not available right now; try again shortly.")
        return self._server

    async def _serve(self) -> None:
        try:
            server_class = await asyncio.to_thread(_server_class)
            server = server_class(self._turns, self._registry)
            async with server.running():
                self._server = server
                self._settled.set()
                await self._stop.wait()
        except Exception:  # the rest of the gateway serves on; /mcp answers 503
            log.exception("the MCP endpoint did not start")
        finally:
            self._server = None
            self._settled.set()


class _HandOff(Response):
    """A response that hands the request to an ASGI app (the MCP transport), so the route keeps
    the ``/v1`` dependencies (the API key check) and the error mapping. The body was read by the
    route (a dependency may have read it too): it is replayed to the app."""

    def __init__(self, app: PlatformMcp, body: bytes):
        super().__init__()
        self._app = app
        self._body = body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": self._body, "more_body": False}
            return await receive()  # then what the client does next (a disconnect)

        await self._app.handle(scope, replay, send)


router = APIRouter()


# POST only: stateless, there is no stream for a GET to open (405 says so, as the transport
# specifies) and no session for a DELETE to end
@router.post("/mcp", include_in_schema=False)
async def mcp_endpoint(request: Request, principal: PrincipalDep) -> Response:
    endpoint: McpEndpoint = request.state.mcp
    server = await endpoint.server()
    setattr(request.state, TENANT_STATE, principal.tenant)
    quotas = services(request).quotas
    setattr(request.state, SLOT_STATE, lambda: quotas.run_slot(principal))
    return _HandOff(server, await request.body())
