"""Runtime domain registrations: kept in the database, announced to other gateways through Redis.

``POST /v1/domains`` registers in this process's :class:`DomainRegistry` (the manifest is fetched
and accepted first), then writes the registration to the database (:mod:`gateway.registrations`);
``DELETE`` removes both. At start the bootstrap file is loaded first, then the stored
registrations (:meth:`RegistrySync.restore`), so a stored registration overrides a bootstrap entry
of the same name; a stored domain that is down at start is listed unhealthy and re-checked by the
background health refresh, never dropped.

With Redis, every change bumps a version counter; every gateway compares it before serving a turn
or a registry call (one GET) and, when it moved, reloads the registrations from the database.
Redis holds no registration itself. Without Redis, gateways sharing one database see each other's
registrations at their next start.
"""

from __future__ import annotations

import contextlib
import json
import logging
import tempfile
from pathlib import Path

from redis.asyncio import Redis

from gateway.registrations import RegistrationStore
from orchestrator.registry import DomainRegistry, RegisteredDomain
from shared.errors import NotFound, PlatformError

log = logging.getLogger(__name__)


class RegistrySync:
    def __init__(
        self,
        registry: DomainRegistry,
        redis: Redis | None,
        store: RegistrationStore,
        prefix: str = "orch:registry:",
    ):
        self.registry = registry
        self.redis = redis
        self.store = store
        self._version = prefix + "version"
        self._seen: bytes | None = None
        #: name -> base URL of the stored registrations this process has applied
        self._applied: dict[str, str] = {}

    async def restore(self) -> None:
        """Load the stored registrations on top of the bootstrap entries; call once at start."""
        self._seen = await self._current_version()
        stored = {r.name: r.base_url for r in await self.store.all()}
        if stored:
            await _load_tolerantly(self.registry, stored)
            log.info("restored %d runtime domain registration(s): %s", len(stored), ", ".join(sorted(stored)))
        self._applied = stored

    async def register(self, name: str, base_url: str, registered_by: str = "") -> RegisteredDomain:
        replaced = self.registry.get(name)
        registered = await self.registry.register(name, base_url)
        try:
            await self.store.save(name, registered.base_url, registered_by)
        except Exception:
            # not stored means not registered: the admin sees the error and may retry
            if replaced is None:
                await self.registry.unregister(name)
            raise
        self._applied[name] = registered.base_url
        await self._announce()
        return registered

    async def unregister(self, name: str) -> None:
        await self.registry.unregister(name)
        await self.store.delete(name)
        self._applied.pop(name, None)
        await self._announce()

    async def sync(self) -> None:
        """Apply registrations made by other gateways since the last look."""
        if self.redis is None:
            return
        version = await self._current_version()
        if version is None or version == self._seen:
            return
        stored = {r.name: r.base_url for r in await self.store.all()}
        for name in sorted(self._applied.keys() - stored.keys()):
            with contextlib.suppress(NotFound):  # already gone here
                await self.registry.unregister(name)
        for name, url in sorted(stored.items()):
            current = self.registry.get(name)
            if current is not None and current.base_url == url and self._applied.get(name) == url:
                continue
            try:
                await self.registry.register(name, url)
            except PlatformError as exc:  # that domain is down or broken right now: keep the rest
                log.warning("could not apply stored registration of %s: %s", name, exc.message)
        self._applied = stored
        self._seen = version

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


async def _load_tolerantly(registry: DomainRegistry, entries: dict[str, str]) -> None:
    """Add ``entries`` the way the bootstrap file's are added: a domain that is down is listed
    unhealthy (and re-checked by the health refresh) instead of refused."""
    with tempfile.TemporaryDirectory(prefix="registrations-") as folder:
        path = Path(folder) / "stored.json"
        path.write_text(json.dumps({"domains": [{"name": n, "base_url": u} for n, u in entries.items()]}))
        await registry.load_bootstrap(path)
