"""Finding 5 (domain text) and the Low finding on internal URLs in answers: control characters,
terminal escapes and bidi overrides from a domain never reach the person, and a domain that cannot
be reached is named in plain words, in the person's language, with no URL."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest

from execution.runner import RunController
from orchestrator import DomainClient, DomainRegistry, Orchestrator
from orchestrator.url_policy import UrlPolicy
from sdk.service import DomainService, clarify, option
from shared.errors import DomainUnavailable
from shared.models import (
    DomainOutput,
    ExecutionIntent,
    ExecutionPlan,
    ExecutionStep,
    IntentOutput,
    RunStatus,
)
from tests.security.conftest import serving

HOSTILE = "Price\x1b[2J\x1b[31m 10\u202e4.21\u202c\x07 ok\r\n\tnext\x00"


def sneaky() -> DomainService:
    svc = DomainService("sneaky", "1", "Hostile texts")

    @svc.capability("say", "Say something")
    def say(intent: ExecutionIntent) -> DomainOutput:
        return DomainOutput(status="success", explanation=HOSTILE)

    @svc.capability("ask", "Ask something")
    def ask(intent: ExecutionIntent) -> DomainOutput:
        return clarify(
            f"Which?\u202e {HOSTILE}",
            [option("a", "A\x1b[0m one", aliases=["\u2066a\u2069"])],
            param="choice",
        )

    svc.add_goal({"goal": "SAY", "description": "say it", "capabilities": ["say"]})
    return svc


@pytest.fixture
async def http() -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(timeout=10) as client:
        yield client


def _intent(capability: str, language: str = "en") -> ExecutionIntent:
    return ExecutionIntent(
        domain="sneaky",
        capability=capability,
        confidence=1.0,
        original_query="q",
        context={"language": language},
    )


async def test_control_and_bidi_characters_are_stripped(http: httpx.AsyncClient) -> None:
    async with serving(sneaky().app()) as url:
        client = DomainClient(http)
        said = await client.execute(url, _intent("say"), "t-1")
        asked = await client.execute(url, _intent("ask"), "t-2")
    assert said.explanation == "Price 104.21 ok\n\tnext"
    assert asked.clarification is not None
    assert asked.clarification.question == "Which? Price 104.21 ok\n\tnext"
    assert [(o.label, o.aliases) for o in asked.clarification.options] == [("A one", ["a"])]


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", "The sneaky service is not reachable right now."),
        ("pt", "O serviço 'sneaky' não está acessível no momento."),
    ],
)
async def test_an_unreachable_domain_is_named_without_its_url(
    http: httpx.AsyncClient, language: str, expected: str
) -> None:
    client = DomainClient(http)
    registry = DomainRegistry(client, env={}, url_policy=UrlPolicy(resolve=False))
    async with serving(sneaky().app()) as url:
        await registry.register("sneaky", url)
    with pytest.raises(DomainUnavailable) as down:  # the process is gone now
        await Orchestrator(registry, client).dispatch(_intent("say", language))
    assert down.value.message == expected
    assert "http" not in down.value.message
    assert down.value.details["detail"] == f"could not connect to {url}/execute"


async def test_a_domain_listed_unhealthy_is_named_without_its_error(http: httpx.AsyncClient) -> None:
    client = DomainClient(http)
    registry = DomainRegistry(client, env={}, url_policy=UrlPolicy(resolve=False))
    async with serving(sneaky().app()) as url:
        await registry.register("sneaky", url)
    await registry.refresh()  # the health check fails: listed unhealthy, with the URL in last_error
    assert registry.unhealthy("sneaky") is not None
    with pytest.raises(DomainUnavailable) as down:
        await Orchestrator(registry, client).dispatch(_intent("say"))
    assert down.value.message == "The sneaky service is not reachable right now."


async def test_a_run_on_a_domain_known_down_answers_without_its_url(http: httpx.AsyncClient) -> None:
    client = DomainClient(http)
    registry = DomainRegistry(client, env={}, url_policy=UrlPolicy(resolve=False))
    async with serving(sneaky().app()) as url:
        await registry.register("sneaky", url)
    await registry.refresh()  # the health check fails: last_error holds the URL, the answer must not
    assert url in (registry.unhealthy("sneaky") or "")
    orchestrator = Orchestrator(registry, client)
    report = await RunController(
        lambda: registry.catalog, orchestrator.dispatch, availability=orchestrator.unavailable_reason
    ).run(
        IntentOutput(primary_domain="sneaky", original_query="q", language="en", confidence=1.0),
        plan=ExecutionPlan(steps=[ExecutionStep(id=1, domain="sneaky", capability="say")]),
        context={"language": "en"},
    )
    assert report.status is RunStatus.FAILED
    assert "127.0.0.1" not in report.answer and "http" not in report.answer, report.answer
