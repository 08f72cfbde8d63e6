"""A2A both ways, with the official ``a2a-sdk`` client against real processes: the gateway's and
a domain's agent cards, messages (plain, streamed, a clarification answered in the same
context), and a remote A2A agent registered by its card URL answering a chat message."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from a2a.client import A2ACardResolver, Client, ClientConfig, ClientFactory
from a2a.helpers.proto_helpers import get_artifact_text, get_message_text, new_text_part
from a2a.types import AgentCard, Message, Role, SendMessageRequest, Task, TaskState

from tests.conftest import Process, start_fixture_domain, start_gateway, write_bootstrap

pytestmark = pytest.mark.integration

API_KEY = "a2a-test-key"
ADMIN_TOKEN = "a2a-admin-token"
AUTH = {"Authorization": f"Bearer {API_KEY}"}
ADMIN = {"Authorization": f"Bearer {ADMIN_TOKEN}"}


@pytest.fixture(scope="module")
def poet() -> Iterator[Process]:
    """The remote agent, built with the a2a-sdk server, in its own process."""
    agent = start_fixture_domain("a2a_agent")
    try:
        yield agent
    finally:
        agent.stop()


@pytest.fixture(scope="module")
def gateway(
    domain_processes: dict[str, Process], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Process]:
    """A gateway of its own (it asks for an API key, and a test registers a domain on it)."""
    work: Path = tmp_path_factory.mktemp("a2a-gateway")
    bootstrap = write_bootstrap(work / "bootstrap.json", {n: p.url for n, p in domain_processes.items()})
    process = start_gateway(
        {
            "DATABASE_URL": f"sqlite+aiosqlite:///{work / 'gateway.sqlite3'}",
            "BOOTSTRAP_FILE": str(bootstrap),
            "ADMIN_TOKEN": ADMIN_TOKEN,
            "API_KEYS": API_KEY,
            "REDIS_URL": "",
        }
    )
    try:
        yield process
    finally:
        process.stop()


@pytest.fixture
async def http() -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(headers=AUTH, timeout=60) as client:
        yield client


async def card_of(http: httpx.AsyncClient, url: str) -> AgentCard:
    return await A2ACardResolver(http, url).get_agent_card()


async def client_for(http: httpx.AsyncClient, gateway: Process, *, streaming: bool = False) -> Client:
    card = await card_of(http, gateway.url)
    return ClientFactory(ClientConfig(httpx_client=http, streaming=streaming)).create(card)


def user_message(text: str, context_id: str, task_id: str = "") -> SendMessageRequest:
    message = Message(
        role=Role.ROLE_USER,
        message_id=uuid.uuid4().hex,
        context_id=context_id,
        task_id=task_id,
        parts=[new_text_part(text)],
    )
    return SendMessageRequest(message=message)


async def send(client: Client, request: SendMessageRequest) -> Task:
    """The task as it ended (a client that does not stream gets it whole, once)."""
    events = [event async for event in client.send_message(request)]
    assert len(events) == 1 and events[0].HasField("task"), events
    return events[0].task


def answer_text(task: Task) -> str:
    return "\n".join(get_artifact_text(a) for a in task.artifacts)


def domain_goals(gateway: Process) -> dict[str, list[str]]:
    response = httpx.get(f"{gateway.url}/v1/domains", headers=ADMIN, timeout=30)
    assert response.status_code == 200, response.text
    return {d["name"]: d["goals"] for d in response.json()["data"]}


# ------------------------------------------------------------------ cards


async def test_the_gateway_card_has_every_registered_goal_as_a_skill(
    gateway: Process, http: httpx.AsyncClient
) -> None:
    async with httpx.AsyncClient(timeout=30) as anonymous:  # discovery needs no key
        card = await card_of(anonymous, gateway.url)
    goals = {goal for names in domain_goals(gateway).values() for goal in names}
    skills = {skill.id: skill for skill in card.skills}
    assert goals and goals <= set(skills)
    assert skills["GET_QUOTE"].examples, "a goal's examples are its skill's examples"
    assert {(i.url, i.protocol_binding) for i in card.supported_interfaces} == {
        (f"{gateway.url}/a2a", "JSONRPC")
    }
    assert card.capabilities.streaming
    assert card.security_schemes["bearer"].http_auth_security_scheme.scheme == "bearer"
    assert "text/plain" in card.default_input_modes


async def test_a_domain_serves_its_own_card_from_its_manifest(
    domain_processes: dict[str, Process], http: httpx.AsyncClient
) -> None:
    finance = domain_processes["finance"]
    card = await card_of(http, finance.url)
    manifest = httpx.get(f"{finance.url}/manifest", timeout=10).json()
    assert card.name == "finance"
    assert card.version == manifest["version"]
    assert [s.id for s in card.skills][: len(manifest["goals"])] == [g["goal"] for g in manifest["goals"]]
    assert all(skill.examples for skill in card.skills[: len(manifest["goals"])])
    assert not card.capabilities.streaming
    assert list(card.default_output_modes) == ["text/plain", "application/json"]


# ------------------------------------------------------------------ messages


async def test_a_message_completes_with_the_answer(gateway: Process, http: httpx.AsyncClient) -> None:
    client = await client_for(http, gateway)
    task = await send(client, user_message("qual o preço da Microsoft?", f"a2a-{uuid.uuid4().hex}"))
    assert task.status.state == TaskState.TASK_STATE_COMPLETED, task.status
    assert "MSFT" in answer_text(task)


async def test_a_clarification_is_input_required_and_answered_in_the_same_context(
    gateway: Process, http: httpx.AsyncClient
) -> None:
    client = await client_for(http, gateway)
    context = f"a2a-{uuid.uuid4().hex}"
    asked = await send(client, user_message("qual o preço da Nordea?", context))
    assert asked.status.state == TaskState.TASK_STATE_INPUT_REQUIRED
    question = get_message_text(asked.status.message)
    assert "Nordea" in question and "NDA-FI.HE" in question
    assert asked.context_id == context
    answered = await send(client, user_message("2", context, task_id=asked.id))
    assert answered.status.state == TaskState.TASK_STATE_COMPLETED, answered.status
    assert answered.id == asked.id
    assert "NDA-FI.HE" in answer_text(answered)
    # the context is the platform's session: the same conversation on the REST channel
    session = httpx.get(f"{gateway.url}/v1/sessions/{context}", headers=AUTH, timeout=30)
    assert session.status_code == 200, session.text


async def test_a_streamed_message_reports_work_then_the_answer(
    gateway: Process, http: httpx.AsyncClient
) -> None:
    client = await client_for(http, gateway, streaming=True)
    request = user_message("qual o preço da Microsoft?", f"a2a-{uuid.uuid4().hex}")
    events = [event async for event in client.send_message(request)]
    assert events[0].HasField("task")  # the task first, then its updates as they happen
    states = [e.status_update.status.state for e in events if e.HasField("status_update")]
    assert states[0] == TaskState.TASK_STATE_WORKING
    assert states[-1] == TaskState.TASK_STATE_COMPLETED
    working = [e.status_update.status for e in events if e.HasField("status_update")][:-1]
    assert any(get_message_text(s.message) for s in working), "the steps' progress lines"
    answers = [get_artifact_text(e.artifact_update.artifact) for e in events if e.HasField("artifact_update")]
    assert len(answers) == 1 and "MSFT" in answers[0]


def test_the_a2a_0_3_method_names_work_on_the_same_endpoint(gateway: Process) -> None:
    body = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "message/send",
        "params": {
            "message": {
                "kind": "message",
                "messageId": uuid.uuid4().hex,
                "role": "user",
                "parts": [{"kind": "text", "text": "qual o preço da Microsoft?"}],
            }
        },
    }
    response = httpx.post(f"{gateway.url}/a2a", json=body, headers=AUTH, timeout=60)
    assert response.status_code == 200, response.text
    result = response.json()["result"]
    assert result["status"]["state"] == "completed"
    assert "MSFT" in result["artifacts"][0]["parts"][0]["text"]


def test_bad_calls_are_json_rpc_errors(gateway: Process) -> None:
    not_json = httpx.post(f"{gateway.url}/a2a", content=b"{oops", headers=AUTH, timeout=30)
    assert not_json.json()["error"]["code"] == -32700
    unknown = httpx.post(
        f"{gateway.url}/a2a",
        json={"jsonrpc": "2.0", "id": 7, "method": "tasks/teleport", "params": {}},
        headers=AUTH,
        timeout=30,
    )
    assert unknown.json()["error"]["code"] == -32601 and unknown.json()["id"] == 7
    assert "Traceback" not in not_json.text + unknown.text


def test_the_endpoint_takes_the_same_api_keys_as_v1(gateway: Process) -> None:
    body = {"jsonrpc": "2.0", "id": 1, "method": "SendMessage", "params": {}}
    refused = httpx.post(f"{gateway.url}/a2a", json=body, timeout=30)
    assert refused.status_code == 401
    wrong = httpx.post(f"{gateway.url}/a2a", json=body, headers={"Authorization": "Bearer nope"}, timeout=30)
    assert wrong.status_code == 401
    assert "Traceback" not in refused.text


# ------------------------------------------------------------------ a remote agent as a domain


def chat(gateway: Process, session: str, text: str) -> str:
    response = httpx.post(
        f"{gateway.url}/v1/chat/completions",
        json={"model": "orchestrator", "messages": [{"role": "user", "content": text}]},
        headers={**AUTH, "X-Session-Id": session},
        timeout=60,
    )
    assert response.status_code == 200, response.text
    return str(response.json()["choices"][0]["message"]["content"])


def register(gateway: Process, body: dict[str, Any]) -> httpx.Response:
    return httpx.post(f"{gateway.url}/v1/domains", json=body, headers=ADMIN, timeout=60)


async def test_a_remote_a2a_agent_registered_by_its_card_answers_chat(
    gateway: Process, poet: Process, http: httpx.AsyncClient
) -> None:
    registered = register(gateway, {"name": "poet", "base_url": poet.url, "kind": "a2a"})
    assert registered.status_code == 201, registered.text
    try:
        assert registered.json()["goals"] == ["POET_WRITE_HAIKU"]
        assert registered.json()["base_url"] == f"{poet.url}/.well-known/agent-card.json"
        # routed like any domain, through the OpenAI channel
        answer = chat(gateway, f"poet-{uuid.uuid4().hex}", "escreva um haicai sobre o mar")
        assert answer.startswith("Mar ao vento"), answer
        # the agent's question is the platform's question; the reply finishes the agent's task
        session = f"poet-{uuid.uuid4().hex}"
        assert chat(gateway, session, "quero um haicai") == "Sobre qual tema você quer o haicai?"
        assert chat(gateway, session, "a lua").startswith("A lua ao vento")
        # the platform's own card follows the registration
        card = await card_of(http, gateway.url)
        assert "POET_WRITE_HAIKU" in {s.id for s in card.skills}
    finally:
        httpx.delete(f"{gateway.url}/v1/domains/poet", headers=ADMIN, timeout=30)


def test_a_card_whose_endpoint_is_elsewhere_or_absent_is_refused(gateway: Process) -> None:
    response = register(
        gateway, {"name": "nowhere", "base_url": f"{gateway.url}/nothing-here", "kind": "a2a"}
    )
    assert response.status_code in (400, 422, 502, 503), response.text
    assert response.json()["error"]["param"] == "base_url"
    assert "nowhere" not in domain_goals(gateway)
