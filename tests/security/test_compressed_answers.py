"""Issue 24, finding 3: a compressed answer is capped on its decoded bytes.

A domain process answers ``/health`` and ``/execute`` with under a kilobyte of
``Content-Encoding: gzip, gzip`` that inflates to 512 MiB of zeros. The call fails with the
answer-size error and the reader's peak RSS (``/proc``) does not grow by anything like the
inflated size: in the client on both transports, and in a gateway whose health refresh reads that
answer round after round. A genuinely compressed answer within the cap is still read.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from fastapi.middleware.gzip import GZipMiddleware

from orchestrator import DomainClient, DomainRegistry
from orchestrator.client import domain_http_client
from orchestrator.mcp_domain import mcp_base_url
from orchestrator.url_policy import UrlPolicy
from shared.errors import DomainProtocolError, PlatformError
from shared.models import ExecutionIntent
from tests.conftest import Process, start_fixture_domain, start_gateway, write_bootstrap
from tests.security.conftest import manifest, raw_app, serving
from tests.security.test_answer_size_cap import peak_rss_mb, reset_peak

CAP = 1_048_576
INFLATED_MB = 512
#: far below the inflated size, far above what reading a capped answer costs
GROWTH_MB = 64


@pytest.fixture(scope="module")
def bomb() -> Iterator[Process]:
    domain = start_fixture_domain("compressed_bomb_domain")
    try:
        yield domain
    finally:
        domain.stop()


def _client(transport: str) -> httpx.AsyncClient:
    if transport == "aiohttp":
        return domain_http_client(timeout=30.0, max_answer_bytes=CAP)
    return httpx.AsyncClient(timeout=30.0)


@pytest.mark.parametrize("transport", ["aiohttp", "httpx"])
async def test_a_compressed_health_answer_is_capped_on_its_decoded_size(
    bomb: Process, transport: str
) -> None:
    async with _client(transport) as http:
        client = DomainClient(http, max_answer_bytes=CAP)
        reset_peak()
        before = peak_rss_mb()
        with pytest.raises(DomainProtocolError, match=f"larger than {CAP} bytes"):
            await client.health(bomb.url)
        grown = peak_rss_mb() - before
    assert grown < GROWTH_MB, f"peak RSS grew {grown:.0f} MB reading a {INFLATED_MB} MB bomb"


async def test_a_compressed_execute_answer_is_capped_on_its_decoded_size(bomb: Process) -> None:
    intent = ExecutionIntent(domain="bomb", capability="inflate", confidence=1.0, original_query="x")
    async with _client("aiohttp") as http:
        client = DomainClient(http, max_answer_bytes=CAP)
        reset_peak()
        before = peak_rss_mb()
        with pytest.raises(DomainProtocolError, match=f"larger than {CAP} bytes"):
            await client.execute(bomb.url, intent, "k-1")
        grown = peak_rss_mb() - before
    assert grown < GROWTH_MB, f"peak RSS grew {grown:.0f} MB reading a {INFLATED_MB} MB bomb"


async def test_a_compressed_answer_within_the_cap_is_read() -> None:
    app = raw_app(manifest("zipped", [{"goal": "ZIPPED_THING", "description": "x " * 600}]))
    app.add_middleware(GZipMiddleware, minimum_size=10)
    async with serving(app) as url, _client("aiohttp") as http:
        registry = DomainRegistry(
            DomainClient(http, max_answer_bytes=CAP), env={}, url_policy=UrlPolicy(resolve=False)
        )
        registered = await registry.register("zipped", url)
        # the server did compress it: the same answer asked for with gzip comes back encoded
        async with httpx.AsyncClient() as plain:
            raw = await plain.get(f"{url}/manifest", headers={"Accept-Encoding": "gzip"})
    assert registered.healthy and registered.goals == ["ZIPPED_THING"]
    assert raw.headers["content-encoding"] == "gzip"


@pytest.mark.integration
def test_a_gateway_refreshing_a_bomb_keeps_its_memory_flat(bomb: Process, tmp_path: Path) -> None:
    gateway = start_gateway(
        {
            "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'g.sqlite3'}",
            "BOOTSTRAP_FILE": str(write_bootstrap(tmp_path / "b.json", {"bomb": bomb.url})),
            "REDIS_URL": "",
            "API_KEYS": "",
            "ADMIN_TOKEN": "bomb-admin",
            "REGISTRY_REFRESH_S": "0.5",
            "DOMAIN_MAX_ANSWER_BYTES": str(CAP),
        }
    )
    try:
        pid = gateway.proc.pid
        reset_peak(pid)
        before = peak_rss_mb(pid)
        checks: set[str] = set()
        deadline = time.monotonic() + 60
        while len(checks) < 4:  # four health checks of the bomb, each seen by its timestamp
            assert time.monotonic() < deadline, "the gateway stopped re-checking the domain"
            listed = httpx.get(f"{gateway.url}/v1/domains", headers={"Authorization": "Bearer bomb-admin"})
            assert listed.status_code == 200, listed.text
            domain = listed.json()["data"][0]
            if domain["checked_at"]:
                checks.add(domain["checked_at"])
            time.sleep(0.1)  # polling interval, not a wait for readiness
        grown = peak_rss_mb(pid) - before
        assert not domain["healthy"] and f"larger than {CAP} bytes" in domain["last_error"], domain
        assert httpx.get(f"{gateway.url}/health", timeout=5).status_code == 200
    finally:
        gateway.stop()
    assert grown < GROWTH_MB, f"the gateway's peak RSS grew {grown:.0f} MB over the refreshes"


async def test_a_compressed_mcp_answer_is_capped_on_its_decoded_size(bomb: Process) -> None:
    """An MCP server registered as a domain goes through the MCP SDK's own HTTP client: its answers
    are capped on their decoded size too."""
    async with _client("aiohttp") as http:
        client = DomainClient(http, max_answer_bytes=CAP)
        try:
            reset_peak()
            before = peak_rss_mb()
            with pytest.raises(PlatformError):
                await client.manifest(mcp_base_url(f"{bomb.url}/mcp"), "bomb")
            grown = peak_rss_mb() - before
        finally:
            await client.mcp.aclose()
    assert grown < GROWTH_MB, f"peak RSS grew {grown:.0f} MB reading a {INFLATED_MB} MB bomb over MCP"
