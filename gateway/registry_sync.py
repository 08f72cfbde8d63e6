"""Runtime domain registrations shared by every gateway process through Redis.

A registration or removal on one gateway is written to a Redis hash (``name -> base_url``, an
empty URL meaning "removed") and bumps a version counter; every gateway compares that counter
before serving a turn or a registry call (one GET) and replays what changed. Without Redis the
registry is simply per process.
"""

from __future__ import annotations

import logging

from redis.asyncio import Redis

from orchestrator.registry import DomainRegistry, RegisteredDomain
from shared.errors import NotFound, PlatformError

log = logging.getLogger(__name__)


class RegistrySync:
    def __init__(self, registry: DomainRegistry, redis: Redis | None, prefix: str = "orch:registry:"):
        self.registry = registry
        self.redis = redis
        self._entries = prefix + "domains"
        self._version = prefix + "version"
        self._seen: bytes | None = None

    async def register(self, name: str, base_url: str) -> RegisteredDomain:
        registered = await self.registry.register(name, base_url)
        if self.redis is not None:
            await self.redis.hset(self._entries, name, registered.base_url)
            await self._bump()
        return registered

    async def unregister(self, name: str) -> None:
        await self.registry.unregister(name)
        if self.redis is not None:
            await self.redis.hset(self._entries, name, "")
            await self._bump()

    async def _bump(self) -> None:
        assert self.redis is not None
        self._seen = str(await self.redis.incr(self._version)).encode()

    async def sync(self) -> None:
        """Apply registrations made by other gateways since the last look."""
        if self.redis is None:
            return
        version = await self.redis.get(self._version)
        if version is None or version == self._seen:
            return
        entries = await self.redis.hgetall(self._entries)
        for raw_name, raw_url in entries.items():
            name, url = _text(raw_name), _text(raw_url)
            current = self.registry.get(name)
            try:
                if not url and current is not None:
                    await self.registry.unregister(name)
                elif url and (current is None or current.base_url != url.rstrip("/")):
                    await self.registry.register(name, url)
            except NotFound:
                pass
            except PlatformError as exc:  # that domain is down or broken right now: keep the rest
                log.warning("could not apply shared registration of %s: %s", name, exc.message)
        self._seen = version if isinstance(version, bytes) else str(version).encode()


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
