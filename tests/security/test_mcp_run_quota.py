"""Issue 24, finding 12: an MCP tool call is a turn, and holds a place in the key's
``MAX_CONCURRENT_RUNS_PER_KEY`` as a chat completion does: over the limit it is a tool error
saying so (nothing runs), and while it runs the key's other turns are refused with 429.

A real gateway process over the real slow domain (its capability runs until the call is cut).
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.conftest import Process, gateway_over, start_fixture_domain

pytestmark = pytest.mark.integration

SLOW_TEXT = "reconcilia o inventário"
KEY = "mcp-quota-key-3b9a"
AUTH = {"Authorization": f"Bearer {KEY}"}
MCP_HEADERS = {**AUTH, "Accept": "application/json, text/event-stream"}


@pytest.fixture(scope="module")
def slow() -> Iterator[Process]:
    domain = start_fixture_domain("slow_domain")
    try:
        yield domain
    finally:
        domain.stop()


@pytest.fixture(scope="module")
def gateway(slow: Process, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Process]:
    env = {
        "API_KEYS": KEY,
        "MAX_CONCURRENT_RUNS_PER_KEY": "1",
        # a slow turn holds its slot for these seconds, then the call is cut
        "DOMAIN_TIMEOUT_MAX_S": "4",
        "DOMAIN_ATTEMPTS_MAX": "1",
        "BREAKER_THRESHOLD": "1000",
    }
    with gateway_over({"slowpoke": slow}, tmp_path_factory.mktemp("mcp-quota"), env) as process:
        yield process


def call_tool(gateway: Process, message: str) -> dict[str, Any]:
    body = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {
            "name": "ask",
            "arguments": {"message": message, "session_id": f"mq-{uuid.uuid4().hex[:8]}"},
        },
    }
    response = httpx.post(f"{gateway.url}/mcp", json=body, headers=MCP_HEADERS, timeout=60)
    assert response.status_code == 200, response.text
    result: dict[str, Any] = json.loads(response.text)["result"]
    return result


def started(slow: Process) -> int:
    return int(httpx.get(f"{slow.url}/started", timeout=10).json()["started"])


def wait_started(slow: Process, count: int) -> None:
    deadline = time.monotonic() + 30
    while started(slow) < count:
        assert time.monotonic() < deadline, "the slow call never started"
        time.sleep(0.05)


def wait_slot_free(gateway: Process) -> None:
    """Until a quick request that runs a turn is let through (the previous turn has ended)."""
    deadline = time.monotonic() + 60
    while True:
        response = httpx.post(
            f"{gateway.url}/v1/runs",
            json={"input_text": "oi", "session_id": f"mq-{uuid.uuid4().hex[:8]}"},
            headers=AUTH,
            timeout=60,
        )
        if response.status_code != 429:
            return
        assert time.monotonic() < deadline, "the key's slot never came back"
        time.sleep(0.1)


def test_a_tool_call_over_the_limit_is_a_tool_error_and_nothing_runs(gateway: Process, slow: Process) -> None:
    wait_slot_free(gateway)
    before = started(slow)
    held = httpx.post(
        f"{gateway.url}/v1/runs",
        json={"input_text": SLOW_TEXT, "background": True, "session_id": f"mq-{uuid.uuid4().hex[:8]}"},
        headers=AUTH,
        timeout=30,
    )
    assert held.status_code == 202, held.text
    wait_started(slow, before + 1)
    result = call_tool(gateway, SLOW_TEXT)
    assert result["isError"] and "at once" in result["content"][0]["text"], result
    assert started(slow) == before + 1  # the refused call reached no domain


def test_a_running_tool_call_holds_the_keys_slot(gateway: Process, slow: Process) -> None:
    wait_slot_free(gateway)
    before = started(slow)
    results: list[dict[str, Any]] = []
    caller = threading.Thread(target=lambda: results.append(call_tool(gateway, SLOW_TEXT)))
    caller.start()
    try:
        wait_started(slow, before + 1)
        chat = httpx.post(
            f"{gateway.url}/v1/chat/completions",
            json={"model": "orchestrator", "messages": [{"role": "user", "content": "oi"}]},
            headers=AUTH,
            timeout=60,
        )
        assert chat.status_code == 429, chat.text
        assert "at once" in chat.json()["error"]["message"]
    finally:
        caller.join(60)
    assert results and not results[0].get("isError"), results
