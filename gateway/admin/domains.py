"""Domain registry admin: list, register at runtime, unregister (the admin role).

Any key may list the domains; where they live and why one is down (``base_url``,
``last_error``) only an admin key sees (or anyone, in open mode).

Runtime registrations are stored in the database and restored at start
(:mod:`gateway.coordination.registry_sync`).
``kind: "mcp"`` registers an MCP server by its streamable HTTP endpoint: its tools are the domain's
capabilities (:mod:`orchestrator.mcp_domain`, docs/mcp.md). ``kind: "a2a"`` registers a remote A2A
agent by its agent card: its skills are the domain's goals (:mod:`orchestrator.a2a_domain`, docs/a2a.md).
"""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, ConfigDict, Field

from gateway.deps import McpDomainsDep, PrincipalDep, RegistryDep, RegistrySyncDep, require_admin
from orchestrator.a2a_domain import agent_card_url
from orchestrator.mcp_domain import McpRegistration, mcp_base_url
from shared.errors import InvalidRequest
from shared.manifest import DOMAIN_NAME_MAX_LENGTH, IDENTIFIER, Goal, RegistrationText

router = APIRouter()

#: Said with every registration: on a large catalog the new goals are first learned by a quick
#: warm start and the full training follows in the background (intent.incremental).
RETRAINING_NOTE = (
    "The intent model has learned the new goals; its full training may still be finishing in the "
    "background, so for a few seconds answers to requests near these goals may shift."
)

#: What a domain's entry says about the operator's network, for admin keys only.
_ADMIN_FIELDS = {"base_url", "last_error"}


class RegisterDomain(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(pattern=IDENTIFIER, max_length=DOMAIN_NAME_MAX_LENGTH)
    base_url: str = Field(pattern=r"^https?://", max_length=2048)
    #: Accept goals that read like another domain's (refused otherwise).
    allow_overlap: bool = False
    #: ``http``: a domain service (its ``/manifest``); ``mcp``: an MCP server, ``base_url`` its
    #: streamable HTTP endpoint (``http://host:port/mcp``), its tools the capabilities.
    #: ``a2a``: a remote A2A agent, ``base_url`` its agent card's URL (or the agent's base URL, to
    #: which ``/.well-known/agent-card.json`` is added), its skills the goals.
    kind: Literal["http", "mcp", "a2a"] = "http"
    #: ``mcp`` only: the domain's description, by language (``{"pt": …, "en": …}``) or one string
    #: (default: the server's instructions).
    description: RegistrationText | None = None
    #: ``mcp`` only: the goals people ask for (default: one generated per tool).
    goals: list[Goal] | None = Field(default=None, max_length=64)


@router.get("/v1/domains")
async def list_domains(
    registry: RegistryDep, shared: RegistrySyncDep, principal: PrincipalDep
) -> dict[str, Any]:
    await shared.sync()
    # open mode (no key configured, local use) keeps showing them, as it shows everything else
    hidden = _ADMIN_FIELDS if principal.authenticated and not principal.is_admin else None
    return {"object": "list", "data": [d.model_dump(mode="json", exclude=hidden) for d in registry.list()]}


@router.post("/v1/domains", dependencies=[Depends(require_admin)], status_code=201)
async def register_domain(
    body: RegisterDomain, request: Request, shared: RegistrySyncDep, mcp: McpDomainsDep
) -> dict[str, Any]:
    base_url, registration = body.base_url, None
    if body.kind == "mcp":
        base_url = mcp_base_url(body.base_url)
        registration = McpRegistration(description=body.description, goals=body.goals or [])
    elif body.goals is not None or body.description is not None:
        raise InvalidRequest(
            "goals and description are given only for kind 'mcp' (a domain service's manifest has them)",
            param="goals" if body.goals is not None else "description",
        )
    elif body.kind == "a2a":
        base_url = agent_card_url(body.base_url)
    with mcp.proposed(body.name, registration):
        # who registered it, without the token: the admin client's address
        registered_by = request.client.host if request.client else ""
        # every check is made before anything is stored: an overlap the admin did not accept is refused
        registered = await shared.register(
            body.name, base_url, registered_by, allow_overlap=body.allow_overlap
        )
    return {**registered.model_dump(mode="json"), "notes": [RETRAINING_NOTE]}


@router.delete("/v1/domains/{name}", dependencies=[Depends(require_admin)])
async def unregister_domain(name: str, shared: RegistrySyncDep, mcp: McpDomainsDep) -> dict[str, Any]:
    await shared.unregister(name)
    mcp.forget(name)
    return {"name": name, "deleted": True}
