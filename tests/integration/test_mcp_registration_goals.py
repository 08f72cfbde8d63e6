"""The goals an admin gives with an MCP server outlive the gateway that took them: real gateway
processes on one SQLite file (no Redis), the MCP server a real process (``tests/fixtures/mcp_server.py``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.conftest import Process, chat, gateway_over, start_fixture_domain
from tests.fixtures.warehouse_goals import stock_goal

pytestmark = pytest.mark.integration

ADMIN = {"Authorization": "Bearer test-admin-token"}

STOCK_COUNT = stock_goal("STOCK_COUNT")


@pytest.fixture
def warehouse() -> Iterator[Process]:
    server = start_fixture_domain("mcp_server")
    try:
        yield server
    finally:
        server.stop()


def listed(gateway: Process) -> dict[str, dict[str, Any]]:
    response = httpx.get(f"{gateway.url}/v1/domains", headers=ADMIN, timeout=10)
    assert response.status_code == 200, response.text
    return {d["name"]: d for d in response.json()["data"]}


def test_goals_given_with_an_mcp_server_are_the_ones_used_after_a_restart(
    tmp_path: Path, domain_processes: dict[str, Process], warehouse: Process
) -> None:
    with gateway_over(domain_processes, tmp_path) as first:
        registered = httpx.post(
            f"{first.url}/v1/domains",
            json={
                "name": "warehouse",
                "kind": "mcp",
                "base_url": f"{warehouse.url}/mcp",
                "description": "Estoque do armazém",
                "goals": [STOCK_COUNT],
            },
            headers=ADMIN,
            timeout=60,
        )
        assert registered.status_code == 201, registered.text
        assert registered.json()["goals"] == ["STOCK_COUNT"]

    with gateway_over(domain_processes, tmp_path) as second:
        restored = listed(second)["warehouse"]
        assert restored["healthy"], restored
        # the given goal, not the ones generated from the tools
        assert restored["goals"] == ["STOCK_COUNT"]
        # its examples route the question (a generated goal has none in Portuguese)
        assert chat(second, "mcp-goals-1", "quantas unidades de parafuso temos no estoque?", 60) == (
            "item: parafuso, units: 120"
        )
