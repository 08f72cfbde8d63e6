"""API key admin (the admin role): create a key (shown once), list keys (never a secret), revoke.

The same operations are ``orchestrator keys create|list|revoke`` (:mod:`cli.keys`).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends

from gateway.deps import AuthDep, KeysDep, require_admin
from gateway.storage.principals import CreatedKey, KeyView, NewKey
from shared.errors import NotFound

router = APIRouter(dependencies=[Depends(require_admin)])


@router.post("/v1/admin/keys", status_code=201)
async def create_key(body: NewKey, keys: KeysDep, auth: AuthDep) -> CreatedKey:
    created = await keys.create(body)
    auth.forget()  # this gateway sees the change at once; the others within AUTH_CACHE_S
    return created


@router.get("/v1/admin/keys")
async def list_keys(keys: KeysDep) -> dict[str, Any]:
    return {"object": "list", "data": [k.model_dump(mode="json") for k in await keys.list()]}


@router.delete("/v1/admin/keys/{key_id}")
async def revoke_key(key_id: str, keys: KeysDep, auth: AuthDep) -> KeyView:
    revoked = await keys.revoke(key_id)
    if revoked is None:
        raise NotFound(f"No API key with id '{key_id}'", param="key_id")
    auth.forget()
    return revoked
