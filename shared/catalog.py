"""A read-only view over the registered manifests, shared by intent, planner and orchestrator.

It holds data only (no endpoints); the orchestrator's registry owns where domains live.

>>> from shared.manifest import DomainManifest
>>> m = DomainManifest.model_validate({"domain": "echo", "version": "1", "description": "Echo",
...     "capabilities": [{"name": "echo", "description": "repeat", "role": "fallback"}],
...     "goals": [{"goal": "ECHO", "description": "repeat text", "capabilities": ["echo"]}]})
>>> cat = Catalog([m])
>>> cat.find_capability("echo").domain, [c.capability.name for c in cat.with_role("fallback")]
('echo', ['echo'])
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass

from shared.manifest import Capability, DomainManifest, Goal


@dataclass(frozen=True)
class CapabilityRef:
    domain: str
    capability: Capability


@dataclass(frozen=True)
class GoalRef:
    domain: str
    goal: Goal


class Catalog:
    def __init__(self, manifests: Iterable[DomainManifest] = ()):
        self._manifests: dict[str, DomainManifest] = {m.domain: m for m in manifests}
        self._capabilities: dict[str, CapabilityRef] = {}
        for manifest in self._manifests.values():
            for cap in manifest.capabilities:
                # first registered wins a name clash; the domain-qualified lookup still finds both
                self._capabilities.setdefault(cap.name, CapabilityRef(manifest.domain, cap))
        self.fingerprint = hashlib.sha256(
            json.dumps(
                [m.model_dump(mode="json") for m in sorted(self._manifests.values(), key=lambda m: m.domain)],
                sort_keys=True,
            ).encode()
        ).hexdigest()[:16]

    @property
    def domains(self) -> list[str]:
        return sorted(self._manifests)

    def manifests(self) -> list[DomainManifest]:
        return [self._manifests[d] for d in self.domains]

    def manifest(self, domain: str) -> DomainManifest | None:
        return self._manifests.get(domain)

    def goals(self, domain: str | None = None) -> list[GoalRef]:
        return [
            GoalRef(m.domain, g)
            for m in self.manifests()
            if domain is None or m.domain == domain
            for g in m.goals
        ]

    def find_goal(self, domain: str, goal: str) -> Goal | None:
        manifest = self._manifests.get(domain)
        if manifest is None:
            return None
        return next((g for g in manifest.goals if g.goal == goal), None)

    def find_capability(self, name: str, domain: str | None = None) -> CapabilityRef | None:
        if domain is not None:
            manifest = self._manifests.get(domain)
            cap = manifest.capability(name) if manifest else None
            if cap is not None:
                return CapabilityRef(domain, cap)
        return self._capabilities.get(name)

    def with_role(self, role: str) -> list[CapabilityRef]:
        return [
            CapabilityRef(m.domain, c) for m in self.manifests() for c in m.capabilities if c.role == role
        ]

    def gate_applies(self, domain: str) -> bool:
        manifest = self._manifests.get(domain)
        return manifest.confidence_gate if manifest else True
