"""The A2A routes: ``GET /.well-known/agent-card.json`` and ``POST /a2a`` (what they answer:
:mod:`gateway.channels.a2a`). That server is started by the first request to either
(:mod:`gateway.channels.deferred` says why); the routes wait for it. The checks made
before any turn (:func:`refusal_of`) need no SDK and are here.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse

from gateway.channels.deferred import Deferred
from gateway.deps import PrincipalDep, RegistryDep, SettingsDep
from gateway.validation import check_json
from shared.errors import InvalidRequest

if TYPE_CHECKING:
    from gateway.channels.a2a import PlatformA2a
    from gateway.turns.turn import TurnService

#: Where the JSON-RPC endpoint lives (named in the card's interfaces).
RPC_PATH = "/a2a"
CARD_PATH = "/.well-known/agent-card.json"
DESCRIPTION = (
    "One conversational front door for many business domains: ask in plain language; "
    "the platform routes the request to the domain that owns it."
)
#: JSON-RPC's "invalid params"
INVALID_PARAMS = -32602


def _server_class() -> type[PlatformA2a]:
    from gateway.channels.a2a import PlatformA2a

    return PlatformA2a


def deferred_server(turns: TurnService) -> Deferred[PlatformA2a]:
    """The A2A server over ``turns``, for the lifespan to start (``running()``) and hand to requests."""

    @asynccontextmanager
    async def serving() -> AsyncIterator[PlatformA2a]:
        yield (await asyncio.to_thread(_server_class))(turns)

    return Deferred("A2A", serving)


card_router = APIRouter()
rpc_router = APIRouter()


@card_router.get(CARD_PATH, include_in_schema=False)
async def agent_card(request: Request, settings: SettingsDep, registry: RegistryDep) -> dict[str, Any]:
    """The platform's card; public, as A2A discovery is (the card says which scheme /a2a needs)."""
    deferred: Deferred[PlatformA2a] = request.state.a2a
    server = await deferred.server()
    return server.card(request, settings.model_name, registry.catalog.manifests())


@rpc_router.post(RPC_PATH, include_in_schema=False)
async def a2a_rpc(request: Request, principal: PrincipalDep, settings: SettingsDep) -> Response:
    # the key was checked by the /v1 dependency; the tenant travels to the executor with the call
    request.state.a2a_tenant = principal.tenant
    refused = refusal_of(await request.body(), settings.max_message_chars)  # Starlette keeps the body
    if refused is not None:
        return JSONResponse(refused)
    deferred: Deferred[PlatformA2a] = request.state.a2a
    server = await deferred.server()
    return await server.handle(request)


def refusal_of(body: bytes, max_chars: int) -> dict[str, Any] | None:
    """The JSON-RPC error for a request whose texts no turn may take (a NUL, a lone surrogate, a
    number no column holds, a message longer than ``max_chars``), answered before the SDK or any
    turn sees it; ``None`` otherwise (a body that is not JSON at all is the SDK's to answer)."""
    try:
        payload = json.loads(body)
    except (ValueError, RecursionError):
        return None
    request_id = payload.get("id") if isinstance(payload, dict) else None
    try:
        check_json(payload)
        if isinstance(payload, dict):
            _check_message_length(payload.get("params"), max_chars)
    except InvalidRequest as exc:
        plain_id = isinstance(request_id, (str, int)) and not isinstance(request_id, bool)
        return {
            "jsonrpc": "2.0",
            "id": request_id if plain_id else None,
            "error": {"code": INVALID_PARAMS, "message": exc.message, "data": {"param": exc.param}},
        }
    return None


def _check_message_length(params: Any, max_chars: int) -> None:
    message = params.get("message") if isinstance(params, dict) else None
    parts = message.get("parts") if isinstance(message, dict) else None
    if not isinstance(parts, list):
        return
    texts = [p["text"] for p in parts if isinstance(p, dict) and isinstance(p.get("text"), str)]
    if sum(len(text) for text in texts) > max_chars:
        raise InvalidRequest(
            f"params.message.parts: a message is at most {max_chars} characters of text",
            param="params.message.parts",
        )
