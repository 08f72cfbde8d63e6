"""Who is calling: a principal is a tenant and a role, named by an API key.

Keys come from two places: ``API_KEYS`` (each listed key is a tenant of its own, role ``user``;
``ADMIN_TOKEN`` is the ``admin`` tenant's admin key) and the ``api_keys`` table, managed through
``/v1/admin/keys`` and ``orchestrator keys``. The table holds a key's SHA-256, never the key: the
plain key is shown once, when it is created. A key is long and random, so one unsalted hash is
enough (nothing to brute-force a dictionary against) and lets a request find its row by index.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import DateTime, String, bindparam, select
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlalchemy.orm import Mapped, mapped_column

from shared.clock import utcnow
from shared.db import Base, session_factory, unit_of_work
from shared.errors import InvalidRequest

#: ``approver``: a user that may also list, approve and reject its tenant's pending approvals.
Role = Literal["user", "admin", "approver"]
ROLES: tuple[Role, ...] = ("user", "admin", "approver")


def as_role(stored: str) -> Role:
    """A stored role as one the gateway knows; anything else is the least one, ``user``."""
    return next((role for role in ROLES if role == stored), "user")


#: Every caller of a gateway with no key configured at all (open mode).
ANONYMOUS_TENANT = "anonymous"
#: The tenant of ``ADMIN_TOKEN``.
ADMIN_TENANT = "admin"
#: The Telegram webhook's tenant: its sessions are ``telegram-<chat id>`` and no key reads them.
TELEGRAM_TENANT = "telegram"
TELEGRAM_SESSION_PREFIX = "telegram-"
#: Tenants the gateway itself names: a key created for one would read what it owns.
RESERVED_TENANTS = frozenset({ANONYMOUS_TENANT, ADMIN_TENANT, TELEGRAM_TENANT})
TENANT_PATTERN = r"^[a-z0-9][a-z0-9_.\-]{0,63}$"
#: Prefix of the keys the gateway makes, so a leaked one is recognisable in a secret scanner.
KEY_PREFIX = "ork_"


@dataclass(frozen=True, slots=True)
class Principal:
    tenant: str
    role: Role = "user"
    #: ``False`` only for open mode's anonymous caller, who presented no key it knows.
    authenticated: bool = True
    #: The ``api_keys`` row, for keys stored in the database.
    key_id: str | None = None

    @property
    def is_admin(self) -> bool:
        return self.role == "admin"

    @property
    def is_approver(self) -> bool:
        return self.role == "approver"


ANONYMOUS = Principal(ANONYMOUS_TENANT, authenticated=False)


def hash_key(key: str) -> str:
    """The stored form of a key: its SHA-256, hex.

    >>> hash_key("k1")[:12]
    '6ab9f1eb8f7d'
    """
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def env_tenant(key: str) -> str:
    """The tenant of a key listed in ``API_KEYS``: stable across restarts, and naming the key
    without revealing it (a prefix of its hash).

    >>> env_tenant("k1")
    'key-6ab9f1eb8f7d'
    """
    return f"key-{hash_key(key)[:12]}"


#: The names :func:`env_tenant` gives: a key created for one would read an ``API_KEYS`` tenant's.
_DERIVED_TENANT = re.compile(r"^key-[0-9a-f]{12}$")


def reserved_tenant(tenant: str) -> bool:
    """A tenant name no stored key may take: one the gateway names itself, or one derived from a
    key (whether or not that key is configured now: it may be later).

    >>> reserved_tenant("admin"), reserved_tenant(env_tenant("k1")), reserved_tenant("acme")
    (True, True, False)
    """
    return tenant in RESERVED_TENANTS or _DERIVED_TENANT.match(tenant) is not None


def same_hash(a: str, b: str) -> bool:
    return hmac.compare_digest(a.encode(), b.encode())


def new_key() -> str:
    return KEY_PREFIX + secrets.token_urlsafe(32)


class ApiKeyRow(Base):
    __tablename__ = "api_keys"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    tenant: Mapped[str] = mapped_column(String(64), index=True)
    role: Mapped[str] = mapped_column(String(16))
    #: SHA-256 of the key, hex; the key itself is never stored.
    key_hash: Mapped[str] = mapped_column(String(64), unique=True)
    label: Mapped[str] = mapped_column(String(200), default="")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


_ACTIVE_KEY = select(ApiKeyRow.id, ApiKeyRow.tenant, ApiKeyRow.role, ApiKeyRow.key_hash).where(
    ApiKeyRow.key_hash == bindparam("p_hash"), ApiKeyRow.revoked_at.is_(None)
)


class NewKey(BaseModel):
    """``POST /v1/admin/keys``."""

    model_config = ConfigDict(extra="forbid")
    tenant: str = Field(pattern=TENANT_PATTERN, description="The tenant the key acts as")
    role: Role = "user"
    label: str = Field(default="", max_length=200, description="A note for people: who holds it")


class KeyView(BaseModel):
    """A stored key as the admin API lists it: never the key, never its hash."""

    id: str
    tenant: str
    role: Role
    label: str
    created_at: datetime
    revoked_at: datetime | None

    @classmethod
    def of(cls, row: ApiKeyRow) -> KeyView:
        return cls(
            id=row.id,
            tenant=row.tenant,
            role=as_role(row.role),
            label=row.label,
            created_at=row.created_at,
            revoked_at=row.revoked_at,
        )


class CreatedKey(KeyView):
    #: The key itself, shown this once.
    key: str


class KeyStore:
    """The ``api_keys`` table; one short transaction per call."""

    def __init__(self, engine: AsyncEngine):
        self._engine = engine
        self._sessions = session_factory(engine)

    async def create(self, request: NewKey) -> CreatedKey:
        if reserved_tenant(request.tenant):
            raise InvalidRequest(
                f"tenant '{request.tenant}' is reserved by the gateway; choose another name", param="tenant"
            )
        key = new_key()
        row = ApiKeyRow(
            id=f"key_{uuid.uuid4().hex[:20]}",
            tenant=request.tenant,
            role=request.role,
            key_hash=hash_key(key),
            label=request.label,
            created_at=utcnow(),
        )
        async with unit_of_work(self._sessions) as db:
            db.add(row)
        return CreatedKey(**KeyView.of(row).model_dump(), key=key)

    async def list(self) -> list[KeyView]:
        async with self._sessions() as db:
            rows = await db.scalars(select(ApiKeyRow).order_by(ApiKeyRow.created_at, ApiKeyRow.id))
            return [KeyView.of(r) for r in rows]

    async def revoke(self, key_id: str) -> KeyView | None:
        """Revoke the key (kept, with ``revoked_at``, so the list shows who had access)."""
        async with unit_of_work(self._sessions) as db:
            row = await db.get(ApiKeyRow, key_id)
            if row is None:
                return None
            if row.revoked_at is None:
                row.revoked_at = utcnow()
            return KeyView.of(row)

    async def principal_for(self, key: str) -> Principal | None:
        """The principal of an active stored key, or ``None``."""
        digest = hash_key(key)
        # a Core statement on a plain connection: this runs for every uncached key
        async with self._engine.connect() as conn:
            row = (await conn.execute(_ACTIVE_KEY, {"p_hash": digest})).first()
        # the index found it by hash; compare again in constant time, as every key check does
        if row is None or not same_hash(row.key_hash, digest):
            return None
        return Principal(row.tenant, as_role(row.role), key_id=row.id)

    async def has_active(self) -> bool:
        async with self._sessions() as db:
            found = await db.scalars(select(ApiKeyRow.id).where(ApiKeyRow.revoked_at.is_(None)).limit(1))
            return found.first() is not None
