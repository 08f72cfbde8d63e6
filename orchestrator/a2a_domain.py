"""A remote A2A agent as a domain: what the registry needs of one without the ``a2a-sdk`` (its
base URL is its agent card's URL), and :class:`A2ADomains`, which
:class:`~orchestrator.client.DomainClient` calls agents through.

How A2A maps onto the domain protocol is :mod:`orchestrator.a2a_agents`, built on the SDK. The
SDK (protobuf types of two protocol versions) is a noticeable part of the gateway's start and
most gateways register no agent: :class:`A2ADomains` imports it on its first call to one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from shared.manifest import DomainManifest, ManifestLimits
from shared.models import DomainOutput, ExecutionIntent

if TYPE_CHECKING:
    import httpx

    from orchestrator.a2a_agents import A2AAgents

#: Where an agent publishes its card (the SDK's ``AGENT_CARD_WELL_KNOWN_PATH``).
AGENT_CARD_WELL_KNOWN_PATH = "/.well-known/agent-card.json"
#: Paths an agent card is published at (the current one, and A2A 0.2's).
CARD_PATHS = (AGENT_CARD_WELL_KNOWN_PATH, "/.well-known/agent.json")
#: The parameter a person's reply to the agent's question fills (the clarification's continue_with).
REPLY_PARAM = "reply"
#: Failure reasons.
REMOTE_FAILED = "remote_agent_failed"
REMOTE_NOT_FINISHED = "remote_agent_not_finished"
#: An agent's answer may take a while (it may run a model): the capability's default timeout.
DEFAULT_TIMEOUT_S = 30.0


def is_agent_card_url(url: str) -> bool:
    """An A2A agent's base URL: an http(s) URL whose path is a well-known agent card path.

    >>> is_agent_card_url("http://h:9/.well-known/agent-card.json"), is_agent_card_url("http://h:9")
    (True, False)
    """
    parts = urlsplit(url)
    return parts.scheme in ("http", "https") and parts.path.endswith(CARD_PATHS)


def agent_card_url(url: str) -> str:
    """The card URL for what an admin typed: a card URL as is, else the agent's base URL + the
    well-known path.

    >>> agent_card_url("http://h:9/"), agent_card_url("http://h:9/.well-known/agent.json")
    ('http://h:9/.well-known/agent-card.json', 'http://h:9/.well-known/agent.json')
    """
    return url if is_agent_card_url(url) else url.rstrip("/") + AGENT_CARD_WELL_KNOWN_PATH


class A2ADomains:
    """Speaks A2A to the registered agents, for :class:`~orchestrator.client.DomainClient`: the
    calls of :class:`orchestrator.a2a_agents.A2AAgents`, built (and the SDK imported) on the first."""

    def __init__(self) -> None:
        self._built: A2AAgents | None = None

    def _agents(self) -> A2AAgents:
        if self._built is None:
            from orchestrator.a2a_agents import A2AAgents

            self._built = A2AAgents()
        return self._built

    async def manifest(
        self, http: httpx.AsyncClient, base_url: str, domain: str, limits: ManifestLimits | None = None
    ) -> DomainManifest:
        return await self._agents().manifest(http, base_url, domain, limits)

    async def health(self, http: httpx.AsyncClient, base_url: str) -> dict[str, object]:
        return await self._agents().health(http, base_url)

    async def execute(
        self,
        http: httpx.AsyncClient,
        base_url: str,
        intent: ExecutionIntent,
        timeout: float | None = None,  # noqa: ASYNC109 (the DomainClient contract's per-call timeout)
        idempotency_key: str = "",
    ) -> DomainOutput:
        """Send the step as a message (:meth:`orchestrator.a2a_agents.A2AAgents.execute`)."""
        return await self._agents().execute(http, base_url, intent, timeout, idempotency_key)
