"""Checkpointer fixtures: in memory, SQLite (tmp file) and the real PostgreSQL (a fresh database).

The SQL stores run the same SQL: :class:`SqlCheckpointer` on the async engine (aiosqlite or
asyncpg: only the URL differs) and :class:`SqliteCheckpointer` on its own thread.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from graph import CachingCheckpointer, Checkpointer, InMemoryCheckpointer, SqlCheckpointer
from graph.sqlite_checkpoint import SqliteCheckpointer

SqlStore = SqlCheckpointer | SqliteCheckpointer
#: ``sql_store``: (database URL, use the SQLite thread checkpointer)
StoreParam = tuple[str, bool]


async def sql_checkpointer(url: str, snapshot_every: int = 50, *, thread: bool = False) -> SqlStore:
    """A SQL checkpointer with its tables; ``thread``: the :class:`SqliteCheckpointer`."""
    ck: SqlStore
    if thread:
        ck = SqliteCheckpointer(url, snapshot_every=snapshot_every)
    else:
        ck = SqlCheckpointer.from_url(url, snapshot_every=snapshot_every)
    await ck.create_tables()
    return ck


@pytest.fixture(params=["sqlite", "sqlite-thread", pytest.param("postgres", marks=pytest.mark.postgres)])
def sql_store(request: pytest.FixtureRequest, tmp_path: Path) -> StoreParam:
    """A database URL (a SQLite file, or a fresh PostgreSQL database: ``pg_database_url``) and
    whether to use the :class:`SqliteCheckpointer` on it."""
    if request.param == "postgres":
        return str(request.getfixturevalue("pg_database_url")), False
    return f"sqlite+aiosqlite:///{tmp_path / 'graph.sqlite3'}", request.param == "sqlite-thread"


@pytest.fixture(
    params=[
        "memory",
        "sqlite",
        "cached-sqlite",
        "sqlite-thread",
        "cached-sqlite-thread",
        pytest.param("postgres", marks=pytest.mark.postgres),
        pytest.param("cached-postgres", marks=pytest.mark.postgres),
    ]
)
def store_kind(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[str, str | None]:
    """Which checkpointer, and the database URL of a SQL one."""
    kind = str(request.param)
    if kind == "memory":
        return kind, None
    if "sqlite" in kind:
        return kind, f"sqlite+aiosqlite:///{tmp_path / 'graph.sqlite3'}"
    return kind, str(request.getfixturevalue("pg_database_url"))


@pytest.fixture
async def checkpointer(store_kind: tuple[str, str | None]) -> AsyncIterator[Checkpointer]:
    kind, url = store_kind
    if url is None:
        yield InMemoryCheckpointer()
        return
    ck = await sql_checkpointer(url, thread=kind.endswith("thread"))
    try:
        yield CachingCheckpointer(ck) if kind.startswith("cached") else ck
    finally:
        await ck.close()
