"""Prepared statements: on inline SQLite they run on the sqlite3 connection, and must write and
read exactly what ``conn.execute`` writes and reads; elsewhere they are ``conn.execute``."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import (
    JSON,
    Column,
    DateTime,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    bindparam,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from shared.db import create_engine
from shared.prepared import Prepared

meta = MetaData()
items = Table(
    "items",
    meta,
    Column("id", String(20), primary_key=True),
    Column("count", Integer),
    Column("body", JSON, nullable=True),
    Column("note", Text, nullable=True),
    Column("at", DateTime(timezone=True)),
)
events = Table(
    "events",
    meta,
    Column("item_id", String(20), primary_key=True),
    Column("n", Integer, primary_key=True),
)
with_default = Table(
    "with_default",
    MetaData(),
    Column("id", Integer, primary_key=True),
    Column("stamp", DateTime, default=lambda: datetime.now(UTC)),
)

INSERT_ITEM = Prepared(insert(items))
INSERT_EVENTS = Prepared(insert(events))
BUMP = Prepared(
    update(items)
    .where(items.c.id == bindparam("p_id"))
    .values(count=items.c.count + 1, note=bindparam("p_note"), body=bindparam("p_body", type_=JSON))
)
ITEM = Prepared(
    select(
        items.c.count,
        items.c.body,
        items.c.note,
        items.c.at,
        select(func.max(events.c.n)).where(events.c.item_id == bindparam("id")).scalar_subquery(),
    ).where(items.c.id == bindparam("id"))
)

AT = datetime(2026, 11, 22, 3, 4, 5, 678901, tzinfo=UTC)


def item(item_id: str, body: Any) -> dict[str, Any]:
    return {"id": item_id, "count": 1, "body": body, "note": "ção", "at": AT}


async def write_sample(conn: AsyncConnection) -> None:
    """One item, three events, the item bumped; a bump of a missing item matches nothing."""
    await INSERT_ITEM.execute(conn, item("x", {"k": 1}))
    await INSERT_EVENTS.executemany(conn, [{"item_id": "x", "n": n} for n in (1, 2, 7)])
    assert await BUMP.execute(conn, {"p_id": "x", "p_note": "bumped", "p_body": {"k": 2}}) == 1
    assert await BUMP.execute(conn, {"p_id": "nobody", "p_note": "", "p_body": None}) == 0


@pytest.fixture
async def sqlite_engine(tmp_path: Path) -> AsyncIterator[AsyncEngine]:
    engine = create_engine(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    async with engine.begin() as conn:
        await conn.run_sync(meta.create_all)
    yield engine
    await engine.dispose()


async def test_rows_written_directly_are_the_rows_sqlalchemy_writes(
    sqlite_engine: AsyncEngine, tmp_path: Path
) -> None:
    bodies = [{"a": [1, "é"], "b": None}, None]
    async with sqlite_engine.begin() as conn:
        for n, body in enumerate(bodies):
            await INSERT_ITEM.execute(conn, item(f"direct{n}", body))
            await conn.execute(insert(items), item(f"core{n}", body))
    await sqlite_engine.dispose()  # so a plain sqlite3 connection reads the committed file
    raw = sqlite3.connect(tmp_path / "db.sqlite3")
    stored = {row[0]: row[1:] for row in raw.execute("select id, count, body, note, at from items")}
    raw.close()
    for n in range(len(bodies)):
        assert stored[f"direct{n}"] == stored[f"core{n}"]
    assert stored["direct1"][1] == "null"  # JSON None is the JSON null, as SQLAlchemy stores it


async def test_reads_match_sqlalchemy_and_literals_in_statements_apply(sqlite_engine: AsyncEngine) -> None:
    async with sqlite_engine.begin() as conn:
        await write_sample(conn)
    async with sqlite_engine.connect() as conn:
        direct = await ITEM.first(conn, {"id": "x"})
        core = tuple((await conn.execute(ITEM.statement, {"id": "x"})).one())
        missing = await ITEM.first(conn, {"id": "nobody"})
    assert direct == core
    assert direct is not None and direct[:3] == (2, {"k": 2}, "bumped") and direct[4] == 7
    assert direct[3].replace(tzinfo=UTC) == AT  # SQLite keeps no zone; the microseconds survive
    assert missing is None


async def test_driver_errors_are_sqlalchemy_errors_and_roll_the_transaction_back(
    sqlite_engine: AsyncEngine,
) -> None:
    async with sqlite_engine.begin() as conn:
        await INSERT_ITEM.execute(conn, item("a", None))
    with pytest.raises(IntegrityError):
        async with sqlite_engine.begin() as conn:
            await INSERT_EVENTS.executemany(conn, [{"item_id": "a", "n": 1}])
            await INSERT_ITEM.execute(conn, item("a", None))  # duplicate key
    async with sqlite_engine.connect() as conn:
        assert (await conn.execute(select(func.count()).select_from(events))).scalar() == 0


async def test_misuse_is_refused(sqlite_engine: AsyncEngine) -> None:
    async with sqlite_engine.connect() as conn:
        # outside begin() SQLAlchemy would not commit what the driver wrote
        with pytest.raises(RuntimeError, match="inside a transaction"):
            await INSERT_ITEM.execute(conn, item("b", None))
    async with sqlite_engine.begin() as conn:
        await conn.run_sync(with_default.metadata.create_all)
        # a Python-side default is filled in by conn.execute, not by the driver
        with pytest.raises(ValueError, match="stamp"):
            await Prepared(insert(with_default)).execute(conn, {"id": 1})


async def test_postgresql_runs_the_same_calls_through_sqlalchemy(pg_database_url: str) -> None:
    engine = create_engine(pg_database_url)
    try:
        async with engine.begin() as conn:
            await conn.run_sync(meta.create_all)
            await write_sample(conn)
        async with engine.connect() as conn:
            row = await ITEM.first(conn, {"id": "x"})
            assert await ITEM.first(conn, {"id": "nobody"}) is None
        assert row == (2, {"k": 2}, "bumped", AT, 7)
        with pytest.raises(IntegrityError):
            async with engine.begin() as conn:
                await INSERT_ITEM.execute(conn, item("x", None))
    finally:
        await engine.dispose()
