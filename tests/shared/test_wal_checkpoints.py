"""SQLite's WAL checkpointed from a thread of its own (shared.db.WalCheckpoints)."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from pathlib import Path

import pytest
from sqlalchemy import Engine

from sdk import IdempotencyStore
from shared.db import CHECKPOINTED_WAL_PAGES, WalCheckpoints, create_engine, create_sqlite_engine
from shared.models import DomainOutput

ROWS = 200
ROW_BYTES = 4000


def _writer(path: Path) -> sqlite3.Connection:
    """A connection that never checkpoints by itself: only the background thread can."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    conn.execute("PRAGMA wal_autocheckpoint=0")
    conn.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)")
    return conn


def _grown_to(path: Path, size: int, timeout_s: float = 10.0) -> bool:
    """Whether the database file reaches ``size`` bytes within ``timeout_s`` (the thread's copy)."""
    deadline = time.monotonic() + timeout_s
    while path.stat().st_size < size:
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def test_the_background_thread_copies_the_wal_into_the_database_file(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    conn = _writer(path)
    for _ in range(ROWS):
        conn.execute("INSERT INTO t (v) VALUES (?)", ("x" * ROW_BYTES,))
    # everything is still in the WAL: the database file holds the schema page(s) only
    assert path.stat().st_size < ROW_BYTES * 4
    checkpoints = WalCheckpoints(f"sqlite+aiosqlite:///{path}", interval_s=0.05)
    checkpoints.start()
    try:
        assert _grown_to(path, ROWS * ROW_BYTES)
        conn.execute("INSERT INTO t (v) VALUES ('after')")  # writers go on meanwhile
    finally:
        checkpoints.stop()
        conn.close()


def test_an_in_memory_database_is_refused() -> None:
    with pytest.raises(ValueError, match="SQLite file"):
        WalCheckpoints("sqlite://")


def _autocheckpoint(engine: Engine) -> int:
    with engine.connect() as conn:
        return int(conn.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar_one())


def test_a_checkpointed_files_connections_leave_the_checkpoints_to_the_thread(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    left = create_sqlite_engine(url, wal_checkpointed=True)
    own = create_sqlite_engine(url)
    try:
        assert _autocheckpoint(left) == CHECKPOINTED_WAL_PAGES
        assert _autocheckpoint(own) == 1000  # SQLite's default: nobody else checkpoints it
    finally:
        left.dispose()
        own.dispose()


async def test_the_async_engine_takes_the_same_choice(tmp_path: Path) -> None:
    engine = create_engine(f"sqlite:///{tmp_path / 'db.sqlite3'}", wal_checkpointed=True)
    try:
        async with engine.connect() as conn:
            found = (await conn.exec_driver_sql("PRAGMA wal_autocheckpoint")).scalar_one()
        assert found == CHECKPOINTED_WAL_PAGES
    finally:
        await engine.dispose()


async def test_the_sdk_key_stores_file_is_checkpointed_by_a_thread_of_its_own(tmp_path: Path) -> None:
    path = tmp_path / "keys.sqlite3"
    store = IdempotencyStore(f"sqlite:///{path}")

    async def call() -> DomainOutput:
        return DomainOutput(status="success", result={"pad": "x" * ROW_BYTES})

    for n in range(ROWS // 4):
        await store.run(f"k{n}", "fp", call)
    try:
        # the keys' pages reach the database file without any commit checkpointing
        assert await asyncio.to_thread(_grown_to, path, ROWS // 4 * ROW_BYTES)
    finally:
        await store.close()
