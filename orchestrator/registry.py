"""Where domains live and what they offer: the bootstrap file, runtime (un)registration, manifests
validated on the way in, health, and the :class:`~shared.catalog.Catalog` everyone else reads.

A domain that is down at start is listed as unhealthy and retried by :meth:`DomainRegistry.refresh`
(:class:`orchestrator.refresh.HealthRefresh` calls it in the background); it is never fatal. A
domain whose manifest is invalid is refused at runtime registration with the offending field
paths. Subscribers (the intent adapter, the planner) are told whenever the catalog
changes, so a new domain is routable with zero code changes in the core.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import logging
import os
import re
from collections.abc import Awaitable, Callable, Collection, Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from orchestrator.client import DomainClient
from shared.catalog import Catalog
from shared.clock import utcnow
from shared.errors import InvalidRequest, NotFound, PlatformError, SetupError
from shared.manifest import IDENTIFIER, DomainManifest, ManifestInvalid

log = logging.getLogger(__name__)

#: ``intent.lint.goal_overlaps``-shaped: (catalog including the new domain, its name) -> warnings.
LintHook = Callable[[Catalog, str], list[dict[str, Any]]]
CatalogListener = Callable[[Catalog], Awaitable[None] | None]


class RegisteredDomain(BaseModel):
    """A registered domain as the admin API shows it."""

    name: str
    base_url: str
    healthy: bool = False
    version: str | None = None
    goals: list[str] = Field(default_factory=list)
    capabilities: list[str] = Field(default_factory=list)
    last_error: str | None = None
    warnings: list[dict[str, Any]] = Field(default_factory=list)
    checked_at: datetime | None = None


class ManifestRejected(InvalidRequest):
    """Registration refused: the manifest is invalid. ``details`` = ``[{"path", "message"}]``."""

    code = "invalid_manifest"

    def __init__(self, name: str, errors: list[dict[str, str]]):
        listed = "; ".join(f"{e['path']}: {e['message']}" for e in errors)
        super().__init__(
            f"manifest of domain '{name}' is invalid: {listed}", param="manifest", details=errors
        )


#: Aliases for annotations inside ``DomainRegistry``, whose ``list`` method shadows the builtin.
DomainList = list[RegisteredDomain]
Names = list[str]
Warnings = list[dict[str, Any]]


@dataclass
class _Entry:
    info: RegisteredDomain
    manifest: DomainManifest | None = None


def env_override(name: str, env: Mapping[str, str] | None = None) -> str | None:
    """``DOMAIN_URL_<NAME>`` (upper case, ``-`` as ``_``) overrides a bootstrap base URL; the one
    reader of that variable (the registry and ``make run``'s launcher both use it)."""
    return (os.environ if env is None else env).get(f"DOMAIN_URL_{name.upper().replace('-', '_')}")


class DomainRegistry:
    def __init__(
        self,
        client: DomainClient,
        *,
        lint: LintHook | None = None,
        env: Mapping[str, str] | None = None,
    ):
        self._client = client
        self._lint = lint
        self._env = env
        self._entries: dict[str, _Entry] = {}
        self._catalog = Catalog()
        self._listeners: list[CatalogListener] = []
        self._lock = asyncio.Lock()

    # ------------------------------------------------------------------ reading

    @property
    def catalog(self) -> Catalog:
        return self._catalog

    def endpoint(self, domain: str) -> str:
        entry = self._entries.get(domain)
        if entry is None:
            raise NotFound(f"domain '{domain}' is not registered", param="domain")
        return entry.info.base_url

    def get(self, name: str) -> RegisteredDomain | None:
        entry = self._entries.get(name)
        return entry.info.model_copy(deep=True) if entry else None

    def registered(self, name: str) -> bool:
        return name in self._entries

    def unhealthy(self, name: str) -> str | None:
        """Why ``name`` is known to be down (its last health check or call failed), else None.
        Read before every call, so it copies nothing (``get`` copies the whole entry)."""
        entry = self._entries.get(name)
        if entry is None or entry.info.healthy or entry.info.checked_at is None:
            return None
        return entry.info.last_error or "health check failed"

    def list(self) -> DomainList:
        return [self._entries[n].info.model_copy(deep=True) for n in sorted(self._entries)]

    def down(self) -> Names:
        """Names of the domains not known to be healthy (down, broken, or not checked yet)."""
        return sorted(n for n, e in self._entries.items() if not e.info.healthy)

    def subscribe(self, callback: CatalogListener) -> Callable[[], None]:
        """Call ``callback(catalog)`` after every change; returns a function that unsubscribes."""
        self._listeners.append(callback)

        def unsubscribe() -> None:
            if callback in self._listeners:
                self._listeners.remove(callback)

        return unsubscribe

    # ------------------------------------------------------------------ changing

    async def load_bootstrap(self, path: str | Path) -> DomainList:
        """Register every domain of a ``domains.bootstrap.json``; unreachable or invalid ones are
        listed unhealthy with ``last_error`` (retried by :meth:`refresh`). A malformed file is a
        ``SetupError`` naming the field."""
        entries = _read_bootstrap(Path(path))
        async with self._lock:
            for name, url in entries:
                self._entries[name] = _Entry(
                    RegisteredDomain(name=name, base_url=env_override(name, self._env) or url)
                )
            await asyncio.gather(*(self._load(self._entries[name]) for name, _ in entries))
            await self._rebuild()
        return self.list()

    async def register(self, name: str, base_url: str) -> RegisteredDomain:
        """Fetch, validate and add (or replace) a domain. Raises ``ManifestRejected`` (field paths)
        for an invalid manifest, ``DomainUnavailable`` when it cannot be reached."""
        entry = _Entry(RegisteredDomain(name=name, base_url=base_url.rstrip("/")))
        try:
            manifest = await self._client.manifest(entry.info.base_url)
        except ManifestInvalid as exc:
            raise ManifestRejected(name, exc.errors) from None
        _check_name(name, manifest)
        async with self._lock:
            _accept(entry, manifest)
            await self._check_health(entry)
            self._entries[name] = entry
            await self._rebuild(linted=name)
        log.info("registered domain %s at %s (%s)", name, entry.info.base_url, manifest.version)
        return entry.info.model_copy(deep=True)

    async def unregister(self, name: str) -> None:
        async with self._lock:
            if self._entries.pop(name, None) is None:
                raise NotFound(f"domain '{name}' is not registered", param="name")
            await self._rebuild()
        log.info("unregistered domain %s", name)

    async def refresh(self, names: Collection[str] | None = None) -> DomainList:
        """Re-check the domains named (all by default): fetch their manifests (a domain that was
        down at start gets its first one), health-check them, and rebuild the catalog if any
        manifest changed."""
        entries = [e for n, e in self._entries.items() if names is None or n in names]
        # the network waits happen outside the lock so a slow domain never holds up a registration;
        # an entry replaced or removed meanwhile is simply no longer in the catalog built below
        await asyncio.gather(*(self._load(e) for e in entries))
        async with self._lock:
            if self._build().fingerprint != self._catalog.fingerprint:
                await self._rebuild()
        return self.list()

    def mark_healthy(self, name: str) -> None:
        """A call to ``name`` just succeeded: it is up, whatever an earlier check said."""
        entry = self._entries.get(name)
        if entry is not None:
            self._succeed(entry)

    # ------------------------------------------------------------------ internals

    async def _load(self, entry: _Entry) -> None:
        """Fetch the manifest (tolerantly: errors land in ``last_error``), then health-check."""
        name = entry.info.name
        try:
            manifest = await self._client.manifest(entry.info.base_url)
            _check_name(name, manifest)
        except ManifestInvalid as exc:
            self._fail(entry, str(ManifestRejected(name, exc.errors)))
            return
        except PlatformError as exc:
            self._fail(entry, exc.message)
            return
        _accept(entry, manifest)
        await self._check_health(entry)

    async def _check_health(self, entry: _Entry) -> None:
        try:
            await self._client.health(entry.info.base_url)
        except PlatformError as exc:
            self._fail(entry, exc.message)
            return
        self._succeed(entry)

    @staticmethod
    def _succeed(entry: _Entry) -> None:
        if entry.info.last_error is not None:
            log.info("domain %s is up again", entry.info.name)
        entry.info.healthy = True
        entry.info.last_error = None
        entry.info.checked_at = utcnow()

    @staticmethod
    def _fail(entry: _Entry, message: str) -> None:
        if entry.info.healthy or entry.info.last_error != message:  # once per outage, not per re-check
            log.warning("domain %s: %s", entry.info.name, message)
        entry.info.healthy = False
        entry.info.last_error = message
        entry.info.checked_at = utcnow()

    def _build(self) -> Catalog:
        return Catalog(e.manifest for e in self._entries.values() if e.manifest is not None)

    async def _rebuild(self, linted: str | None = None) -> None:
        self._catalog = self._build()
        if linted is not None:
            self._entries[linted].info.warnings = self._warnings(linted)
        for listener in list(self._listeners):
            try:
                result = listener(self._catalog)
                if inspect.isawaitable(result):
                    await result
            except Exception:  # one broken subscriber must not block the others or the registration
                log.exception("catalog subscriber %r failed", listener)

    def _warnings(self, name: str) -> Warnings:
        warnings = _capability_clashes(self._entries, name)
        if self._lint is not None:
            try:
                warnings.extend(self._lint(self._catalog, name))
            except Exception as exc:
                log.exception("lint hook failed for %s", name)
                warnings.append({"type": "lint_failed", "message": f"{type(exc).__name__}: {exc}"})
        return warnings


def _accept(entry: _Entry, manifest: DomainManifest) -> None:
    entry.manifest = manifest
    entry.info.version = manifest.version
    entry.info.goals = [g.goal for g in manifest.goals]
    entry.info.capabilities = [c.name for c in manifest.capabilities]


def _check_name(name: str, manifest: DomainManifest) -> None:
    if manifest.domain != name:
        raise ManifestRejected(
            name,
            [
                {
                    "path": "domain",
                    "message": f"'{manifest.domain}' does not match the registered name '{name}'",
                }
            ],
        )


def _capability_clashes(entries: dict[str, _Entry], name: str) -> list[dict[str, Any]]:
    """Capability names are routed globally: a name another domain already offers is a warning."""
    mine = entries[name].manifest
    if mine is None:
        return []
    warnings: list[dict[str, Any]] = []
    for other, entry in sorted(entries.items()):
        if other == name or entry.manifest is None:
            continue
        for cap in sorted(
            {c.name for c in mine.capabilities} & {c.name for c in entry.manifest.capabilities}
        ):
            warnings.append(
                {
                    "type": "capability_clash",
                    "capability": cap,
                    "other_domain": other,
                    "message": f"capability '{cap}' is also offered by '{other}'",
                }
            )
    return warnings


def _read_bootstrap(path: Path) -> list[tuple[str, str]]:
    try:
        data = json.loads(path.read_text())
    except OSError as exc:
        raise SetupError(f"cannot read bootstrap file {path}: {exc.strerror}", param=str(path)) from None
    except json.JSONDecodeError as exc:
        raise SetupError(f"bootstrap file {path} is not JSON: {exc.msg} (line {exc.lineno})") from None
    domains = data.get("domains") if isinstance(data, dict) else None
    if not isinstance(domains, list):
        raise SetupError(f"bootstrap file {path}: 'domains' must be a list", param="domains")
    entries: list[tuple[str, str]] = []
    for i, item in enumerate(domains):
        name = item.get("name") if isinstance(item, dict) else None
        url = item.get("base_url") if isinstance(item, dict) else None
        if not isinstance(name, str) or not re.match(IDENTIFIER, name):
            raise SetupError(
                f"bootstrap file {path}: domains.{i}.name is missing or invalid", param=f"domains.{i}.name"
            )
        if not isinstance(url, str) or not url.startswith(("http://", "https://")):
            raise SetupError(
                f"bootstrap file {path}: domains.{i}.base_url must be an http(s) URL",
                param=f"domains.{i}.base_url",
            )
        if name in {n for n, _ in entries}:
            raise SetupError(
                f"bootstrap file {path}: domain '{name}' is listed twice", param=f"domains.{i}.name"
            )
        entries.append((name, url.rstrip("/")))
    return entries
