"""Where domains live and what they offer: the bootstrap file, runtime (un)registration, manifests
validated on the way in, health, and the :class:`~shared.catalog.Catalog` everyone else reads.

A domain that is down at start is listed as unhealthy and retried by :meth:`DomainRegistry.refresh`
(:class:`orchestrator.refresh.HealthRefresh` calls it in the background); it is never fatal. A
domain whose manifest is invalid is refused at runtime registration with the offending field
paths. Subscribers (the intent adapter, the planner) are told whenever the catalog
changes, so a new domain is routable with zero code changes in the core. A domain's
:class:`~orchestrator.domain_transport.DomainKind` is decided once from its base URL when it is
registered or read from the bootstrap file, and stored with it: a base URL ``mcp+http(s)://`` is
an MCP server (:mod:`orchestrator.mcp_domain`; the URL policy checks the HTTP URL behind it), an
agent card's URL a remote A2A agent; every later call goes through that kind's transport.

What a domain may claim is bounded: its base URL passes :class:`orchestrator.url_policy.UrlPolicy`,
its manifest stays within :class:`shared.manifest.ManifestLimits`, it may not take goal names
another domain owns (:class:`GoalTaken`), goals that read like registered ones need the admin's
``allow_overlap``, and its execution policy is clamped to
:class:`PolicyLimits`. The goal checks hold for every manifest accepted, first or refreshed: a
refreshed manifest that claims another domain's goal names, or brings goal overlaps the accepted one
did not have, is refused (the domain stays on its accepted manifest, marked down). A bad bootstrap
entry is listed with its ``last_error``, never fatal.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import logging
import re
import time
from collections.abc import Awaitable, Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Literal, Required, cast

from pydantic import BaseModel, Field
from typing_extensions import TypedDict  # pydantic validates typing's TypedDict only on 3.12+

from orchestrator.client import DomainClient
from orchestrator.domain_transport import DomainKind
from orchestrator.mcp_domain import endpoint_url
from orchestrator.mcp_stdio import is_stdio_url, stdio_base_url
from orchestrator.url_policy import UrlPolicy, UrlRefused
from shared.catalog import Catalog
from shared.clock import utcnow
from shared.domain_urls import env_override
from shared.errors import DomainUnavailable, InvalidRequest, NotFound, PlatformError, SetupError
from shared.manifest import IDENTIFIER, DomainManifest, Goal, ManifestInvalid

log = logging.getLogger(__name__)


class RegistryWarning(TypedDict, total=False):
    """Something the registry noticed about a manifest it accepted, shown with the domain by the
    admin API and the inspector: ``type`` says which, ``message`` in plain words; the other keys
    belong to one type each."""

    type: Required[Literal["goal_overlap", "capability_clash", "policy_clamped", "lint_failed"]]
    message: Required[str]
    #: ``goal_overlap`` (the lint's :class:`intent.lint.GoalOverlap`)
    domain_a: str
    goal_a: str
    domain_b: str
    goal_b: str
    similarity: float
    #: ``capability_clash`` and ``policy_clamped``
    capability: str
    other_domain: str
    field: str
    requested: float
    applied: float


#: ``intent.lint.goal_overlaps``-shaped: (catalog including the new domain, its name) -> warnings,
#: each with at least the keys of a :class:`RegistryWarning`.
LintHook = Callable[[Catalog, str], Sequence[Mapping[str, object]]]
CatalogListener = Callable[[Catalog], Awaitable[None] | None]


class RegisteredDomain(BaseModel):
    """A registered domain as the admin API shows it."""

    name: str
    base_url: str
    #: How the domain is spoken to, decided from ``base_url`` when it is registered.
    kind: DomainKind = DomainKind.HTTP
    healthy: bool = False
    version: str | None = None
    goals: list[str] = Field(default_factory=list)
    capabilities: list[str] = Field(default_factory=list)
    last_error: str | None = None
    warnings: list[RegistryWarning] = Field(default_factory=list)
    checked_at: datetime | None = None


class ManifestRejected(InvalidRequest):
    """Registration refused: the manifest is invalid. ``details`` = ``[{"path", "message"}]``."""

    code = "invalid_manifest"
    details: list[dict[str, str]]

    def __init__(self, name: str, errors: list[dict[str, str]]):
        listed = "; ".join(f"{e['path']}: {e['message']}" for e in errors)
        super().__init__(
            f"manifest of domain '{name}' is invalid: {listed}", param="manifest", details=errors
        )


class GoalTaken(InvalidRequest):
    """Registration refused: the manifest claims goal names another domain owns."""

    code = "goal_taken"

    def __init__(self, name: str, taken: dict[str, str]):
        listed = ", ".join(f"{goal} (owned by '{owner}')" for goal, owner in sorted(taken.items()))
        super().__init__(
            f"domain '{name}' may not claim goals another domain owns: {listed}",
            param="manifest.goals",
            details=[{"goal": goal, "owner": owner} for goal, owner in sorted(taken.items())],
        )


class GoalOverlapRefused(InvalidRequest):
    """Registration refused: goals read like another domain's; pass ``allow_overlap`` to accept."""

    code = "goal_overlap"

    def __init__(self, name: str, overlaps: list[RegistryWarning]):
        listed = "; ".join(o["message"] for o in overlaps)
        super().__init__(
            f"goals of domain '{name}' overlap goals already registered ({listed}); "
            "register with allow_overlap to accept the overlap",
            param="allow_overlap",
            details=overlaps,
        )


class PolicyLimits(BaseModel):
    """Operator ceilings on a manifest's execution policy; a manifest asking for more is clamped."""

    timeout_max_s: float = Field(default=30.0, gt=0)
    attempts_max: int = Field(default=3, ge=1)
    #: ``domain.capability`` names that need the person's approval whatever their manifest says.
    confirm: frozenset[str] = frozenset()


def unregistrable(base_url: str, kind: DomainKind, cause: str | None = None) -> DomainUnavailable:
    """Why a registration's fetch failed. ``cause`` (what the client saw: it could not connect,
    it timed out, it answered an HTTP error or something that is not a manifest) is given only
    for a host the operator listed as its domains' (``DOMAIN_ALLOWED_HOSTS``), and said as the
    error it is. For any other host one text whatever went wrong: the admin route must not tell
    a closed port from an open one that speaks something else (no port scan of the gateway's
    networks through it); that text names what was asked for by the kind of domain and where
    the cause is, without claiming the domain answered.

    >>> unregistrable("http://h:1/.well-known/agent-card.json", DomainKind.A2A).message.split(": ")[1]
    'no valid A2A agent card was read from it'
    >>> unregistrable("http://h:1", DomainKind.HTTP, cause="could not connect to http://h:1/manifest").message
    'domain at http://h:1 could not be registered: could not connect to http://h:1/manifest'
    """
    if cause is not None:
        return DomainUnavailable(f"domain at {base_url} could not be registered: {cause}", param="base_url")
    asked = {
        DomainKind.MCP: "no MCP handshake and tool listing was completed with it",
        DomainKind.A2A: "no valid A2A agent card was read from it",
        DomainKind.HTTP: "no valid manifest was read from its /manifest",
    }[kind]
    return DomainUnavailable(
        f"domain at {base_url} could not be registered: {asked}: it may not be listening, may be too "
        "slow or may answer something else (the gateway log names the cause)",
        param="base_url",
    )


#: Aliases for annotations inside ``DomainRegistry``, whose ``list`` method shadows the builtin.
DomainList = list[RegisteredDomain]
Names = list[str]
Warnings = list[RegistryWarning]
#: Two goals an overlap pairs, each as ``(domain, goal)``.
GoalPair = frozenset[tuple[str, str]]


#: A manifest's goals (a name of its own: inside the registry ``list`` is a method).
GoalList = list[Goal]


@dataclass
class _Entry:
    info: RegisteredDomain
    manifest: DomainManifest | None = None
    #: Why this bootstrap entry can never be loaded (a bad or refused base URL): never fetched.
    unusable: str | None = None


#: One domain's manifest (its lookup tables included) and health check, at most: a slow domain is
#: marked down after this instead of holding its registration or refresh for every read timeout.
LOAD_DEADLINE_S = 15.0


class DomainRegistry:
    def __init__(
        self,
        client: DomainClient,
        *,
        lint: LintHook | None = None,
        env: Mapping[str, str] | None = None,
        url_policy: UrlPolicy | None = None,
        policy_limits: PolicyLimits | None = None,
        load_deadline_s: float = LOAD_DEADLINE_S,
    ):
        self._client = client
        self._load_deadline_s = load_deadline_s
        self._lint = lint
        self._env = env
        self._url_policy = url_policy or UrlPolicy()
        self._policy_limits = policy_limits or PolicyLimits()
        self._entries: dict[str, _Entry] = {}
        #: name -> the goals an admin accepted in an earlier process (see :meth:`remember_accepted`)
        self._accepted_goals: dict[str, GoalList] = {}
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

    def kind(self, domain: str) -> DomainKind:
        """How ``domain`` is spoken to (decided when it was registered)."""
        entry = self._entries.get(domain)
        if entry is None:
            raise NotFound(f"domain '{domain}' is not registered", param="domain")
        return entry.info.kind

    def get(self, name: str) -> RegisteredDomain | None:
        entry = self._entries.get(name)
        return entry.info.model_copy(deep=True) if entry else None

    def accepted_goals(self, name: str) -> GoalList | None:
        """The goals of the manifest ``name`` was accepted with (None: none yet)."""
        entry = self._entries.get(name)
        return [g.model_copy(deep=True) for g in entry.manifest.goals] if entry and entry.manifest else None

    def remember_accepted(self, name: str, goals: GoalList | None) -> None:
        """The goals an admin accepted for ``name`` before this process ran (a stored
        registration): the first manifest this process reads for it is held to them as a refresh
        would be, so a domain cannot bring new overlaps in through a restart or a replay."""
        if goals is None:
            self._accepted_goals.pop(name, None)
        else:
            self._accepted_goals[name] = goals

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
        listed unhealthy with ``last_error`` (retried by :meth:`refresh`). A bad entry is logged and
        skipped (listed with ``last_error`` when it has a usable name); a file that is not a
        ``{"domains": [...]}`` document is a ``SetupError``."""
        entries = _read_bootstrap(Path(path))
        async with self._lock:
            loadable: list[_Entry] = []
            for name, url, problem in entries:
                base_url = env_override(name, self._env) or url
                kind = DomainKind.of(base_url.rstrip("/"))
                entry = _Entry(RegisteredDomain(name=name, base_url=base_url, kind=kind))
                self._entries[name] = entry
                if problem is None:
                    problem = await self._refused(entry.info.base_url)
                if problem is not None:
                    entry.unusable = problem
                    self._fail(entry, problem)
                else:
                    entry.info.base_url = entry.info.base_url.rstrip("/")
                    loadable.append(entry)
            await asyncio.gather(*(self._load(e) for e in loadable))
            await self._rebuild()
        return self.list()

    async def vet(self, name: str, base_url: str, *, allow_overlap: bool = False) -> Warnings:
        """Every check :meth:`register` makes, without registering (a dry run). Returns the
        warnings the registration would carry."""
        _entry, warnings = await self._prepare(name, base_url, allow_overlap=allow_overlap)
        return warnings

    async def register(
        self,
        name: str,
        base_url: str,
        *,
        allow_overlap: bool = True,
        accepted_goals: GoalList | None = None,
    ) -> RegisteredDomain:
        """Fetch, validate and add (or replace) a domain. Raises ``UrlRefused`` for a base URL the
        outbound policy refuses, ``ManifestRejected`` (field paths) for an invalid manifest,
        ``GoalTaken`` for goal names another domain owns, ``GoalOverlapRefused`` for goals that read
        like registered ones when ``allow_overlap`` is False, ``DomainUnavailable`` (one uniform
        text) when ``/manifest`` gave no manifest. Overlap is accepted by default because stored
        registrations replayed by other gateways were checked when the admin registered them.

        The manifest is fetched once and the overlap lint runs once: the admin route registers
        with the admin's ``allow_overlap`` (no :meth:`vet` first)."""
        watch = _Stopwatch()
        entry, _warnings = await self._prepare(
            name,
            base_url,
            allow_overlap=allow_overlap,
            commit=True,
            watch=watch,
            accepted_goals=accepted_goals,
        )
        log.info(
            "registered domain %s at %s (%s) in %.2f s (%s)",
            name,
            entry.info.base_url,
            entry.info.version,
            watch.total,
            watch,
        )
        return entry.info.model_copy(deep=True)

    async def _prepare(
        self,
        name: str,
        base_url: str,
        *,
        allow_overlap: bool,
        commit: bool = False,
        watch: _Stopwatch | None = None,
        accepted_goals: GoalList | None = None,
    ) -> tuple[_Entry, Warnings]:
        watch = watch or _Stopwatch()
        refused = await self._refused(base_url)
        if refused is not None:
            raise UrlRefused(refused)
        kind = DomainKind.of(base_url)
        entry = _Entry(RegisteredDomain(name=name, base_url=base_url.rstrip("/"), kind=kind))
        watch.lap("url policy")
        try:
            async with asyncio.timeout(self._load_deadline_s):
                manifest = await self._client.manifest(entry.info.base_url, name, kind=kind)
        except ManifestInvalid as exc:
            raise ManifestRejected(name, exc.errors) from None
        except (PlatformError, TimeoutError) as exc:
            why = exc.message if isinstance(exc, PlatformError) else self._too_slow()
            log.warning("registration of %s at %s failed: %s", name, entry.info.base_url, why)
            # the cause only for the operator's own hosts: elsewhere it would map open ports
            cause = why if self._url_policy.restricted else None
            raise unregistrable(entry.info.base_url, kind, cause) from None
        _check_name(name, manifest)
        watch.lap("manifest")
        async with self._lock:
            watch.lap("waiting for another registration")
            taken = _goals_owned_elsewhere(self._entries, name, manifest)
            if taken:
                raise GoalTaken(name, taken)
            clamped = _accept(entry, manifest, self._policy_limits)
            # the overlap lint compares the new goals with every other (~0.05 s at 160 goals,
            # intent.lint): in a worker thread, so the gateway keeps answering meanwhile
            warnings = clamped + await asyncio.to_thread(self._warnings, {**self._entries, name: entry}, name)
            overlaps = [w for w in warnings if w["type"] == "goal_overlap"]
            if overlaps and not allow_overlap:
                raise GoalOverlapRefused(name, overlaps)
            # a stored registration replayed: held to the goals the admin accepted, as a refresh
            await self._refuse_new_overlaps(entry, manifest, accepted_goals)
            watch.lap("checks")
            if commit:
                await self._check_health(entry)
                watch.lap("health")
                entry.info.warnings = warnings
                self._entries[name] = entry
                await self._rebuild()
                watch.lap("catalog subscribers")
        return entry, warnings

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
        entries = [
            e for n, e in self._entries.items() if (names is None or n in names) and e.unusable is None
        ]
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

    def names(self) -> Names:
        return sorted(self._entries)

    def _too_slow(self) -> str:
        return f"no manifest and health answer within {self._load_deadline_s:g} s"

    async def _load(self, entry: _Entry) -> None:
        """:meth:`_load_now` within the deadline: a domain that takes longer is marked down."""
        try:
            async with asyncio.timeout(self._load_deadline_s):
                await self._load_now(entry)
        except TimeoutError:
            self._fail(entry, self._too_slow())

    async def _load_now(self, entry: _Entry) -> None:
        """Fetch the manifest (tolerantly: errors land in ``last_error``), then health-check."""
        name = entry.info.name
        try:
            manifest = await self._client.manifest(entry.info.base_url, name, kind=entry.info.kind)
            _check_name(name, manifest)
            taken = _goals_owned_elsewhere(self._entries, name, manifest)
            if taken:
                raise GoalTaken(name, taken)
            accepted = entry.manifest.goals if entry.manifest is not None else self._accepted_goals.get(name)
            await self._refuse_new_overlaps(entry, manifest, accepted)
        except ManifestInvalid as exc:
            self._fail(entry, str(ManifestRejected(name, exc.errors)))
            return
        except PlatformError as exc:
            self._fail(entry, exc.message)
            return
        entry.info.warnings = _accept(entry, manifest, self._policy_limits)
        await self._check_health(entry)

    async def _refuse_new_overlaps(
        self, entry: _Entry, manifest: DomainManifest, accepted: GoalList | None
    ) -> None:
        """``GoalOverlapRefused`` when ``manifest``, replacing the one ``entry`` was accepted with,
        brings goal overlaps that one did not have. The admin accepted (or was never asked about)
        the overlaps of the manifest it registered; a domain that later serves goals reading like
        another's (to draw that domain's requests, and the people's text) is kept on the manifest
        it was accepted with, marked down, until it is registered again."""
        name = entry.info.name
        if self._lint is None or accepted is None or accepted == manifest.goals:
            return
        others = {n: e for n, e in self._entries.items() if n != name}
        candidate = _Entry(entry.info, manifest)
        as_accepted = _Entry(entry.info, manifest.model_copy(update={"goals": accepted}))
        before = await asyncio.to_thread(self._overlaps, {**others, name: as_accepted}, name)
        after = await asyncio.to_thread(self._overlaps, {**others, name: candidate}, name)
        added = [warning for pair, warning in after.items() if pair not in before]
        if added:
            raise GoalOverlapRefused(name, added)

    def _overlaps(self, entries: dict[str, _Entry], name: str) -> dict[GoalPair, RegistryWarning]:
        """The lint's goal overlaps involving ``name``, keyed by the two goals they pair."""
        assert self._lint is not None
        found = {}
        for warning in _linted(self._lint(_catalog_of(entries), name)):
            if warning["type"] == "goal_overlap":
                pair = frozenset(
                    {
                        (str(warning.get("domain_a")), str(warning.get("goal_a"))),
                        (str(warning.get("domain_b")), str(warning.get("goal_b"))),
                    }
                )
                found[pair] = warning
        return found

    async def _check_health(self, entry: _Entry) -> None:
        try:
            await self._client.health(entry.info.base_url, kind=entry.info.kind)
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

    async def _refused(self, base_url: str) -> str | None:
        """Why the outbound policy refuses ``base_url`` (None when allowed); resolving a host name
        blocks, so it runs in a worker thread."""
        if is_stdio_url(base_url):  # a process the operator declared: no network address to check
            return None
        try:
            # an MCP server's base URL is checked as the HTTP URL it is called at
            await asyncio.to_thread(self._url_policy.check, endpoint_url(base_url))
        except UrlRefused as exc:
            return exc.message
        return None

    def _build(self) -> Catalog:
        return _catalog_of(self._entries)

    async def _rebuild(self) -> None:
        self._catalog = self._build()
        for listener in list(self._listeners):
            try:
                result = listener(self._catalog)
                if inspect.isawaitable(result):
                    await result
            except Exception:  # one broken subscriber must not block the others or the registration
                log.exception("catalog subscriber %r failed", listener)

    def _warnings(self, entries: dict[str, _Entry], name: str) -> Warnings:
        warnings = _capability_clashes(entries, name)
        if self._lint is not None:
            try:
                warnings.extend(_linted(self._lint(_catalog_of(entries), name)))
            except Exception as exc:
                log.exception("lint hook failed for %s", name)
                warnings.append({"type": "lint_failed", "message": f"{type(exc).__name__}: {exc}"})
        return warnings


class _Stopwatch:
    """Seconds spent in each step of a registration, for its log line."""

    def __init__(self) -> None:
        self.laps: dict[str, float] = {}
        self._started = self._last = time.perf_counter()

    def lap(self, step: str) -> None:
        now = time.perf_counter()
        self.laps[step] = now - self._last
        self._last = now

    @property
    def total(self) -> float:
        return self._last - self._started

    def __str__(self) -> str:
        return ", ".join(f"{step} {seconds:.2f} s" for step, seconds in self.laps.items())


def _catalog_of(entries: dict[str, _Entry]) -> Catalog:
    return Catalog(e.manifest for e in entries.values() if e.manifest is not None)


def goals_owned_elsewhere(manifest: DomainManifest, others: Mapping[str, DomainManifest]) -> dict[str, str]:
    """Goal name of ``manifest`` -> the domain of ``others`` (by name) that already owns it."""
    owners = {goal.goal: name for name, other in others.items() for goal in other.goals}
    return {g.goal: owners[g.goal] for g in manifest.goals if g.goal in owners}


def _goals_owned_elsewhere(entries: dict[str, _Entry], name: str, manifest: DomainManifest) -> dict[str, str]:
    """Goal name -> the other registered domain that already owns it."""
    registered = {
        other: entry.manifest
        for other, entry in entries.items()
        if other != name and entry.manifest is not None
    }
    return goals_owned_elsewhere(manifest, registered)


def _clamp(manifest: DomainManifest, limits: PolicyLimits) -> tuple[DomainManifest, Warnings]:
    """The manifest with every capability's policy within the operator's limits, and a warning
    per clamped value."""
    warnings: Warnings = []
    capabilities = []
    for cap in manifest.capabilities:
        policy = cap.metadata.policy
        update: dict[str, Any] = {}
        if policy.timeout_s > limits.timeout_max_s:
            update["timeout_s"] = limits.timeout_max_s
        if policy.attempts > limits.attempts_max:
            update["attempts"] = limits.attempts_max
        # the operator's approval list only adds the gate: it is not a clamp, so no warning
        approval = {"confirm": True} if f"{manifest.domain}.{cap.name}" in limits.confirm else {}
        for field, value in update.items():
            warnings.append(
                {
                    "type": "policy_clamped",
                    "capability": cap.name,
                    "field": field,
                    "requested": getattr(policy, field),
                    "applied": value,
                    "message": f"{cap.name}: policy.{field} {getattr(policy, field)} clamped to {value}",
                }
            )
        if update or approval:
            changed = policy.model_copy(update={**update, **approval})
            cap = cap.model_copy(update={"metadata": cap.metadata.model_copy(update={"policy": changed})})
        capabilities.append(cap)
    if capabilities == manifest.capabilities:
        return manifest, warnings
    return manifest.model_copy(update={"capabilities": capabilities}), warnings


def _accept(entry: _Entry, manifest: DomainManifest, limits: PolicyLimits) -> Warnings:
    manifest, warnings = _clamp(manifest, limits)
    entry.manifest = manifest
    entry.info.version = manifest.version
    entry.info.goals = [g.goal for g in manifest.goals]
    entry.info.capabilities = [c.name for c in manifest.capabilities]
    return warnings


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


def _capability_clashes(entries: dict[str, _Entry], name: str) -> Warnings:
    """Capability names are routed globally: a name another domain already offers is a warning."""
    mine = entries[name].manifest
    if mine is None:
        return []
    warnings: Warnings = []
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


def _read_bootstrap(path: Path) -> list[tuple[str, str, str | None]]:
    """``(name, base_url, problem)`` per usable entry; ``problem`` says why the entry cannot be
    loaded (it is listed with that as ``last_error``). Entries without a usable name are logged
    and skipped."""
    try:
        data = json.loads(path.read_text())
    except OSError as exc:
        raise SetupError(f"cannot read bootstrap file {path}: {exc.strerror}", param=str(path)) from None
    except (json.JSONDecodeError, RecursionError) as exc:
        where = f": {exc.msg} (line {exc.lineno})" if isinstance(exc, json.JSONDecodeError) else ""
        raise SetupError(f"bootstrap file {path} is not JSON{where}") from None
    domains = data.get("domains") if isinstance(data, dict) else None
    if not isinstance(domains, list):
        raise SetupError(f"bootstrap file {path}: 'domains' must be a list", param="domains")
    entries: list[tuple[str, str, str | None]] = []
    for i, item in enumerate(domains):
        name = item.get("name") if isinstance(item, dict) else None
        url = item.get("base_url") if isinstance(item, dict) else None
        if url is None and isinstance(item, dict) and item.get("kind") == "mcp" and "command" in item:
            url = stdio_base_url(name) if isinstance(name, str) else None  # orchestrator.mcp_bootstrap
        if not isinstance(name, str) or not re.match(IDENTIFIER, name) or len(name) > 64:
            log.error("bootstrap file %s: domains.%d.name is missing or invalid: entry skipped", path, i)
            continue
        if name in {n for n, _, _ in entries}:
            log.error("bootstrap file %s: domain '%s' is listed twice: domains.%d skipped", path, name, i)
            continue
        problem = None
        if not isinstance(url, str) or not (url.startswith(("http://", "https://")) or _is_mcp(url)):
            problem = f"bootstrap file: domains.{i}.base_url must be an http(s) URL"
            log.error("%s (domain %s skipped)", problem, name)
        entries.append((name, url if isinstance(url, str) and problem is None else "", problem))
    return entries


def _is_mcp(url: str) -> bool:
    return DomainKind.of(url) is DomainKind.MCP


def _linted(found: Sequence[Mapping[str, object]]) -> Warnings:
    """The lint hook's warnings, whose shape the hook's contract promises (checked: a hook that
    forgets ``type`` or ``message`` fails here, not in the admin API's answer)."""
    warnings: Warnings = []
    for warning in found:
        if not isinstance(warning.get("type"), str) or not isinstance(warning.get("message"), str):
            raise TypeError(f"a lint warning needs a 'type' and a 'message': {dict(warning)!r}")
        warnings.append(cast(RegistryWarning, dict(warning)))
    return warnings
