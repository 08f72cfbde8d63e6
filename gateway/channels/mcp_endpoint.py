"""``/mcp``: the route, and the platform's MCP server (:mod:`gateway.channels.mcp`), started by
the first call (:mod:`gateway.channels.deferred` says why): the route waits for it.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING

from fastapi import APIRouter, Request, Response
from starlette.types import Message, Receive, Scope, Send

from gateway.channels.deferred import Deferred
from gateway.deps import PrincipalDep, services

if TYPE_CHECKING:
    from gateway.channels.mcp import PlatformMcp
    from gateway.turns.turn import TurnService
    from orchestrator.registry import DomainRegistry

#: Where the caller's tenant waits for the MCP handlers, in the request's state.
TENANT_STATE = "mcp_tenant"
#: Where the caller's run-quota slot is taken from, for each tool call (a turn).
SLOT_STATE = "mcp_run_slot"


def _server_class() -> type[PlatformMcp]:
    from gateway.channels.mcp import PlatformMcp

    return PlatformMcp


def deferred_server(turns: TurnService, registry: DomainRegistry) -> Deferred[PlatformMcp]:
    """The ``/mcp`` server, for the lifespan to start (``running()``) and hand to requests."""

    @asynccontextmanager
    async def serving() -> AsyncIterator[PlatformMcp]:
        server = (await asyncio.to_thread(_server_class))(turns, registry)
        async with server.running():  # the session manager's task group, left on shutdown
            yield server

    return Deferred("MCP", serving)


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
    deferred: Deferred[PlatformMcp] = request.state.mcp
    server = await deferred.server()
    setattr(request.state, TENANT_STATE, principal.tenant)
    quotas = services(request).quotas
    setattr(request.state, SLOT_STATE, lambda: quotas.run_slot(principal))
    return _HandOff(server, await request.body())
