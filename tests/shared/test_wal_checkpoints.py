"""SQLite's WAL checkpointed from a thread of its own (shared.db.WalCheckpoints)."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import pytest

from shared.db import WalCheckpoints

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
        deadline = time.monotonic() + 10
        while path.stat().st_size < ROWS * ROW_BYTES and time.monotonic() < deadline:
            time.sleep(0.05)
        assert path.stat().st_size >= ROWS * ROW_BYTES
        conn.execute("INSERT INTO t (v) VALUES ('after')")  # writers go on meanwhile
    finally:
        checkpoints.stop()
        conn.close()


def test_an_in_memory_database_is_refused() -> None:
    with pytest.raises(ValueError, match="SQLite file"):
        WalCheckpoints("sqlite://")
