"""How a registered domain is spoken to: its :class:`DomainKind`, decided once from the base URL
when it is registered (or read from the bootstrap file), and the one :class:`DomainTransport`
protocol every kind is called through.

The way httpx picks a transport by mount, :class:`orchestrator.client.DomainClient` holds one
transport per kind (plain HTTP, an MCP server, a remote A2A agent) and the registry hands it the
kind it stored with the domain: nothing after registration reads the URL to tell them apart.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Protocol

from orchestrator.a2a_domain import is_agent_card_url
from orchestrator.mcp_domain import is_mcp_url
from shared.manifest import DomainManifest
from shared.models import DomainOutput, ExecutionIntent

#: A domain's health answer as it sent it (a JSON object): the registry needs only that it came.
HealthAnswer = dict[str, object]


class DomainKind(StrEnum):
    """The protocol a domain speaks; its value is what the admin API and the inspector show."""

    #: An SDK domain (or any service speaking the domain protocol): ``/manifest``, ``/health``, ``/execute``.
    HTTP = "http"
    #: An MCP server (``mcp+http(s)://`` or a declared ``mcp+stdio://`` server).
    MCP = "mcp"
    #: A remote A2A agent, registered by its agent card's URL.
    A2A = "a2a"

    @classmethod
    def of(cls, base_url: str) -> DomainKind:
        """The kind a registry base URL names; called once, when the domain is registered.

        >>> DomainKind.of("mcp+http://h:1/mcp"), DomainKind.of("http://h:1/.well-known/agent-card.json")
        (<DomainKind.MCP: 'mcp'>, <DomainKind.A2A: 'a2a'>)
        >>> DomainKind.of("http://127.0.0.1:8101")
        <DomainKind.HTTP: 'http'>
        """
        if is_mcp_url(base_url):
            return cls.MCP
        return cls.A2A if is_agent_card_url(base_url) else cls.HTTP


class DomainTransport(Protocol):
    """The three calls the core makes of a domain, whatever protocol it speaks. Errors are the
    platform's (``DomainUnavailable``, ``DomainProtocolError``, ``ManifestInvalid``), never a
    transport library's."""

    async def manifest(self, base_url: str, domain: str) -> DomainManifest:
        """What the domain offers, validated (``domain``: the name it is registered under)."""
        ...

    async def health(self, base_url: str) -> HealthAnswer:
        """The domain's health answer; raises when it is down."""
        ...

    async def execute(
        self,
        base_url: str,
        intent: ExecutionIntent,
        idempotency_key: str,
        timeout: float | None,  # noqa: ASYNC109 (the per-call timeout of the contract)
    ) -> DomainOutput:
        """One call of a capability; ``idempotency_key`` de-duplicates repeats where the protocol can."""
        ...


__all__ = ["DomainKind", "DomainTransport", "HealthAnswer"]
