"""Domain registry admin: list, register at runtime, unregister (``ADMIN_TOKEN``).

Runtime registrations are stored in the database and restored at start (:mod:`gateway.registry_sync`).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, ConfigDict, Field

from gateway.auth import require_admin
from gateway.deps import RegistryDep, RegistrySyncDep

router = APIRouter()


class RegisterDomain(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(pattern=r"^[a-z][a-z0-9_\-]*$", max_length=64)
    base_url: str = Field(pattern=r"^https?://", max_length=2048)
    #: Accept goals that read like another domain's (refused otherwise).
    allow_overlap: bool = False


@router.get("/v1/domains")
async def list_domains(registry: RegistryDep, shared: RegistrySyncDep) -> dict[str, Any]:
    await shared.sync()
    return {"object": "list", "data": [d.model_dump(mode="json") for d in registry.list()]}


@router.post("/v1/domains", dependencies=[Depends(require_admin)], status_code=201)
async def register_domain(body: RegisterDomain, request: Request, shared: RegistrySyncDep) -> dict[str, Any]:
    # every check first, so an overlap the admin did not accept is refused before anything is stored
    await shared.registry.vet(body.name, body.base_url, allow_overlap=body.allow_overlap)
    # who registered it, without the token: the admin client's address
    registered_by = request.client.host if request.client else ""
    registered = await shared.register(body.name, body.base_url, registered_by)
    return registered.model_dump(mode="json")


@router.delete("/v1/domains/{name}", dependencies=[Depends(require_admin)])
async def unregister_domain(name: str, shared: RegistrySyncDep) -> dict[str, Any]:
    await shared.unregister(name)
    return {"name": name, "deleted": True}
