"""Where the durable engine keeps its workflows (``durable_database_url``): its own SQLite file
beside the gateway's, the gateway's file while that holds unfinished workflows from before, the
gateway's PostgreSQL database, or ``DURABLE_DATABASE_URL``."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from gateway.durable.engine import durable_database_url, own_file
from gateway.durable.settings import DurableSettings
from shared.db import create_engine


def test_the_own_file_is_beside_the_gateways() -> None:
    assert (
        own_file("sqlite+aiosqlite:////var/lib/gw/gateway.sqlite3")
        == "sqlite:////var/lib/gw/gateway-dbos.sqlite3"
    )
    assert own_file("sqlite:///data/gateway") == "sqlite:///data/gateway-dbos"


async def where(database: Path, **settings: str) -> str:
    url = f"sqlite+aiosqlite:///{database}"
    engine = create_engine(url)
    try:
        return await durable_database_url(engine, url, DurableSettings(**settings))  # type: ignore[arg-type]
    finally:
        await engine.dispose()


def with_workflows(database: Path, *statuses: str) -> None:
    # the column the decision reads of DBOS's table (a real one: tests/integration/test_durable_upgrade.py)
    with sqlite3.connect(database) as conn:
        conn.execute("CREATE TABLE workflow_status (workflow_uuid TEXT PRIMARY KEY, status TEXT)")
        conn.executemany(
            "INSERT INTO workflow_status VALUES (?, ?)", [(str(i), s) for i, s in enumerate(statuses)]
        )


async def test_a_new_install_gets_a_file_of_its_own_in_wal_mode(tmp_path: Path) -> None:
    assert await where(tmp_path / "gateway.sqlite3") == f"sqlite:///{tmp_path / 'gateway-dbos.sqlite3'}"
    with sqlite3.connect(tmp_path / "gateway-dbos.sqlite3") as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


@pytest.mark.parametrize("status", ["PENDING", "ENQUEUED", "DELAYED"])
async def test_unfinished_workflows_in_the_gateway_file_keep_the_engine_there(
    tmp_path: Path, status: str, caplog: pytest.LogCaptureFixture
) -> None:
    gateway = tmp_path / "gateway.sqlite3"
    with_workflows(gateway, "SUCCESS", status)
    assert await where(gateway) == f"sqlite:///{gateway}"
    assert not (tmp_path / "gateway-dbos.sqlite3").exists()
    assert "1 unfinished workflow(s)" in caplog.text


async def test_finished_ones_do_not(tmp_path: Path) -> None:
    gateway = tmp_path / "gateway.sqlite3"
    with_workflows(gateway, "SUCCESS", "ERROR", "CANCELLED")
    assert await where(gateway) == f"sqlite:///{tmp_path / 'gateway-dbos.sqlite3'}"


async def test_once_the_own_file_exists_it_is_the_one(tmp_path: Path) -> None:
    gateway = tmp_path / "gateway.sqlite3"
    sqlite3.connect(tmp_path / "gateway-dbos.sqlite3").close()
    with_workflows(gateway, "PENDING")
    assert await where(gateway) == f"sqlite:///{tmp_path / 'gateway-dbos.sqlite3'}"


async def test_the_setting_decides_when_set(tmp_path: Path) -> None:
    chosen = await where(tmp_path / "gateway.sqlite3", database_url="postgresql+asyncpg://u@h/db")
    assert chosen == "postgresql+psycopg://u@h/db"
    assert not (tmp_path / "gateway-dbos.sqlite3").exists()


async def test_postgresql_keeps_the_gateways_database() -> None:
    url = "postgresql+asyncpg://u@127.0.0.1:1/db"
    engine = create_engine(url)
    try:
        # no connection is made: nothing to decide on PostgreSQL
        assert (
            await durable_database_url(engine, url, DurableSettings())
            == "postgresql+psycopg://u@127.0.0.1:1/db"
        )
    finally:
        await engine.dispose()
