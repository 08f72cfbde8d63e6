"""Bearer keys to principals for ``/v1/*``, and the admin role check.

:class:`Authenticator` knows the keys of ``API_KEYS`` and ``ADMIN_TOKEN`` (as hashes, compared in
constant time) and asks the ``api_keys`` table for the others. A stored key found is trusted for
``AUTH_CACHE_S``, so a key revoked through another gateway or the CLI stops working within that
time (at once on the gateway that revoked it); an unknown key is looked up on every request, so a
new key works at once everywhere. With no key configured anywhere, ``/v1/*`` is open and every
caller is the one anonymous tenant.
"""

from __future__ import annotations

import time

from fastapi import Request

from gateway.coordination.quotas import Quotas
from gateway.settings import GatewaySettings
from gateway.storage.principals import (
    ADMIN_TENANT,
    ANONYMOUS,
    ANONYMOUS_TENANT,
    KeyStore,
    Principal,
    env_tenant,
    hash_key,
    same_hash,
)
from shared.errors import Forbidden, Unauthorized

#: Stored keys remembered at most; past it the oldest are forgotten (looked up again).
_CACHE_MAX = 10_000


def _bearer(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


class Authenticator:
    def __init__(self, settings: GatewaySettings, keys: KeyStore | None):
        listed = {k.strip() for k in settings.api_keys.split(",") if k.strip()}
        #: hash -> principal of every ``API_KEYS`` key
        self._env = {hash_key(k): Principal(env_tenant(k)) for k in listed}
        self._admin = hash_key(settings.admin_token.get_secret_value()) if settings.admin_token else None
        self.admin_configured = self._admin is not None
        self._keys = keys
        self._ttl = settings.auth_cache_s
        self._stored: dict[str, tuple[float, Principal]] = {}
        self._any_stored: tuple[float, bool] | None = None

    def forget(self) -> None:
        """Drop what was cached from the table (after this gateway created or revoked a key)."""
        self._stored.clear()
        self._any_stored = None

    async def principal(self, token: str | None, admin_header: str | None = None) -> Principal:
        """The caller of a request with bearer ``token``; ``Unauthorized`` if keys are
        configured and it names none of them."""
        for candidate in (token, admin_header):
            if candidate and self._admin is not None and same_hash(hash_key(candidate), self._admin):
                # open mode stays one tenant: the admin token only adds the admin role there
                open_mode = await self._open()
                return Principal(ANONYMOUS_TENANT if open_mode else ADMIN_TENANT, "admin")
        if token:
            digest = hash_key(token)
            # every listed key is compared, so timing does not tell which one came close
            matches = [p for h, p in self._env.items() if same_hash(h, digest)]
            if matches:
                return matches[0]
            stored = await self._stored_principal(token, digest)
            if stored is not None:
                return stored
        if await self._open():
            return ANONYMOUS
        if token is None:
            raise Unauthorized("Missing API key: send 'Authorization: Bearer <key>'.")
        raise Unauthorized("Incorrect API key provided.")

    async def _stored_principal(self, token: str, digest: str) -> Principal | None:
        if self._keys is None:
            return None
        now = time.monotonic()
        cached = self._stored.get(digest)
        if cached is not None and cached[0] > now:
            return cached[1]
        found = await self._keys.principal_for(token)
        if found is None:
            self._stored.pop(digest, None)
            return None
        if self._ttl > 0:
            if len(self._stored) >= _CACHE_MAX:
                self._stored.pop(next(iter(self._stored)))
            self._stored[digest] = (now + self._ttl, found)
        return found

    async def _open(self) -> bool:
        """No key configured: none listed and no active key stored."""
        if self._env:
            return False
        if self._keys is None:
            return True
        now = time.monotonic()
        if self._any_stored is not None and self._any_stored[0] > now:
            return not self._any_stored[1]
        any_stored = await self._keys.has_active()
        self._any_stored = (now + self._ttl, any_stored)
        return not any_stored


async def principal_of(request: Request, auth: Authenticator, quotas: Quotas) -> Principal:
    """The request's principal (its bearer key or admin token), with its key's request rate
    counted (gateway/coordination/quotas.py). Its tenant reaches a turn as the ``tenant``
    argument of :meth:`~gateway.turns.turn.TurnService.handle`, passed by each channel."""
    principal = await auth.principal(_bearer(request), request.headers.get("x-admin-token"))
    await quotas.check_rate(principal)
    return principal


def admin_only(principal: Principal, auth: Authenticator) -> None:
    """Nothing for an admin; otherwise the 401 or 403 that says why not."""
    if principal.is_admin:
        return
    if principal.authenticated:
        raise Forbidden(f"This API key has the {principal.role} role: admin routes need an admin key.")
    if not auth.admin_configured:
        raise Forbidden("Admin routes are disabled: set ADMIN_TOKEN (or create an admin key) to enable them.")
    raise Unauthorized("Admin routes need 'Authorization: Bearer <ADMIN_TOKEN or an admin key>'.")
