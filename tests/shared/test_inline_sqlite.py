"""The SQLite engine runs statements on the event loop's thread and keeps transaction semantics."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest
from sqlalchemy import text

from shared.db import create_engine


async def test_statements_run_on_the_calling_thread(tmp_path: Path) -> None:
    engine = create_engine(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    seen: list[int] = []

    def tid() -> int:
        seen.append(threading.get_ident())
        return 1

    try:
        async with engine.connect() as conn:
            raw = await conn.get_raw_connection()
            # a user function runs on whichever thread executes the statement
            sqlite = raw.driver_connection._conn  # type: ignore[union-attr]
            sqlite.create_function("tid", 0, tid)
            assert (await conn.execute(text("select tid()"))).scalar() == 1
    finally:
        await engine.dispose()
    assert seen == [threading.get_ident()]


async def test_wal_and_foreign_keys_are_on(tmp_path: Path) -> None:
    engine = create_engine(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    try:
        async with engine.connect() as conn:
            assert (await conn.execute(text("pragma journal_mode"))).scalar() == "wal"
            assert (await conn.execute(text("pragma foreign_keys"))).scalar() == 1
    finally:
        await engine.dispose()


async def test_failed_transaction_rolls_back_and_concurrent_writers_all_land(tmp_path: Path) -> None:
    engine = create_engine(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    try:
        async with engine.begin() as conn:
            await conn.execute(text("create table t (id integer primary key, v text not null)"))
        with pytest.raises(Exception, match="NOT NULL"):
            async with engine.begin() as conn:
                await conn.execute(text("insert into t (v) values ('kept?')"))
                await conn.execute(text("insert into t (v) values (null)"))

        async def write(i: int) -> None:
            async with engine.begin() as conn:
                await conn.execute(text("insert into t (v) values (:v)"), {"v": f"w{i}"})
                await asyncio.sleep(0)  # yield between statement and commit

        await asyncio.gather(*(write(i) for i in range(20)))
        async with engine.connect() as conn:
            values = (await conn.execute(text("select v from t order by id"))).scalars().all()
    finally:
        await engine.dispose()
    assert "kept?" not in values
    assert sorted(values) == sorted(f"w{i}" for i in range(20))
