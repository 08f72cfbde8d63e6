"""``shared.db``: one engine code path for SQLite and PostgreSQL, and one declarative base whose
services each create or migrate only their own tables."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from sqlalchemy import Column, Integer, MetaData, String, Table, event, insert, inspect, select, text
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from domains.research.store import RESEARCH_TABLES, EventRow, ResearchStore
from domains.research.store import SessionRow as ResearchSessionRow
from gateway.storage.schema import target_metadata
from gateway.storage.tables import RunRow, SessionRow
from graph.checkpoint import GRAPH_TABLES, GraphSessionRow, SqlCheckpointer
from shared.db import Base, create_engine

notes_metadata = MetaData()
notes = Table(
    "notes",
    notes_metadata,
    Column("id", Integer, primary_key=True),
    Column("text", String(40), nullable=False),
)


async def _table_names(engine: AsyncEngine) -> set[str]:
    def names(sync: Connection) -> set[str]:
        return set(inspect(sync).get_table_names())

    async with engine.connect() as conn:
        return await conn.run_sync(names)


async def test_sqlite_and_postgresql_take_their_async_drivers(database_url: str) -> None:
    engine = create_engine(database_url)  # a plain sync URL is accepted
    try:
        expected = "aiosqlite" if database_url.startswith("sqlite") else "asyncpg"
        assert engine.dialect.driver == expected
        async with engine.connect() as conn:
            assert (await conn.execute(text("select 40 + 2"))).scalar() == 42
    finally:
        await engine.dispose()


async def test_sqlite_connections_get_wal_and_foreign_keys(tmp_path: Any) -> None:
    engine = create_engine(f"sqlite:///{tmp_path / 'nested' / 'db.sqlite3'}")  # the folder is made
    try:
        async with engine.connect() as conn:
            assert (await conn.execute(text("pragma journal_mode"))).scalar() == "wal"
            assert (await conn.execute(text("pragma foreign_keys"))).scalar() == 1
            assert (await conn.execute(text("pragma synchronous"))).scalar() == 1  # NORMAL
    finally:
        await engine.dispose()


async def test_a_failed_transaction_rolls_back_and_concurrent_writers_all_land(database_url: str) -> None:
    engine = create_engine(database_url)
    try:
        async with engine.begin() as conn:
            await conn.run_sync(notes_metadata.create_all)
        with pytest.raises(IntegrityError):
            async with engine.begin() as conn:
                await conn.execute(insert(notes), {"id": 1, "text": "rolled back"})
                await conn.execute(insert(notes), {"id": 2, "text": None})

        async def write(i: int) -> None:
            async with engine.begin() as conn:
                await conn.execute(insert(notes), {"id": 100 + i, "text": f"w{i}"})
                await asyncio.sleep(0)  # let the other writers run between statement and commit

        await asyncio.gather(*(write(i) for i in range(20)))
        async with engine.connect() as conn:
            texts = (await conn.execute(select(notes.c.text).order_by(notes.c.id))).scalars().all()
        assert texts == [f"w{i}" for i in range(20)]
    finally:
        await engine.dispose()


async def test_a_statement_built_once_is_compiled_once(database_url: str) -> None:
    """SQLAlchemy's compiled cache serves a repeated statement: no per-dialect fast path needed."""
    engine = create_engine(database_url)
    compiled: list[object] = []

    def seen(conn: Any, cursor: Any, statement: str, params: Any, context: Any, many: bool) -> None:
        if "FROM notes" in statement:
            compiled.append(context.compiled)

    event.listen(engine.sync_engine, "before_cursor_execute", seen)
    by_id = select(notes.c.text).where(notes.c.id == 1)
    try:
        async with engine.begin() as conn:
            await conn.run_sync(notes_metadata.create_all)
            for _ in range(3):
                await conn.execute(by_id)
                await conn.execute(select(notes.c.text).where(notes.c.id == 2))  # rebuilt, same SQL
    finally:
        await engine.dispose()
    assert len(compiled) == 6 and all(c is compiled[0] for c in compiled)


def test_every_service_declares_its_tables_on_the_one_base() -> None:
    for row in (SessionRow, RunRow, GraphSessionRow, EventRow, ResearchSessionRow):
        assert row.metadata is Base.metadata


def test_the_gateway_migrations_target_only_the_gateway_database() -> None:
    # the research store is imported (above), so its tables are on the shared metadata...
    assert {"research_sessions", "research_events"} <= set(Base.metadata.tables)
    # ...but not in what the gateway's migrations create and compare
    assert set(target_metadata.tables) == {
        "sessions",
        "runs",
        "domain_registrations",
        "graph_sessions",
        "graph_versions",
        "api_keys",
        "conversation_points",
        "write_probe",
        "approvals",
        "standing_requests",
        "standing_firings",
        "gateway_liveness",
    }


async def test_the_checkpointer_creates_only_the_graph_tables(database_url: str) -> None:
    checkpointer = SqlCheckpointer.from_url(database_url)
    try:
        await checkpointer.create_tables()
        assert await _table_names(checkpointer.engine) == {t.name for t in GRAPH_TABLES}
    finally:
        await checkpointer.close()


async def test_the_research_store_creates_only_its_own_and_the_graph_tables(database_url: str) -> None:
    engine = create_engine(database_url)
    try:
        await ResearchStore(engine).create_tables()
        await ResearchStore(engine).create_tables()  # idempotent
        expected = {t.name for t in (*RESEARCH_TABLES, *GRAPH_TABLES)}
        assert await _table_names(engine) == expected
    finally:
        await engine.dispose()
