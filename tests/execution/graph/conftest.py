"""Checkpointer fixtures: in memory, SQLite (tmp file) and the real PostgreSQL (unique schema)."""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from execution.graph import CachingCheckpointer, Checkpointer, InMemoryCheckpointer, SqlCheckpointer
from tests.conftest import unavailable

PG_URL = os.environ.get("TEST_GRAPH_PG_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/test")


async def sqlite_checkpointer(path: Path, snapshot_every: int = 50) -> SqlCheckpointer:
    ck = SqlCheckpointer.from_url(f"sqlite+aiosqlite:///{path}", snapshot_every=snapshot_every)
    await ck.create_tables()
    return ck


async def postgres_checkpointer(snapshot_every: int = 50) -> tuple[SqlCheckpointer, str]:
    """A checkpointer whose tables live in a fresh schema of the ``test`` database."""
    schema = f"graph_{uuid.uuid4().hex[:12]}"
    engine = create_async_engine(PG_URL)
    try:
        async with engine.begin() as conn:
            await conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    except (TimeoutError, OSError) as exc:
        await engine.dispose()
        unavailable(f"PostgreSQL at {PG_URL} ({exc})")
    scoped = engine.execution_options(schema_translate_map={None: schema})
    ck = SqlCheckpointer(scoped, snapshot_every=snapshot_every, owns_engine=True)
    await ck.create_tables()
    return ck, schema


async def drop_schema(schema: str) -> None:
    engine = create_async_engine(PG_URL)
    try:
        async with engine.begin() as conn:
            await conn.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
    finally:
        await engine.dispose()


@pytest.fixture(
    params=[
        "memory",
        "sqlite",
        "cached-sqlite",
        pytest.param("postgres", marks=pytest.mark.postgres),
        pytest.param("cached-postgres", marks=pytest.mark.postgres),
    ]
)
async def checkpointer(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Checkpointer]:
    if request.param == "memory":
        yield InMemoryCheckpointer()
    elif request.param.endswith("sqlite"):
        ck = await sqlite_checkpointer(tmp_path / "graph.sqlite3")
        yield CachingCheckpointer(ck) if request.param.startswith("cached") else ck
        await ck.close()
    else:
        pg, schema = await postgres_checkpointer()
        try:
            yield CachingCheckpointer(pg) if request.param.startswith("cached") else pg
        finally:
            await pg.close()
            await drop_schema(schema)
