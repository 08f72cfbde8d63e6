"""The gateway's start does not load the protocol SDKs it needs only later (issue 28): importing
``gateway.app`` leaves out the ``mcp`` SDK, which the platform's ``/mcp`` server imports in the
background after start-up and MCP domains on their first call."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from starlette.types import Receive, Scope, Send

from gateway.app import create_app
from gateway.channels.mcp_endpoint import McpEndpoint, McpUnavailable
from gateway.settings import GatewaySettings
from tests.conftest import ROOT

#: Top-level packages ``import gateway.app`` must not load.
LAZY = ("mcp", "mcp_types")


def loaded_packages(statement: str) -> set[str]:
    """The top-level packages in ``sys.modules`` after ``statement``, in a fresh interpreter."""
    code = (
        f"import json, sys\n{statement}\nprint(json.dumps(sorted({{m.split('.')[0] for m in sys.modules}})))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return set(json.loads(done.stdout.splitlines()[-1]))


def test_importing_the_gateway_loads_no_mcp_sdk() -> None:
    loaded = loaded_packages("import gateway.app")
    assert "gateway" in loaded
    assert not loaded & set(LAZY), f"import gateway.app loaded {sorted(loaded & set(LAZY))}"


def test_the_mcp_helpers_the_registry_uses_load_no_mcp_sdk() -> None:
    loaded = loaded_packages(
        "from orchestrator.mcp_domain import McpDomains, McpRegistration, endpoint_url, mcp_base_url\n"
        "from orchestrator.mcp_stdio import is_stdio_url, stdio_base_url\n"
        "from orchestrator.mcp_bootstrap import read_mcp_entries\n"
        "McpDomains(); McpRegistration()"
    )
    assert not loaded & set(LAZY)


@pytest.fixture
def settings(tmp_path: Path) -> GatewaySettings:
    return GatewaySettings(
        database_url=f"sqlite+aiosqlite:///{tmp_path / 'gateway.sqlite3'}",
        bootstrap_file=tmp_path / "no-bootstrap.json",
        redis_url=None,
    )


async def test_mcp_answers_from_the_start_and_stops_with_the_gateway(settings: GatewaySettings) -> None:
    app = create_app(settings)
    async with app.router.lifespan_context(app) as state:
        assert state is not None
        endpoint = state["mcp"]
        assert isinstance(endpoint, McpEndpoint)

        async def with_state(scope: Scope, receive: Receive, send: Send) -> None:
            await app({**scope, "state": dict(state)}, receive, send)

        transport = httpx.ASGITransport(app=with_state)
        async with httpx.AsyncClient(transport=transport, base_url="http://gw") as client:
            # sent at once: the call waits for the server the lifespan started in the background
            listed = await client.post(
                "/mcp",
                json={"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}},
                headers={"Accept": "application/json, text/event-stream"},
            )
        assert listed.status_code == 200, listed.text
        assert [tool["name"] for tool in listed.json()["result"]["tools"]] == ["ask"]
    # the lifespan ended: the session manager was stopped, and a late call is refused, not hung
    with pytest.raises(McpUnavailable):
        await endpoint.server()
