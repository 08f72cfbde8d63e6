"""A domain's kind is decided once, when it is registered, and stored with it: calls then go
through that kind's transport (orchestrator.domain_transport), not through a reading of the URL."""

from __future__ import annotations

import httpx
import pytest

from orchestrator.client import A2ATransport, DomainClient, HttpDomainTransport, McpTransport
from orchestrator.domain_transport import DomainKind
from orchestrator.orchestrator import Orchestrator
from orchestrator.registry import DomainRegistry, unregistrable
from orchestrator.url_policy import UrlPolicy
from shared.models import ExecutionIntent
from tests.fixtures import a2a_agent

AGENT = "http://agent.test"
CARD = f"{AGENT}/.well-known/agent-card.json"


@pytest.mark.parametrize(
    ("base_url", "kind"),
    [
        ("http://127.0.0.1:8101", DomainKind.HTTP),
        ("https://svc.internal/api/", DomainKind.HTTP),
        ("mcp+http://tools/mcp", DomainKind.MCP),
        ("mcp+stdio://files", DomainKind.MCP),
        (CARD, DomainKind.A2A),
        ("https://a/x/.well-known/agent.json", DomainKind.A2A),
    ],
)
def test_the_base_url_names_the_kind(base_url: str, kind: DomainKind) -> None:
    assert DomainKind.of(base_url) is kind


async def test_the_client_holds_one_transport_per_kind() -> None:
    async with httpx.AsyncClient() as http:
        client = DomainClient(http)
        assert isinstance(client.transport("", DomainKind.HTTP), HttpDomainTransport)
        assert isinstance(client.transport("", DomainKind.MCP), McpTransport)
        assert isinstance(client.transport("", DomainKind.A2A), A2ATransport)
        # the stored kind wins over what the URL would say
        assert isinstance(client.transport(CARD, DomainKind.HTTP), HttpDomainTransport)


def test_the_refusal_names_what_the_kind_asks_for() -> None:
    assert "MCP handshake" in unregistrable("mcp+http://t/mcp", DomainKind.MCP).message
    assert "/manifest" in unregistrable("http://t", DomainKind.HTTP).message


async def test_a_registered_agent_keeps_its_kind_and_is_called_through_it() -> None:
    agent = a2a_agent.app(f"{AGENT}/", "1.0")
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=agent), base_url=AGENT) as http:
        client = DomainClient(http)
        registry = DomainRegistry(client, env={}, url_policy=UrlPolicy(resolve=False))
        registered = await registry.register("poet", CARD)
        assert registered.kind is DomainKind.A2A
        assert registry.kind("poet") is DomainKind.A2A
        assert [d.kind for d in registry.list()] == [DomainKind.A2A]
        assert registered.model_dump(mode="json")["kind"] == "a2a"  # as the admin API shows it
        output = await Orchestrator(registry, client).dispatch(
            ExecutionIntent(
                domain="poet",
                capability="write_haiku",
                original_query="escreva um haicai sobre o mar",
                context={"session_id": "s-1", "run_id": "r-1", "step_id": 1},
            )
        )
        assert output.status == "success", output
        assert output.explanation.startswith("Mar ao vento")
