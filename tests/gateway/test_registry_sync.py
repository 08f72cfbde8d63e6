"""RegistrySync on a real database (SQLite and PostgreSQL), a real Redis and a real domain process:
runtime registrations are stored, restored at start, and announced to other gateways."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import pytest
from redis.asyncio import Redis
from sqlalchemy.ext.asyncio import AsyncEngine

from gateway.coordination.registry_sync import RegistrySync
from gateway.storage.migrate import upgrade
from gateway.storage.registrations import RegistrationStore
from orchestrator.client import DomainClient, domain_http_client
from orchestrator.registry import DomainRegistry
from shared.db import create_engine
from shared.errors import PlatformError
from tests.conftest import Process, free_port, start_fixture_domain, write_bootstrap

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def weather() -> Iterator[Process]:
    domain = start_fixture_domain("weather_domain")
    try:
        yield domain
    finally:
        domain.stop()


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A SQLite file in ``tmp_path``, or a fresh PostgreSQL database (``pg_database_url``)."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'gateway.sqlite3'}"
    return str(request.getfixturevalue("pg_database_url"))


@pytest.fixture
async def engine(database_url: str) -> AsyncIterator[AsyncEngine]:
    """The gateway database, migrated."""
    built = create_engine(database_url)
    await upgrade(built)
    try:
        yield built
    finally:
        await built.dispose()


@dataclass
class Gateway:
    """What one gateway process holds of the registry: its registry and its sync."""

    registry: DomainRegistry
    sync: RegistrySync


class StartGateway(Protocol):
    async def __call__(self, redis: Redis | None = None, bootstrap: Path | None = None) -> Gateway: ...


@pytest.fixture
async def gateways(engine: AsyncEngine) -> AsyncIterator[StartGateway]:
    """Call ``start(redis=None, bootstrap=None)`` for a freshly started gateway on ``engine``."""
    started: list[Gateway] = []
    clients: list[DomainClient] = []

    async def start(redis: Redis | None = None, bootstrap: Path | None = None) -> Gateway:
        client = DomainClient(domain_http_client(timeout=5.0))
        clients.append(client)
        registry = DomainRegistry(client, env={})
        if bootstrap is not None:
            await registry.load_bootstrap(bootstrap)
        sync = RegistrySync(registry, redis, RegistrationStore(engine))
        await sync.restore()
        started.append(Gateway(registry, sync))
        return started[-1]

    try:
        yield start
    finally:
        for client in clients:
            await client.http.aclose()


async def test_a_registration_is_restored_by_the_next_gateway(
    gateways: StartGateway, engine: AsyncEngine, weather: Process
) -> None:
    start = gateways
    first = await start()
    await first.sync.register("weather", weather.url + "/", "127.0.0.1")
    stored = await RegistrationStore(engine).all()
    assert [(r.name, r.base_url, r.registered_by) for r in stored] == [("weather", weather.url, "127.0.0.1")]

    restarted = await start()
    restored = restarted.registry.get("weather")
    assert restored is not None and restored.healthy and restored.base_url == weather.url
    assert restarted.registry.catalog.find_capability("get_forecast", "weather") is not None


async def test_an_unregistered_domain_stays_gone_after_a_restart(
    gateways: StartGateway, engine: AsyncEngine, weather: Process
) -> None:
    start = gateways
    first = await start()
    await first.sync.register("weather", weather.url)
    await first.sync.unregister("weather")
    assert await RegistrationStore(engine).all() == []
    restarted = await start()
    assert restarted.registry.get("weather") is None


async def test_a_refused_registration_is_not_stored(gateways: StartGateway, engine: AsyncEngine) -> None:
    start = gateways
    first = await start()
    with pytest.raises(PlatformError):
        await first.sync.register("weather", f"http://127.0.0.1:{free_port()}")
    assert await RegistrationStore(engine).all() == []
    assert first.registry.get("weather") is None


async def test_a_stored_domain_that_is_down_at_start_is_kept_unhealthy(
    gateways: StartGateway, engine: AsyncEngine
) -> None:
    down_url = f"http://127.0.0.1:{free_port()}"
    await RegistrationStore(engine).save("weather", down_url)
    restarted = await gateways()
    listed = restarted.registry.get("weather")
    assert listed is not None and not listed.healthy and listed.last_error
    assert [r.name for r in await RegistrationStore(engine).all()] == ["weather"]


async def test_a_stored_registration_overrides_the_bootstrap_entry(
    gateways: StartGateway, engine: AsyncEngine, weather: Process, tmp_path: Path
) -> None:
    bootstrap = write_bootstrap(tmp_path / "bootstrap.json", {"weather": f"http://127.0.0.1:{free_port()}"})
    await RegistrationStore(engine).save("weather", weather.url)
    restarted = await gateways(bootstrap=bootstrap)
    listed = restarted.registry.get("weather")
    assert listed is not None and listed.base_url == weather.url and listed.healthy


@pytest.mark.redis
async def test_other_gateways_hear_of_changes_and_reload_them_from_the_database(
    gateways: StartGateway, engine: AsyncEngine, weather: Process, redis: Redis
) -> None:
    start = gateways
    a = await start(redis)
    b = await start(redis)
    await a.sync.register("weather", weather.url)
    # Redis carries the notification only: the registration itself is in the database (the
    # registry's keys alone are listed: another test run may share this Redis database)
    assert await redis.keys("orch:registry:*") == [b"orch:registry:version"]
    await b.sync.sync()
    seen = b.registry.get("weather")
    assert seen is not None and seen.healthy

    await a.sync.unregister("weather")
    await b.sync.sync()
    assert b.registry.get("weather") is None


@pytest.mark.redis
async def test_a_gateway_that_missed_a_notification_still_reloads(
    gateways: StartGateway, weather: Process, redis: Redis
) -> None:
    start = gateways
    a = await start(redis)
    b = await start(redis)
    await b.sync.register("weather", weather.url)
    await a.sync.register("weather", weather.url)  # A has not synced B's change before its own
    await a.sync.unregister("weather")
    await b.sync.sync()
    assert b.registry.get("weather") is None
