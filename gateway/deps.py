"""``Annotated`` dependency aliases, defined once."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import Depends, Request

from gateway.auth import Authenticator, current_principal
from gateway.coordination.quotas import Quotas, RunSlot
from gateway.coordination.registry_sync import RegistrySync
from gateway.settings import GatewaySettings
from gateway.storage.history import ConversationPoints
from gateway.storage.principals import KeyStore, Principal
from gateway.storage.runs import RunStore
from gateway.telemetry import is_turn_route
from gateway.turns.turn import TurnService
from gateway.validation import MAX_SESSION_ID as MAX_SESSION_ID  # re-exported: the one limit
from gateway.validation import check_body, check_params, check_session_id
from orchestrator.mcp_domain import McpDomains
from orchestrator.registry import DomainRegistry

SESSION_HEADERS = ("x-session-id", "x-openwebui-chat-id", "x-conversation-id")


# ``async`` on purpose: FastAPI runs a plain ``def`` dependency in a worker thread, and a thread
# hop costs more than the attribute lookup it would run.
async def _settings(request: Request) -> GatewaySettings:
    return request.app.state.settings


async def _turns(request: Request) -> TurnService:
    return request.app.state.turns


async def _registry(request: Request) -> DomainRegistry:
    return request.app.state.registry


async def _store(request: Request) -> RunStore:
    return request.app.state.store


async def _registry_sync(request: Request) -> RegistrySync:
    return request.app.state.registry_sync


async def _points(request: Request) -> ConversationPoints:
    return request.app.state.points


async def _mcp_domains(request: Request) -> McpDomains:
    return request.app.state.mcp_domains


RegistrySyncDep = Annotated[RegistrySync, Depends(_registry_sync)]
McpDomainsDep = Annotated[McpDomains, Depends(_mcp_domains)]
SettingsDep = Annotated[GatewaySettings, Depends(_settings)]
TurnsDep = Annotated[TurnService, Depends(_turns)]
RegistryDep = Annotated[DomainRegistry, Depends(_registry)]
StoreDep = Annotated[RunStore, Depends(_store)]
#: Who is calling (tenant and role); resolved once per request, with the ``/v1`` key check.
PrincipalDep = Annotated[Principal, Depends(current_principal)]


async def _keys(request: Request) -> KeyStore:
    return request.app.state.keys


async def _auth(request: Request) -> Authenticator:
    return request.app.state.auth


KeysDep = Annotated[KeyStore, Depends(_keys)]
AuthDep = Annotated[Authenticator, Depends(_auth)]
PointsDep = Annotated[ConversationPoints, Depends(_points)]


def new_session_id() -> str:
    return f"sess-{uuid.uuid4().hex}"


def session_id_from(request: Request, metadata: dict[str, Any] | None, explicit: str | None = None) -> str:
    """``X-Session-Id``, else ``X-OpenWebUI-Chat-Id`` / ``X-Conversation-Id``, else
    ``metadata.session_id``, else the explicit body field, else a new id."""
    for header in SESSION_HEADERS:
        value = request.headers.get(header)
        if value and value.strip():
            candidate = value.strip()
            break
    else:
        meta_value = (metadata or {}).get("session_id")
        candidate = str(meta_value).strip() if meta_value else (explicit or "").strip()
    if not candidate:
        return new_session_id()
    return check_session_id(candidate, "session_id")


async def _checked_request(request: Request) -> None:
    """The boundary checks of :mod:`gateway.validation` on a request's path, query and JSON
    body, before its handler (or any other dependency that acts) runs."""
    check_params(request.path_params)
    check_params(request.query_params)
    if request.method not in _BODY_METHODS:
        return
    try:
        body = await request.json()  # parsed once: FastAPI already did, and Starlette keeps it
    except (ValueError, RecursionError):
        return  # not JSON: the route's own body validation answers it
    check_body(body, max_message_chars=request.app.state.settings.max_message_chars)


_BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})
#: For ``dependencies=[...]`` of the ``/v1`` routers, after the key check.
CheckedRequest = Depends(_checked_request)


async def _run_slot(request: Request, principal: PrincipalDep) -> AsyncIterator[RunSlot]:
    """A place in the caller's concurrent-run quota (gateway/coordination/quotas.py) for a request that runs
    a turn, held until its response has been sent (a stream's included); other requests pass."""
    if not is_turn_route(request.method, request.url.path):
        yield RunSlot()
        return
    quotas: Quotas = request.app.state.quotas
    slot = await quotas.run_slot(principal)
    try:
        yield slot
    finally:
        await slot.release()


#: For ``dependencies=[...]`` of the routers that run turns, after the key check; a route that
#: hands its turn to the background takes the same slot with :data:`RunSlotDep`.
RunQuota = Depends(_run_slot)
RunSlotDep = Annotated[RunSlot, Depends(_run_slot)]
