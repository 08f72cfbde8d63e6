"""Runtime domain registrations: kept in the database, announced to other gateways through Redis.

``POST /v1/domains`` registers in this process's :class:`DomainRegistry` (the manifest is fetched
and accepted first), then writes the registration to the database (:mod:`gateway.storage.registrations`);
``DELETE`` removes both. At start the bootstrap file is loaded first, then the stored
registrations (:meth:`RegistrySync.restore`), so a stored registration overrides a bootstrap entry
of the same name; a stored domain that is down at start is listed unhealthy and re-checked by the
background health refresh, never dropped.

With Redis, every change bumps a version counter; every gateway compares it before serving a turn
or a registry call (one GET) and, when it moved, reloads the registrations from the database.
Redis holds no registration itself. Without Redis, gateways sharing one database see each other's
registrations at their next start.

What an admin gave with an MCP server (description, goals) is stored with its registration and
handed to :class:`~orchestrator.mcp_domain.McpDomains` before the server's manifest is built,
at start and on every reload, so every gateway builds the same goals.

A reload is done once however many turns notice the change at the same time: they all wait for the
same one. Replaying a registration retrains intent only as a warm start (``intent.incremental``,
about a second); the full training follows in the background, and gateways sharing
``INTENT_CACHE_DIR`` run it once: the first to start it trains and stores the model, the others
wait for it and load it (``intent.model_store.ModelStore.training``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import tempfile
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from redis.asyncio import Redis

from gateway.storage.registrations import RegistrationStore, StoredRegistration
from orchestrator.domain_transport import DomainKind
from orchestrator.mcp_domain import McpDomains, McpRegistration
from orchestrator.registry import DomainRegistry, RegisteredDomain
from shared.errors import NotFound, PlatformError

log = logging.getLogger(__name__)

#: What a stored registration says: its base URL and, for an MCP server, what the admin gave.
Applied = tuple[str, dict[str, Any] | None]


class RegistrySync:
    def __init__(
        self,
        registry: DomainRegistry,
        redis: Redis | None,
        store: RegistrationStore,
        prefix: str = "orch:registry:",
        mcp: McpDomains | None = None,
    ):
        self.registry = registry
        self.redis = redis
        self.store = store
        self.mcp = mcp
        self._version = prefix + "version"
        self._seen: bytes | None = None
        #: name -> what this process has applied of each stored registration
        self._applied: dict[str, Applied] = {}
        #: the reload under way, shared by every caller of ``sync`` meanwhile
        self._reloading: asyncio.Task[None] | None = None

    async def restore(self) -> None:
        """Load the stored registrations on top of the bootstrap entries; call once at start."""
        self._seen = await self._current_version()
        rows = await self.store.all()
        for row in rows:
            # held to what the admin accepted, whatever the domain serves now
            self.registry.remember_accepted(row.name, row.accepted_goals)
        stored = _applied_of(rows)
        for name, (_url, given) in stored.items():
            self._configure(name, given)
        if stored:
            await _load_tolerantly(self.registry, {name: url for name, (url, _given) in stored.items()})
            log.info("restored %d runtime domain registration(s): %s", len(stored), ", ".join(sorted(stored)))
        self._applied = stored

    async def register(
        self, name: str, base_url: str, registered_by: str = "", *, allow_overlap: bool = True
    ) -> RegisteredDomain:
        replaced = self.registry.get(name)
        registered = await self.registry.register(name, base_url, allow_overlap=allow_overlap)
        given = self._given(registered)
        accepted = self.registry.accepted_goals(name)
        self.registry.remember_accepted(name, accepted)
        try:
            await self.store.save(name, registered.base_url, registered_by, given, accepted)
        except Exception:
            # not stored means not registered: the admin sees the error and may retry
            if replaced is None:
                await self.registry.unregister(name)
            raise
        self._applied[name] = (registered.base_url, given)
        await self._announce()
        return registered

    async def unregister(self, name: str) -> None:
        await self.registry.unregister(name)
        self.registry.remember_accepted(name, None)
        await self.store.delete(name)
        self._applied.pop(name, None)
        await self._announce()

    async def sync(self) -> None:
        """Apply registrations made by other gateways since the last look; callers arriving
        while a reload runs wait for that one instead of replaying the change again."""
        if self.redis is None:
            return
        version = await self._current_version()
        while version is not None and version != self._seen:
            if self._reloading is None or self._reloading.done():
                self._reloading = asyncio.create_task(self._reload(version))
            # shielded: a turn that gives up waiting must not cancel the reload others wait for
            await asyncio.shield(self._reloading)
            if self._seen != version:  # the reload that ran was for an older version
                version = await self._current_version()

    async def _reload(self, version: bytes) -> None:
        rows = await self.store.all()
        accepted = {row.name: row.accepted_goals for row in rows}
        stored = _applied_of(rows)
        for name in sorted(self._applied.keys() - stored.keys()):
            with contextlib.suppress(NotFound):  # already gone here
                await self.registry.unregister(name)
            self.registry.remember_accepted(name, None)
            if self.mcp is not None:
                self.mcp.forget(name)
        for name, (url, given) in sorted(stored.items()):
            current = self.registry.get(name)
            if current is not None and current.base_url == url and self._applied.get(name) == (url, given):
                continue
            self._configure(name, given)
            self.registry.remember_accepted(name, accepted[name])
            try:
                await self.registry.register(name, url, accepted_goals=accepted[name])
            except PlatformError as exc:  # that domain is down or broken right now: keep the rest
                log.warning("could not apply stored registration of %s: %s", name, exc.message)
        self._applied = stored
        self._seen = version

    def _given(self, registered: RegisteredDomain) -> dict[str, Any] | None:
        """What the admin gave with the MCP server ``registered`` (None for other domains)."""
        if self.mcp is None or registered.kind is not DomainKind.MCP:
            return None
        registration = self.mcp.registration(registered.name)
        return None if registration is None else registration.model_dump(mode="json", exclude_defaults=True)

    def _configure(self, name: str, given: dict[str, Any] | None) -> None:
        """Build ``name``'s MCP manifest with the stored ``given`` from now on (generated goals
        when there is none; a stored value this version cannot read is logged and ignored)."""
        if self.mcp is None:
            return
        if given is None:
            self.mcp.forget(name)
            return
        try:
            self.mcp.configure(name, McpRegistration.model_validate(given))
        except ValidationError:
            log.warning("stored goals of %s are not valid: its goals are generated from its tools", name)
            self.mcp.forget(name)

    async def _announce(self) -> None:
        if self.redis is None:
            return
        bumped = int(await self.redis.incr(self._version))
        # only when nobody else changed anything since our last look: otherwise the next sync reloads
        if self._seen == str(bumped - 1).encode() or (self._seen is None and bumped == 1):
            self._seen = str(bumped).encode()

    async def _current_version(self) -> bytes | None:
        if self.redis is None:
            return None
        version = await self.redis.get(self._version)
        if version is None:
            return None
        return version if isinstance(version, bytes) else str(version).encode()


def _applied_of(rows: list[StoredRegistration]) -> dict[str, Applied]:
    return {r.name: (r.base_url, r.mcp_registration) for r in rows}


async def _load_tolerantly(registry: DomainRegistry, entries: dict[str, str]) -> None:
    """Add ``entries`` the way the bootstrap file's are added: a domain that is down is listed
    unhealthy (and re-checked by the health refresh) instead of refused."""
    with tempfile.TemporaryDirectory(prefix="registrations-") as folder:
        path = Path(folder) / "stored.json"
        path.write_text(json.dumps({"domains": [{"name": n, "base_url": u} for n, u in entries.items()]}))
        await registry.load_bootstrap(path)
