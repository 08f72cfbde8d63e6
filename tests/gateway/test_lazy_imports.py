"""The gateway's start does not load the protocol SDKs it needs only later (issue 28): importing
``gateway.app`` leaves out the ``mcp`` and ``a2a`` SDKs, which the platform's ``/mcp`` and
``/a2a`` servers import on their first request (gateway/channels/deferred.py), and MCP
servers and A2A agents registered as domains on their first call."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import httpx
import pytest
from starlette.types import Receive, Scope, Send

from gateway.app import create_app
from gateway.channels.deferred import ChannelUnavailable, Deferred
from gateway.settings import GatewaySettings
from tests.conftest import ROOT

#: Top-level packages ``import gateway.app`` must not load.
LAZY = ("mcp", "mcp_types", "a2a")

#: Seconds a lifespan may take to start, serve the test and stop before the test fails.
LIFESPAN_BOUND_S = 90.0


@asynccontextmanager
async def bounded(seconds: float) -> AsyncIterator[None]:
    """Fail the block after ``seconds``, printing every task's stack first: a lifespan that never
    ends otherwise hangs the whole suite with no clue to what it waits on."""
    current = asyncio.current_task()
    assert current is not None

    async def watch() -> None:
        await asyncio.sleep(seconds)
        for task in asyncio.all_tasks():
            print(f"--- {task.get_name()}", file=sys.stderr)
            task.print_stack(file=sys.stderr)
        current.cancel()

    watchdog = asyncio.create_task(watch(), name="lifespan-watchdog")
    try:
        yield
    finally:
        watchdog.cancel()


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


def test_importing_the_gateway_loads_no_protocol_sdk() -> None:
    loaded = loaded_packages("import gateway.app")
    assert "gateway" in loaded
    assert not loaded & set(LAZY), f"import gateway.app loaded {sorted(loaded & set(LAZY))}"


def test_the_domain_client_and_protocol_helpers_load_no_protocol_sdk() -> None:
    loaded = loaded_packages(
        "from orchestrator.mcp_domain import McpDomains, McpRegistration, endpoint_url, mcp_base_url\n"
        "from orchestrator.mcp_stdio import is_stdio_url, stdio_base_url\n"
        "from orchestrator.mcp_bootstrap import read_mcp_entries\n"
        "from orchestrator.a2a_domain import agent_card_url\n"
        "from orchestrator.client import DomainClient, domain_http_client\n"
        "DomainClient(domain_http_client()); McpRegistration()"
    )
    assert not loaded & set(LAZY)


@pytest.fixture
def settings(tmp_path: Path) -> GatewaySettings:
    return GatewaySettings(
        database_url=f"sqlite+aiosqlite:///{tmp_path / 'gateway.sqlite3'}",
        bootstrap_file=tmp_path / "no-bootstrap.json",
        redis_url=None,
    )


async def test_mcp_and_a2a_start_on_their_first_call_and_stop_with_the_gateway(
    settings: GatewaySettings,
) -> None:
    app = create_app(settings)
    async with bounded(LIFESPAN_BOUND_S), app.router.lifespan_context(app) as state:
        assert state is not None
        servers = [state["mcp"], state["a2a"]]
        assert all(isinstance(server, Deferred) for server in servers)

        async def with_state(scope: Scope, receive: Receive, send: Send) -> None:
            await app({**scope, "state": dict(state)}, receive, send)

        transport = httpx.ASGITransport(app=with_state)
        async with httpx.AsyncClient(transport=transport, base_url="http://gw") as client:
            # sent at once: each first call starts its server, in a task of its own, and waits for it
            listed, card = await asyncio.gather(
                client.post(
                    "/mcp",
                    json={"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}},
                    headers={"Accept": "application/json, text/event-stream"},
                ),
                client.get("/.well-known/agent-card.json"),
            )
        assert listed.status_code == 200, listed.text
        assert [tool["name"] for tool in listed.json()["result"]["tools"]] == ["ask"]
        assert card.status_code == 200, card.text
        assert card.json()["supportedInterfaces"][0]["url"] == "http://gw/a2a"
        # started once: later calls get the same server
        assert await servers[0].server() is await servers[0].server()
    # the lifespan ended: the servers were stopped (MCP's session manager with them), and a late
    # call is refused at once, not left waiting
    for server in servers:
        with pytest.raises(ChannelUnavailable):
            await asyncio.wait_for(server.server(), 1)


async def test_a_gateway_whose_channels_were_never_called_stops_cleanly(settings: GatewaySettings) -> None:
    app = create_app(settings)
    async with bounded(LIFESPAN_BOUND_S), app.router.lifespan_context(app) as state:
        assert state is not None
        servers = [state["mcp"], state["a2a"]]
    for server in servers:  # never started, and not startable once the gateway stopped
        with pytest.raises(ChannelUnavailable):
            await asyncio.wait_for(server.server(), 1)
