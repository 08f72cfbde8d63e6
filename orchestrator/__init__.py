"""Routing to domain services: the registry (where domains live, what they offer) and its
background health refresh, the HTTP client (the one place httpx errors are translated) and the
orchestrator (capability -> domain, confidence gate, one idempotent ``/execute`` call each)."""

from orchestrator.client import DomainClient, map_httpx_exceptions
from orchestrator.orchestrator import Orchestrator
from orchestrator.refresh import HealthRefresh
from orchestrator.registry import DomainRegistry, ManifestRejected, RegisteredDomain

__all__ = [
    "DomainClient",
    "DomainRegistry",
    "HealthRefresh",
    "ManifestRejected",
    "Orchestrator",
    "RegisteredDomain",
    "map_httpx_exceptions",
]
