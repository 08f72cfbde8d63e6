"""``Annotated`` dependency aliases, defined once."""

from __future__ import annotations

import uuid
from typing import Annotated, Any

from fastapi import Depends, Request

from gateway.registry_sync import RegistrySync
from gateway.runs import RunStore
from gateway.settings import GatewaySettings
from gateway.turn import TurnService
from orchestrator.registry import DomainRegistry
from shared.errors import InvalidRequest

SESSION_HEADERS = ("x-session-id", "x-openwebui-chat-id", "x-conversation-id")
MAX_SESSION_ID = 128


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


RegistrySyncDep = Annotated[RegistrySync, Depends(_registry_sync)]
SettingsDep = Annotated[GatewaySettings, Depends(_settings)]
TurnsDep = Annotated[TurnService, Depends(_turns)]
RegistryDep = Annotated[DomainRegistry, Depends(_registry)]
StoreDep = Annotated[RunStore, Depends(_store)]


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
    if len(candidate) > MAX_SESSION_ID or not candidate.isprintable():
        raise InvalidRequest(
            f"session id must be at most {MAX_SESSION_ID} printable characters", param="session_id"
        )
    return candidate
