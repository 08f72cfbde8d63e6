"""MCP both ways, with the official ``mcp`` package on the other side:

* an MCP server (``tests/fixtures/mcp_server.py``, a real process) registered at runtime answers a
  chat message through ``/v1/chat/completions``;
* the gateway's ``/mcp``, driven by the package's client (``streamable_http_client`` +
  ``ClientSession``): tools listed from the registry, ``ask``, a goal tool, a clarification
  answered through ``ask``, and the API key check.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import httpx2
import pytest
from mcp import Client, ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.types import CallToolResult, TextContent

from orchestrator.mcp_domain import McpDomains
from shared.models import ExecutionIntent
from tests.conftest import Process, free_port, start_fixture_domain, start_gateway, write_bootstrap
from tests.fixtures.warehouse_goals import stock_goal

pytestmark = pytest.mark.integration

API_KEY = "test-mcp-key"
ADMIN = {"Authorization": "Bearer test-admin-token"}
USER = {"Authorization": f"Bearer {API_KEY}"}

STOCK_GOAL = stock_goal()


@pytest.fixture(scope="module")
def warehouse() -> Iterator[Process]:
    server = start_fixture_domain("mcp_server")
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def gateway(
    domain_processes: dict[str, Process], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Process]:
    """A gateway of its own (registering a domain changes the catalog other tests route with),
    with an API key, so ``/mcp`` is checked as ``/v1/*`` is."""
    work: Path = tmp_path_factory.mktemp("mcp-gateway")
    bootstrap = write_bootstrap(work / "bootstrap.json", {n: p.url for n, p in domain_processes.items()})
    process = start_gateway(
        {
            "DATABASE_URL": f"sqlite+aiosqlite:///{work / 'gateway.sqlite3'}",
            "BOOTSTRAP_FILE": str(bootstrap),
            "ADMIN_TOKEN": "test-admin-token",
            "API_KEYS": API_KEY,
            "REDIS_URL": "",
        }
    )
    try:
        yield process
    finally:
        process.stop()


@asynccontextmanager
async def mcp_session(
    gateway: Process, headers: dict[str, str] | None = None
) -> AsyncIterator[ClientSession]:
    async with (
        httpx2.AsyncClient(headers=USER if headers is None else headers, timeout=60) as http,
        streamable_http_client(f"{gateway.url}/mcp", http_client=http) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        yield session


def structured(result: CallToolResult) -> dict[str, Any]:
    assert not result.is_error, result.content
    assert isinstance(result.structured_content, dict)
    return result.structured_content


def text_of(result: CallToolResult) -> str:
    return "\n".join(c.text for c in result.content if isinstance(c, TextContent))


def register_warehouse(gateway: Process, warehouse: Process, **extra: Any) -> httpx.Response:
    return httpx.post(
        f"{gateway.url}/v1/domains",
        json={"name": "warehouse", "kind": "mcp", "base_url": f"{warehouse.url}/mcp", **extra},
        headers=ADMIN,
        timeout=60,
    )


# ---------------------------------------------------------------- an MCP server as a domain


async def test_tools_become_capabilities_with_their_schemas_and_hints(warehouse: Process) -> None:
    mcp = McpDomains()
    manifest = await mcp.manifest(f"mcp+{warehouse.url}/mcp", "warehouse")
    assert manifest.domain == "warehouse" and manifest.version == "1.2.0"
    assert manifest.description == "Warehouse stock: levels and reservations"  # the server's instructions
    caps = {c.name: c for c in manifest.capabilities}
    assert sorted(caps) == [
        "reserve_item",
        "stock_level",
        "stock_report",
    ]  # "Stock.Report" made an identifier
    level, reserve = caps["stock_level"], caps["reserve_item"]
    assert level.parameters["required"] == ["item"]
    assert level.output_schema is not None and level.output_schema["required"] == ["item", "units"]
    # idempotentHint: retried; destructiveHint: the approval flag, never retried
    assert (level.metadata.policy.attempts, level.metadata.policy.idempotent) == (2, True)
    assert level.metadata.policy.confirm is False
    assert (reserve.metadata.policy.attempts, reserve.metadata.policy.idempotent) == (1, False)
    assert reserve.metadata.policy.confirm is True
    # no goals given: one per tool, its entities from the input schema
    goals = {g.goal: g for g in manifest.goals}
    assert sorted(goals) == ["WAREHOUSE_RESERVE_ITEM", "WAREHOUSE_STOCK_LEVEL", "WAREHOUSE_STOCK_REPORT"]
    reserve_goal = goals["WAREHOUSE_RESERVE_ITEM"]
    assert reserve_goal.capabilities == ["reserve_item"]
    assert {n: (s.type, s.required) for n, s in reserve_goal.entities_schema.items()} == {
        "item": ("string", True),
        "units": ("string", True),
    }
    assert (
        reserve_goal.example_texts()[0]
        == "Reserve units of an item for an order (takes them out of the stock)."
    )

    # a call: the tool's real name, the parameters it declares as integers converted from text
    report = await mcp.execute(
        f"mcp+{warehouse.url}/mcp", ExecutionIntent(domain="warehouse", capability="stock_report")
    )
    assert report.status == "success" and report.explanation.startswith("Estoque:")
    refused = await mcp.execute(
        f"mcp+{warehouse.url}/mcp",
        ExecutionIntent(
            domain="warehouse", capability="reserve_item", parameters={"item": "porca", "units": "3"}
        ),
    )
    assert refused.status == "failure" and refused.failure is not None
    assert refused.failure.reason == "tool_error"


def test_an_mcp_server_registered_at_runtime_answers_a_chat_message(
    gateway: Process, warehouse: Process
) -> None:
    async def tool_names() -> set[str]:
        async with mcp_session(gateway) as session:
            return {t.name for t in (await session.list_tools()).tools}

    assert "stock_level" not in asyncio.run(tool_names())

    registered = register_warehouse(gateway, warehouse, goals=[STOCK_GOAL])
    assert registered.status_code == 201, registered.text
    body = registered.json()
    assert body["base_url"] == f"mcp+{warehouse.url}/mcp" and body["healthy"]
    assert body["goals"] == ["STOCK_LEVEL"]
    assert sorted(body["capabilities"]) == ["reserve_item", "stock_level", "stock_report"]

    response = httpx.post(
        f"{gateway.url}/v1/chat/completions",
        json={
            "model": "orchestrator",
            "messages": [{"role": "user", "content": "quantas unidades de parafuso temos no estoque?"}],
        },
        headers={**USER, "X-Session-Id": "mcp-chat-1"},
        timeout=60,
    )
    assert response.status_code == 200, response.text
    answer = response.json()["choices"][0]["message"]["content"]
    assert answer == "item: parafuso, units: 120"
    trace = httpx.get(
        f"{gateway.url}/v1/runs/{response.headers['X-Run-Id']}", headers=USER, timeout=10
    ).json()
    step = trace["steps"][0]
    assert (step["domain"], step["capability"], step["status"]) == ("warehouse", "stock_level", "completed")
    assert step["output"]["result"] == {"item": "parafuso", "units": 120}

    # the platform's own MCP server lists the new goal at once
    assert "stock_level" in asyncio.run(tool_names())


def test_a_registration_may_describe_the_server_and_its_goals_by_language(
    gateway: Process, warehouse: Process
) -> None:
    goal = {
        **STOCK_GOAL,
        "goal": "DEPOT_STOCK",
        "description": {"pt": "Quantas unidades há no depósito", "en": "How many units are in the depot"},
        "entities_schema": {"item": {"type": "string", "required": True, "description": {"pt": "O item"}}},
    }
    unknown_language = register_warehouse(
        gateway,
        warehouse,
        name="depot",
        goals=[{**goal, "description": {"fr": "Combien"}}],
        allow_overlap=True,
    )
    assert unknown_language.status_code == 400, unknown_language.text
    refused = unknown_language.json()["error"]
    assert refused["param"] == "goals[0].description" and "unknown language ['fr']" in refused["message"]
    registered = register_warehouse(
        gateway,
        warehouse,
        name="depot",
        description={"pt": "Depósito", "en": "Depot"},
        goals=[goal],
        allow_overlap=True,
    )
    assert registered.status_code == 201, registered.text
    try:

        async def depot_tool() -> Any:
            async with mcp_session(gateway) as session:
                return {t.name: t for t in (await session.list_tools()).tools}["depot_stock"]

        tool = asyncio.run(depot_tool())
        assert tool.description == "How many units are in the depot (domain: depot)"
        # no English text: the Portuguese one
        assert tool.input_schema["properties"]["item"]["description"] == "O item"
    finally:
        httpx.delete(f"{gateway.url}/v1/domains/depot", headers=ADMIN, timeout=30)


def test_registration_refuses_what_it_cannot_use(gateway: Process, warehouse: Process) -> None:
    down = httpx.post(
        f"{gateway.url}/v1/domains",
        json={"name": "nowhere", "kind": "mcp", "base_url": f"http://127.0.0.1:{free_port()}/mcp"},
        headers=ADMIN,
        timeout=30,
    )
    assert down.status_code == 503, down.text
    assert down.json()["error"]["param"] == "base_url"

    unknown_capability = {**STOCK_GOAL, "goal": "STOCK_COUNT", "capabilities": ["count_everything"]}
    bad_goal = httpx.post(
        f"{gateway.url}/v1/domains",
        json={
            "name": "stock",
            "kind": "mcp",
            "base_url": f"{warehouse.url}/mcp",
            "goals": [unknown_capability],
        },
        headers=ADMIN,
        timeout=30,
    )
    assert bad_goal.status_code == 400, bad_goal.text
    assert bad_goal.json()["error"]["code"] == "invalid_manifest"
    assert "count_everything" in bad_goal.json()["error"]["message"]

    goals_for_http = httpx.post(
        f"{gateway.url}/v1/domains",
        json={"name": "weather", "base_url": "http://127.0.0.1:1", "goals": [STOCK_GOAL]},
        headers=ADMIN,
        timeout=30,
    )
    assert goals_for_http.status_code == 400, goals_for_http.text
    assert goals_for_http.json()["error"]["param"] == "goals"


# ---------------------------------------------------------------- the platform as an MCP server


async def test_the_gateway_lists_ask_and_one_tool_per_goal(gateway: Process) -> None:
    async with mcp_session(gateway) as session:
        tools = {t.name: t for t in (await session.list_tools()).tools}
    assert tools["ask"].input_schema["required"] == ["message"]
    quote = tools["get_quote"]
    # in English (the manifest writes it in pt and en): one language, for the client's model
    assert quote.description == "The current price of one or more stocks (domain: finance)"
    assert quote.input_schema["required"] == ["symbol_text"]
    assert set(quote.input_schema["properties"]) == {"symbol_text", "notify", "session_id", "language"}
    assert quote.input_schema["properties"]["notify"]["type"] == "boolean"
    assert tools["top_movers"].input_schema["properties"]["direction"]["enum"]


async def test_ask_runs_a_turn_like_a_chat_message(gateway: Process) -> None:
    async with mcp_session(gateway) as session:
        result = await session.call_tool("ask", {"message": "qual o preço da Petrobras?"})
    answer = structured(result)
    assert answer["status"] == "completed"
    assert "PETR4" in answer["answer"] and text_of(result).startswith(answer["answer"])
    # the same turn a chat message makes: stored, with its trace, under the returned session
    trace = httpx.get(f"{gateway.url}/v1/runs/{answer['run_id']}", headers=USER, timeout=10).json()
    assert trace["session_id"] == answer["session_id"]
    assert trace["intent"]["goal"] == "GET_QUOTE" and trace["intent"]["adapter"] != "mcp"

    # the package's high-level client negotiates protocol 2026-07-28: same tools, same turn
    async with (
        httpx2.AsyncClient(headers=USER, timeout=60) as http,
        Client(streamable_http_client(f"{gateway.url}/mcp", http_client=http), cache=None) as client,
    ):
        assert client.protocol_version == "2026-07-28"
        follow_up = await client.call_tool(
            "ask", {"message": "e a Vale?", "session_id": answer["session_id"]}
        )
    assert "VALE3" in structured(follow_up)["answer"]


async def test_a_goal_tool_runs_its_goal_with_the_entities_given(gateway: Process) -> None:
    async with mcp_session(gateway) as session:
        result = await session.call_tool("get_quote", {"symbol_text": "Vale", "language": "en"})
    answer = structured(result)
    assert answer["status"] == "completed", answer
    trace = httpx.get(f"{gateway.url}/v1/runs/{answer['run_id']}", headers=USER, timeout=10).json()
    # no text was parsed: the intent is the one the tool call named
    assert trace["intent"]["adapter"] == "mcp" and trace["intent"]["confidence"] == 1.0
    assert trace["intent"]["entities"] == {"symbol_text": "Vale"}
    assert trace["steps"][0]["capability"] == "get_stock_price"
    assert "VALE3" in answer["answer"]


async def test_a_clarification_is_the_tool_result_and_ask_answers_it(gateway: Process) -> None:
    async with mcp_session(gateway) as session:
        asked = await session.call_tool("get_quote", {"symbol_text": "Nordea"})
        question = structured(asked)
        assert question["status"] == "waiting_input"
        assert text_of(asked).startswith("Encontrei mais de um ticker para 'Nordea'. Qual deles?")
        answered = await session.call_tool("ask", {"message": "2", "session_id": question["session_id"]})
    answer = structured(answered)
    assert answer["status"] == "completed" and answer["session_id"] == question["session_id"]
    assert "NDA-FI.HE" in answer["answer"]


async def test_bad_arguments_and_unknown_tools_are_tool_errors(gateway: Process) -> None:
    async with mcp_session(gateway) as session:
        missing = await session.call_tool("get_quote", {"notify": True})
        wrong = await session.call_tool("ask", {"message": "oi", "colour": "blue"})
        unknown = await session.call_tool("no_such_goal", {})
        blank = await session.call_tool("ask", {"message": "   "})
        stored_nul = await session.call_tool("get_quote", {"symbol_text": "Va\x00le"})
    assert missing.is_error and "symbol_text" in text_of(missing)
    assert wrong.is_error and "colour" in text_of(wrong)
    assert unknown.is_error and text_of(unknown) == "unknown tool 'no_such_goal'"
    assert blank.is_error and text_of(blank) == "invalid argument message: must not be blank"
    assert stored_nul.is_error and "symbol_text" in text_of(stored_nul)  # the /v1 boundary checks


def test_mcp_needs_the_api_key_as_v1_does(gateway: Process) -> None:
    initialize = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "t", "version": "1"},
        },
    }
    headers = {"Accept": "application/json, text/event-stream"}
    for auth in ({}, {"Authorization": "Bearer wrong-key"}):
        refused = httpx.post(f"{gateway.url}/mcp", json=initialize, headers={**headers, **auth}, timeout=10)
        assert refused.status_code == 401, refused.text
        assert refused.json()["error"]["code"] == "invalid_api_key"
    accepted = httpx.post(f"{gateway.url}/mcp", json=initialize, headers={**headers, **USER}, timeout=10)
    assert accepted.status_code == 200, accepted.text
    assert json.loads(accepted.text)["result"]["serverInfo"]["name"] == "agent-orchestrator"
    # stateless: no server-sent stream to open, as the transport lets a server say
    assert httpx.get(f"{gateway.url}/mcp", headers={**headers, **USER}, timeout=10).status_code == 405


async def test_an_mcp_server_listed_in_the_bootstrap_file_serves_generated_goals(
    warehouse: Process, tmp_path: Path
) -> None:
    """The scheme carries the protocol, so the bootstrap file (and a stored registration, which
    is loaded the same way at start) needs nothing else; with no goals given, each tool is one."""
    bootstrap = write_bootstrap(tmp_path / "bootstrap.json", {"warehouse": f"mcp+{warehouse.url}/mcp"})
    gateway = start_gateway(
        {
            "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'gateway.sqlite3'}",
            "BOOTSTRAP_FILE": str(bootstrap),
            "ADMIN_TOKEN": "test-admin-token",
            "API_KEYS": API_KEY,
            "REDIS_URL": "",
        }
    )
    try:
        listed = httpx.get(f"{gateway.url}/v1/domains", headers=ADMIN, timeout=10).json()["data"]
        assert [(d["name"], d["healthy"]) for d in listed] == [("warehouse", True)]
        assert sorted(listed[0]["goals"]) == [
            "WAREHOUSE_RESERVE_ITEM",
            "WAREHOUSE_STOCK_LEVEL",
            "WAREHOUSE_STOCK_REPORT",
        ]
        async with mcp_session(gateway) as session:
            result = await session.call_tool("warehouse_stock_level", {"item": "arruela"})
        assert structured(result)["answer"] == "item: arruela, units: 45"
    finally:
        gateway.stop()
