"""A remote A2A agent as a domain (orchestrator.a2a_domain): the mapping of cards and tasks, and
the adapter against the a2a-sdk server of tests/fixtures/a2a_agent.py, in process (the same agent
as a real process behind a real gateway is in tests/integration/test_a2a.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest
from a2a.helpers.proto_helpers import new_data_part, new_text_part
from a2a.types import AgentCard, AgentSkill, Artifact, Message, Role, Task, TaskState, TaskStatus
from a2a.utils.constants import AGENT_CARD_WELL_KNOWN_PATH as SDK_CARD_PATH

from orchestrator.a2a_agents import manifest_from_card, output_from_message, output_from_task, remote_context
from orchestrator.a2a_domain import (
    AGENT_CARD_WELL_KNOWN_PATH,
    REMOTE_FAILED,
    REMOTE_NOT_FINISHED,
    REPLY_PARAM,
    A2ADomains,
    agent_card_url,
    is_agent_card_url,
)
from orchestrator.client import DomainClient
from shared.errors import DomainProtocolError, DomainUnavailable
from shared.manifest import ManifestInvalid, ManifestLimits
from shared.models import ExecutionIntent
from tests.conftest import free_port
from tests.fixtures import a2a_agent

AGENT = "http://agent.test"
CARD = f"{AGENT}/.well-known/agent-card.json"


def test_the_card_url_says_the_base_url_is_an_agent() -> None:
    assert AGENT_CARD_WELL_KNOWN_PATH == SDK_CARD_PATH  # ours is a copy, kept off the SDK's import
    assert is_agent_card_url(CARD) and is_agent_card_url("https://a/x/.well-known/agent.json")
    assert not is_agent_card_url(AGENT) and not is_agent_card_url("ftp://a/.well-known/agent-card.json")
    assert agent_card_url(f"{AGENT}/") == CARD
    assert agent_card_url(CARD) == CARD


def test_each_skill_is_a_goal_with_its_examples() -> None:
    card = AgentCard(
        name="fx",
        description="Currency tools",
        version="2.1",
        skills=[
            AgentSkill(
                id="convert", name="Convert", description="Convert money", examples=["100 USD in EUR"]
            ),
            AgentSkill(id="Rates Today", name="Rates", description="Today's rates", tags=["rates"]),
            AgentSkill(id="convert", name="Again", description="duplicate id"),
        ],
    )
    manifest = manifest_from_card(card, "fx")
    assert (manifest.domain, manifest.version, manifest.description) == ("fx", "2.1", "Currency tools")
    assert [c.name for c in manifest.capabilities] == ["convert", "rates_today"]
    assert [g.goal for g in manifest.goals] == ["FX_CONVERT", "FX_RATES_TODAY"]
    assert manifest.goals[0].example_texts() == ["100 USD in EUR"]
    # a skill without examples is asked for by its name and description
    assert manifest.goals[1].example_texts() == ["Rates", "Today's rates"]
    assert manifest.capabilities[1].metadata.intent_hints.keywords == ["rates"]
    policy = manifest.capabilities[0].metadata.policy
    assert (policy.attempts, policy.idempotent) == (1, False)


def test_a_card_without_skills_is_one_goal_and_limits_hold() -> None:
    bare = manifest_from_card(AgentCard(name="Helper", description="Helps"), "helper")
    assert [g.goal for g in bare.goals] == ["HELPER_HELPER"]
    many = AgentCard(name="x", skills=[AgentSkill(id=f"s{i}", name=f"s{i}") for i in range(5)])
    with pytest.raises(ManifestInvalid, match="goals: more than 3 entries"):
        manifest_from_card(many, "x", ManifestLimits(max_goals=3))


def task(state: int, *, said: str = "", parts: list | None = None) -> Task:
    status = TaskStatus(state=state)  # type: ignore[arg-type]
    if said:
        status.message.CopyFrom(Message(role=Role.ROLE_AGENT, parts=[new_text_part(said)]))
    artifacts = [Artifact(artifact_id="a1", parts=parts)] if parts else []
    return Task(id="t1", context_id="c1", status=status, artifacts=artifacts)


def test_task_states_map_onto_domain_answers() -> None:
    done = output_from_task(
        task(TaskState.TASK_STATE_COMPLETED, parts=[new_text_part("42"), new_data_part({"value": 42})]),
        "calc",
    )
    assert (done.status, done.explanation, done.result) == ("success", "42", {"value": 42.0})
    assert done.metadata == {"a2a_task_id": "t1", "a2a_context_id": "c1"}
    asked = output_from_task(task(TaskState.TASK_STATE_INPUT_REQUIRED, said="Which one?"), "calc")
    assert asked.status == "clarification" and asked.clarification is not None
    assert asked.clarification.question == "Which one?"
    assert asked.clarification.continue_with is not None
    assert (asked.clarification.continue_with.capability, asked.clarification.continue_with.param) == (
        "calc",
        REPLY_PARAM,
    )
    failed = output_from_task(task(TaskState.TASK_STATE_FAILED, said="No."), "calc")
    assert (failed.status, failed.explanation) == ("failure", "No.")
    assert failed.failure is not None and failed.failure.reason == REMOTE_FAILED
    working = output_from_task(task(TaskState.TASK_STATE_WORKING), "calc")
    assert working.failure is not None and working.failure.reason == REMOTE_NOT_FINISHED
    said = output_from_message(Message(role=Role.ROLE_AGENT, parts=[new_text_part("Hi")]))
    assert (said.status, said.explanation) == ("success", "Hi")


def test_the_agent_never_sees_the_platform_session_id() -> None:
    context = remote_context(CARD, "sess-123")
    assert "sess-123" not in context
    assert context == remote_context(CARD, "sess-123") != remote_context(CARD, "sess-124")


# ------------------------------------------------------------------ against the SDK's server


def http_to(protocol_version: str = "1.0", endpoint: str = f"{AGENT}/") -> httpx.AsyncClient:
    agent = a2a_agent.app(endpoint, protocol_version)
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=agent), base_url=AGENT)


@pytest.fixture(params=["1.0", "0.3"])
async def http(request: pytest.FixtureRequest) -> AsyncIterator[httpx.AsyncClient]:
    async with http_to(request.param) as client:
        yield client


def intent(text: str, **parameters: object) -> ExecutionIntent:
    return ExecutionIntent(
        domain="poet",
        capability="write_haiku",
        original_query=text,
        parameters=dict(parameters),
        context={"session_id": "sess-1"},
    )


async def test_a_message_is_answered_in_either_protocol_version(http: httpx.AsyncClient) -> None:
    agents = A2ADomains()
    manifest = await agents.manifest(http, CARD, "poet")
    assert [g.goal for g in manifest.goals] == ["POET_WRITE_HAIKU"]
    assert "escreva um haicai sobre o mar" in manifest.goals[0].example_texts()
    output = await agents.execute(http, CARD, intent("escreva um haicai sobre o mar", style="classic"))
    assert output.status == "success"
    assert output.explanation.startswith("Mar ao vento")
    assert output.result == {"theme": "mar", "lines": 3.0}


async def test_the_reply_to_the_agents_question_finishes_the_same_task(http: httpx.AsyncClient) -> None:
    agents = A2ADomains()
    asked = await agents.execute(http, CARD, intent("quero um haicai"))
    assert asked.status == "clarification"
    assert asked.explanation == a2a_agent.QUESTION
    answered = await agents.execute(http, CARD, intent("a lua", **{REPLY_PARAM: "a lua"}))
    assert answered.status == "success", answered
    assert answered.explanation.startswith("A lua ao vento")
    assert answered.metadata["a2a_task_id"] == asked.metadata["a2a_task_id"]


async def test_an_endpoint_on_another_host_is_refused_at_registration() -> None:
    async with http_to(endpoint="http://169.254.169.254/") as http:
        with pytest.raises(DomainProtocolError, match="another host"):
            await A2ADomains().manifest(http, CARD, "poet")


async def test_an_agent_that_is_down_is_unavailable_not_a_crash() -> None:
    card = f"http://127.0.0.1:{free_port()}/.well-known/agent-card.json"
    async with httpx.AsyncClient(timeout=5) as http:
        client = DomainClient(http)
        with pytest.raises(DomainUnavailable, match="could not connect"):
            await client.health(card)
        with pytest.raises(DomainUnavailable):
            await client.manifest(card, "poet")
