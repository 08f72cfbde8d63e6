"""Domain registry admin: list, register at runtime, unregister (``ADMIN_TOKEN``)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends
from pydantic import BaseModel, ConfigDict, Field

from gateway.auth import require_admin
from gateway.deps import RegistryDep, RegistrySyncDep

router = APIRouter()


class RegisterDomain(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(pattern=r"^[a-z][a-z0-9_\-]*$", max_length=64)
    base_url: str = Field(pattern=r"^https?://", max_length=2048)


@router.get("/v1/domains")
async def list_domains(registry: RegistryDep, shared: RegistrySyncDep) -> dict[str, Any]:
    await shared.sync()
    return {"object": "list", "data": [d.model_dump(mode="json") for d in registry.list()]}


@router.post("/v1/domains", dependencies=[Depends(require_admin)], status_code=201)
async def register_domain(body: RegisterDomain, shared: RegistrySyncDep) -> dict[str, Any]:
    registered = await shared.register(body.name, body.base_url)
    return registered.model_dump(mode="json")


@router.delete("/v1/domains/{name}", dependencies=[Depends(require_admin)])
async def unregister_domain(name: str, shared: RegistrySyncDep) -> dict[str, Any]:
    await shared.unregister(name)
    return {"name": name, "deleted": True}
