"""The SQLite checkpointer's own thread: calls run in order, a cancelled caller's save still
commits whole, an error reaches its caller, and a closed store takes no further call."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from sqlalchemy.engine import Connection

from graph.checkpoint import Frontier, SessionRecord, VersionRecord
from graph.sqlite_checkpoint import SqliteCheckpointer
from shared.clock import utcnow
from shared.status import RunStatus


def _session(session_id: str) -> tuple[SessionRecord, list[VersionRecord]]:
    session = SessionRecord(session_id, "g", RunStatus.COMPLETED, 0, Frontier())
    return session, [VersionRecord(0, "start", "{}", "{}", Frontier(), utcnow())]


async def _store(tmp_path: Path) -> SqliteCheckpointer:
    store = SqliteCheckpointer(f"sqlite:///{tmp_path / 'graph.sqlite3'}")
    await store.create_tables()
    return store


async def test_a_save_whose_caller_is_cancelled_still_commits(tmp_path: Path) -> None:
    store = await _store(tmp_path)
    try:
        session, versions = _session("s1")
        saving = asyncio.ensure_future(store.save(session, versions, create=True))
        await asyncio.sleep(0)  # queued on the thread
        saving.cancel()
        with pytest.raises(asyncio.CancelledError):
            await saving
        # the thread runs calls in order: the head read comes after the save, whole
        head = await store.head("s1")
        assert head is not None and head.version == 0 and head.latest == 0
    finally:
        await store.close()


async def test_an_error_on_the_thread_reaches_its_caller(tmp_path: Path) -> None:
    store = await _store(tmp_path)

    def refuse(conn: Connection) -> None:
        raise LookupError("refused")

    try:
        with pytest.raises(LookupError, match="refused"):
            await store.write([refuse])
        assert await store.head("nobody") is None  # the thread goes on serving
    finally:
        await store.close()


async def test_a_closed_store_takes_no_call(tmp_path: Path) -> None:
    store = await _store(tmp_path)
    await store.close()
    with pytest.raises(RuntimeError, match="closed"):
        await store.head("s1")
