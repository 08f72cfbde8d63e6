"""Bearer-key checks for ``/v1/*`` and the admin routes."""

from __future__ import annotations

import hmac

from fastapi import Request

from shared.errors import Forbidden, Unauthorized


def _bearer(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def _matches(token: str, keys: frozenset[str]) -> bool:
    # compare every key in constant time so timing does not reveal which prefix matched
    return any(hmac.compare_digest(token.encode(), key.encode()) for key in keys)


async def require_api_key(request: Request) -> None:
    keys: frozenset[str] = request.app.state.settings.api_key_set()
    if not keys:
        return
    token = _bearer(request)
    if token is None:
        raise Unauthorized("Missing API key: send 'Authorization: Bearer <key>'.")
    if not _matches(token, keys):
        raise Unauthorized("Incorrect API key provided.")


async def require_admin(request: Request) -> None:
    admin = request.app.state.settings.admin_token
    if admin is None:
        raise Forbidden("Runtime domain registration is disabled: set ADMIN_TOKEN to enable it.")
    token = _bearer(request) or request.headers.get("x-admin-token")
    if token is None or not _matches(token, frozenset({admin.get_secret_value()})):
        raise Unauthorized("Admin routes need 'Authorization: Bearer <ADMIN_TOKEN>'.")
