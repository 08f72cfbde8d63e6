"""Routing to domain services: the registry (where domains live, what they offer), the HTTP
client (the one place httpx errors are translated) and the orchestrator (capability -> domain,
confidence gate, idempotent ``/execute`` calls)."""

from orchestrator.client import DomainClient, map_httpx_exceptions
from orchestrator.orchestrator import Orchestrator
from orchestrator.registry import DomainRegistry, ManifestRejected, RegisteredDomain

__all__ = [
    "DomainClient",
    "DomainRegistry",
    "ManifestRejected",
    "Orchestrator",
    "RegisteredDomain",
    "map_httpx_exceptions",
]
