"""RegistrySync hands the goals given with an MCP server to every gateway: a real SQLite file, a
real Redis and the MCP server a real process (``tests/fixtures/mcp_server.py``)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from redis.asyncio import Redis
from sqlalchemy.ext.asyncio import AsyncEngine

from gateway.coordination.registry_sync import RegistrySync
from gateway.storage.registrations import RegistrationStore
from orchestrator.client import DomainClient, domain_http_client
from orchestrator.mcp_domain import McpDomains, McpRegistration, mcp_base_url
from orchestrator.registry import DomainRegistry
from shared.manifest import Goal
from tests.conftest import Process, migrated_engines, start_fixture_domain

pytestmark = pytest.mark.integration

GIVEN = McpRegistration(
    description="Estoque do armazém",
    goals=[
        Goal.model_validate(
            {
                "goal": "STOCK_COUNT",
                "description": "Units of an item in stock",
                "entities_schema": {"item": {"type": "string", "required": True}},
                "capabilities": ["stock_level"],
                "examples": ["quantas unidades de parafuso temos?", "stock of porca"],
            }
        )
    ],
)
#: What the gateway generates from the fixture server's tools when nothing is given.
GENERATED = ["WAREHOUSE_RESERVE_ITEM", "WAREHOUSE_STOCK_LEVEL", "WAREHOUSE_STOCK_REPORT"]


@pytest.fixture(scope="module")
def warehouse() -> Iterator[Process]:
    server = start_fixture_domain("mcp_server")
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
async def engine(tmp_path: Path) -> AsyncIterator[AsyncEngine]:
    async with migrated_engines(f"sqlite:///{tmp_path / 'gateway.sqlite3'}") as (built,):
        yield built


class Gateway:
    """What one gateway process holds: its MCP client, registry and sync."""

    def __init__(self, engine: AsyncEngine, redis: Redis | None) -> None:
        self.mcp = McpDomains(timeout_s=10)
        self.client = DomainClient(domain_http_client(timeout=5.0), mcp=self.mcp)
        self.registry = DomainRegistry(self.client, env={})
        self.sync = RegistrySync(self.registry, redis, RegistrationStore(engine), mcp=self.mcp)

    async def close(self) -> None:
        await self.client.http.aclose()
        await self.mcp.aclose()


@pytest.fixture
async def gateways(engine: AsyncEngine) -> AsyncIterator[list[Gateway]]:
    started: list[Gateway] = []
    try:
        yield started
    finally:
        for gateway in started:
            await gateway.close()


async def started(gateways: list[Gateway], engine: AsyncEngine, redis: Redis | None) -> Gateway:
    gateway = Gateway(engine, redis)
    gateways.append(gateway)
    await gateway.sync.restore()
    return gateway


def goals_of(gateway: Gateway, name: str) -> list[str]:
    registered = gateway.registry.get(name)
    assert registered is not None and registered.healthy, registered
    return registered.goals


@pytest.mark.redis
async def test_another_gateway_builds_the_given_goals_and_drops_them_when_replaced(
    gateways: list[Gateway], engine: AsyncEngine, redis: Redis, warehouse: Process
) -> None:
    url = mcp_base_url(f"{warehouse.url}/mcp")
    a = await started(gateways, engine, redis)
    b = await started(gateways, engine, redis)
    with a.mcp.proposed("warehouse", GIVEN):
        await a.sync.register("warehouse", url)
    stored = await RegistrationStore(engine).all()
    assert stored[0].mcp_registration == GIVEN.model_dump(mode="json", exclude_defaults=True)

    await b.sync.sync()
    assert goals_of(b, "warehouse") == ["STOCK_COUNT"]

    # registered again at the same URL with nothing given: every gateway generates the goals again
    with a.mcp.proposed("warehouse", McpRegistration()):
        await a.sync.register("warehouse", url)
    await b.sync.sync()
    assert sorted(goals_of(b, "warehouse")) == GENERATED


async def test_a_stored_registration_without_goals_keeps_them_generated(
    gateways: list[Gateway], engine: AsyncEngine, warehouse: Process
) -> None:
    """An MCP server stored before goals were kept (or without any) restores with generated goals."""
    await RegistrationStore(engine).save("warehouse", mcp_base_url(f"{warehouse.url}/mcp"))
    restored = await started(gateways, engine, None)
    assert sorted(goals_of(restored, "warehouse")) == GENERATED


async def test_stored_goals_this_version_cannot_read_fall_back_to_generated_ones(
    gateways: list[Gateway], engine: AsyncEngine, warehouse: Process
) -> None:
    await RegistrationStore(engine).save(
        "warehouse", mcp_base_url(f"{warehouse.url}/mcp"), mcp_registration={"goals": [{"goal": 3}]}
    )
    restored = await started(gateways, engine, None)
    assert sorted(goals_of(restored, "warehouse")) == GENERATED
