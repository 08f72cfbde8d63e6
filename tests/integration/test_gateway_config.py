"""Gateway configuration: API keys, readiness, PostgreSQL storage, migrations == models."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import cast

import httpx
import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import Connection, MetaData

from gateway.app import create_app
from gateway.settings import GatewaySettings
from gateway.storage.migrate import upgrade
from gateway.storage.schema import target_metadata
from shared.db import create_engine
from tests.conftest import Process, in_process_client, start_fixture_domain, write_bootstrap

pytestmark = pytest.mark.integration


def settings_for(tmp_path: Path, domains: dict[str, Process], **overrides: object) -> GatewaySettings:
    bootstrap = write_bootstrap(tmp_path / "bootstrap.json", {n: p.url for n, p in domains.items()})
    values: dict[str, object] = {
        "database_url": f"sqlite+aiosqlite:///{tmp_path / 'gateway.sqlite3'}",
        "bootstrap_file": bootstrap,
        "redis_url": None,
        **overrides,
    }
    return GatewaySettings(**values)  # type: ignore[arg-type]


@asynccontextmanager
async def in_process(settings: GatewaySettings) -> AsyncIterator[httpx.AsyncClient]:
    """The gateway app in this process (lifespan run), reached through httpx's ASGI transport;
    its domains are still real processes over HTTP."""
    async with in_process_client(create_app(settings)) as client:
        yield client


async def test_api_keys_guard_every_v1_route(tmp_path: Path, domain_processes: dict[str, Process]) -> None:
    async with in_process(settings_for(tmp_path, domain_processes, api_keys="key-one, key-two")) as client:
        for method, path in (("GET", "/v1/models"), ("POST", "/v1/runs"), ("GET", "/v1/domains")):
            denied = await client.request(method, path, json={"input_text": "oi"})
            assert denied.status_code == 401, path
            assert denied.json()["error"]["type"] == "authentication_error"
        wrong = await client.get("/v1/models", headers={"Authorization": "Bearer nope"})
        assert wrong.status_code == 401
        ok = await client.get("/v1/models", headers={"Authorization": "Bearer key-two"})
        assert ok.status_code == 200
        assert (await client.get("/health")).status_code == 200
        ready = await client.get("/ready")
        assert ready.status_code == 200 and ready.json()["checks"]["database"] == "ok"


async def test_runtime_registration_is_disabled_without_admin_token(
    tmp_path: Path, domain_processes: dict[str, Process]
) -> None:
    async with in_process(settings_for(tmp_path, domain_processes, admin_token=None)) as client:
        response = await client.post("/v1/domains", json={"name": "x", "base_url": "http://127.0.0.1:9"})
        assert response.status_code == 403
        invalid = await client.post("/v1/runs", json={"input_text": ""})
        assert invalid.status_code == 400 and invalid.json()["error"]["param"] == "input_text"


@pytest.mark.postgres
async def test_gateway_on_postgresql_stores_runs(
    tmp_path: Path, domain_processes: dict[str, Process], pg_database_url: str
) -> None:
    async with in_process(settings_for(tmp_path, domain_processes, database_url=pg_database_url)) as client:
        created = (await client.post("/v1/runs", json={"input_text": "cotação da Vale"})).json()
        assert created["status"] == "completed"
        fetched = (await client.get(f"/v1/runs/{created['run_id']}")).json()
        assert fetched["answer"] == created["answer"] and "VALE3" in fetched["answer"]


def _diff(sync: Connection) -> list[object]:
    """What differs between the database and the models (alembic takes a list of MetaData too)."""
    diff: list[object] = compare_metadata(MigrationContext.configure(sync), cast(MetaData, target_metadata))
    return diff


async def _schema_diff(url: str, *, via: str | None = None) -> list[object]:
    """Migrate to head (through revision ``via`` first, when given) and compare with the models."""
    engine = create_engine(url)
    try:
        if via is not None:
            await upgrade(engine, via)
            async with engine.connect() as conn:
                partial = await conn.run_sync(_diff)
            assert partial, f"revision {via} alone should lack the graph tables"
        await upgrade(engine)
        async with engine.connect() as conn:
            return await conn.run_sync(_diff)
    finally:
        await engine.dispose()


async def test_migrations_match_the_models_on_sqlite(tmp_path: Path) -> None:
    assert await _schema_diff(f"sqlite+aiosqlite:///{tmp_path / 'fresh.sqlite3'}") == []


@pytest.mark.postgres
async def test_migrations_match_the_models_on_postgresql(pg_database_url: str) -> None:
    assert await _schema_diff(pg_database_url) == []


async def test_registration_reports_goals_that_overlap_registered_ones(
    tmp_path: Path, domain_processes: dict[str, Process]
) -> None:
    markets_domain = start_fixture_domain("overlap_domain")
    try:
        async with in_process(settings_for(tmp_path, domain_processes, admin_token="adm")) as client:
            refused = await client.post(
                "/v1/domains",
                json={"name": "markets", "base_url": markets_domain.url},
                headers={"Authorization": "Bearer adm"},
            )
            # overlapping goals need the admin's explicit override
            assert refused.status_code == 400 and refused.json()["error"]["code"] == "goal_overlap"
            response = await client.post(
                "/v1/domains",
                json={"name": "markets", "base_url": markets_domain.url, "allow_overlap": True},
                headers={"Authorization": "Bearer adm"},
            )
            assert response.status_code == 201, response.text
            overlaps = [w for w in response.json()["warnings"] if w["type"] == "goal_overlap"]
            assert any({o["goal_a"], o["goal_b"]} == {"STOCK_PRICE", "GET_QUOTE"} for o in overlaps)
            assert all(o["similarity"] >= 0.3 for o in overlaps)
            listed = (await client.get("/v1/domains")).json()["data"]
            markets = next(d for d in listed if d["name"] == "markets")
            assert markets["warnings"] == response.json()["warnings"]
            finance = next(d for d in listed if d["name"] == "finance")
            assert not [w for w in finance["warnings"] if w["type"] == "goal_overlap"]
    finally:
        markets_domain.stop()


async def test_an_upgraded_sqlite_database_matches_a_fresh_one(tmp_path: Path) -> None:
    # an upgraded database (0001, then head) must match a fresh one
    assert await _schema_diff(f"sqlite+aiosqlite:///{tmp_path / 'old.sqlite3'}", via="0001") == []


@pytest.mark.postgres
async def test_an_upgraded_postgresql_database_matches_a_fresh_one(pg_database_url: str) -> None:
    assert await _schema_diff(pg_database_url, via="0001") == []
