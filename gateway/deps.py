"""The app-scoped :class:`Services` and the ``Annotated`` dependency aliases that hand them to
routes, defined once."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Depends, Request
from redis.asyncio import Redis
from sqlalchemy.ext.asyncio import AsyncEngine

from gateway.auth import Authenticator, admin_only, principal_of
from gateway.coordination.quotas import Quotas, RunSlot
from gateway.coordination.registry_sync import RegistrySync
from gateway.settings import GatewaySettings
from gateway.storage.history import ConversationPoints
from gateway.storage.principals import KeyStore, Principal
from gateway.storage.runs import RunStore
from gateway.telemetry import is_turn_route
from gateway.turns.background import BackgroundRuns
from gateway.turns.turn import TurnService
from gateway.validation import MAX_SESSION_ID as MAX_SESSION_ID  # re-exported: the one limit
from gateway.validation import check_body, check_params, check_session_id
from orchestrator.breaker import DomainBreakers
from orchestrator.mcp_domain import McpDomains
from orchestrator.registry import DomainRegistry

SESSION_HEADERS = ("x-session-id", "x-openwebui-chat-id", "x-conversation-id")


@dataclass(frozen=True, slots=True)
class Services:
    """The gateway's app-scoped services, built once by the lifespan (gateway/app.py) and handed
    to every request as Starlette lifespan state (``request.state.services``)."""

    settings: GatewaySettings
    engine: AsyncEngine
    #: ``None`` without ``REDIS_URL`` (one gateway: locks, quotas and claims in process)
    redis: Redis | None
    registry: DomainRegistry
    breakers: DomainBreakers
    registry_sync: RegistrySync
    store: RunStore
    keys: KeyStore
    auth: Authenticator
    points: ConversationPoints
    turns: TurnService
    background: BackgroundRuns
    quotas: Quotas
    #: MCP servers registered as domains (the domain client's)
    mcp_domains: McpDomains


def services(request: Request) -> Services:
    """The request's :class:`Services` (a plain function: no dependency to solve)."""
    found: Services = request.state.services
    return found


# ``async`` on purpose: FastAPI runs a plain ``def`` dependency in a worker thread, and a thread
# hop costs more than the attribute lookup it would run.
async def _services(request: Request) -> Services:
    return services(request)


async def _settings(request: Request) -> GatewaySettings:
    return services(request).settings


async def _turns(request: Request) -> TurnService:
    return services(request).turns


async def _registry(request: Request) -> DomainRegistry:
    return services(request).registry


async def _store(request: Request) -> RunStore:
    return services(request).store


async def _registry_sync(request: Request) -> RegistrySync:
    return services(request).registry_sync


async def _points(request: Request) -> ConversationPoints:
    return services(request).points


async def _mcp_domains(request: Request) -> McpDomains:
    return services(request).mcp_domains


async def _keys(request: Request) -> KeyStore:
    return services(request).keys


async def _auth(request: Request) -> Authenticator:
    return services(request).auth


async def current_principal(request: Request) -> Principal:
    """The request's principal, resolved once per request (FastAPI caches a dependency), and its
    key's request rate counted (gateway/coordination/quotas.py) before any handler runs."""
    found = services(request)
    return await principal_of(request, found.auth, found.quotas)


async def require_admin(
    request: Request, principal: Annotated[Principal, Depends(current_principal)]
) -> None:
    admin_only(principal, services(request).auth)


#: The ``/v1`` routers' dependency: the same callable as the principal, so it is resolved once.
require_api_key = current_principal

ServicesDep = Annotated[Services, Depends(_services)]
RegistrySyncDep = Annotated[RegistrySync, Depends(_registry_sync)]
McpDomainsDep = Annotated[McpDomains, Depends(_mcp_domains)]
SettingsDep = Annotated[GatewaySettings, Depends(_settings)]
TurnsDep = Annotated[TurnService, Depends(_turns)]
RegistryDep = Annotated[DomainRegistry, Depends(_registry)]
StoreDep = Annotated[RunStore, Depends(_store)]
#: Who is calling (tenant and role); resolved once per request, with the ``/v1`` key check.
PrincipalDep = Annotated[Principal, Depends(current_principal)]
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
    check_body(body, max_message_chars=services(request).settings.max_message_chars)


_BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})
#: For ``dependencies=[...]`` of the ``/v1`` routers, after the key check.
CheckedRequest = Depends(_checked_request)


async def _run_slot(request: Request, principal: PrincipalDep) -> AsyncIterator[RunSlot]:
    """A place in the caller's concurrent-run quota (gateway/coordination/quotas.py) for a request that runs
    a turn, held until its response has been sent (a stream's included); other requests pass."""
    # the scope's path, as the overhead header's middleware reads it (no URL object built)
    if not is_turn_route(request.method, request.scope["path"]):
        yield RunSlot()
        return
    slot = await services(request).quotas.run_slot(principal)
    try:
        yield slot
    finally:
        await slot.release()


#: For ``dependencies=[...]`` of the routers that run turns, after the key check; a route that
#: hands its turn to the background takes the same slot with :data:`RunSlotDep`.
RunQuota = Depends(_run_slot)
RunSlotDep = Annotated[RunSlot, Depends(_run_slot)]
