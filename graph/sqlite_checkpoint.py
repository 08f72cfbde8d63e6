"""The SQLite checkpointer: :class:`~graph.checkpoint.SqlCheckpointer`'s SQL, run by a
synchronous SQLAlchemy engine on one thread of its own.

Through aiosqlite every driver call (cursor, execute, fetch, close, commit) is a hand-off to the
driver's thread and back, several per statement; a turn's reads and its save are a few dozen
hand-offs. Here each checkpointer call runs all its statements in one hand-off: the same Core
statements and row mapping (``checkpoint.save_rows``, ``head_row``...), the same tables, the same
compiled-statement cache. The one thread also means one connection, so this process's own writes
never wait for each other's SQLite lock.

Use it for a SQLite file; PostgreSQL (and an in-memory SQLite, which another connection could
not see) go through :class:`SqlCheckpointer`: :func:`checkpointer_for` picks. A call whose
caller is cancelled still finishes on the thread (a save commits or rolls back as a whole).

>>> import asyncio, tempfile
>>> async def demo(folder):
...     store = SqliteCheckpointer(f"sqlite:///{folder}/graph.sqlite3")
...     await store.create_tables()
...     found = await store.head("nobody")
...     await store.close()
...     return found
>>> with tempfile.TemporaryDirectory() as folder:
...     asyncio.run(demo(folder)) is None
True
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any, TypeVar

from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine

from graph.checkpoint import (
    DEFAULT_SNAPSHOT_EVERY,
    Checkpointer,
    ExtraWrite,
    SessionHead,
    SessionRecord,
    SqlCheckpointer,
    VersionInfo,
    VersionRecord,
    check_single,
    create_graph_tables,
    delete_rows,
    head_row,
    history_rows,
    load_rows,
    record_rows,
    replay_rows,
    save_rows,
    write_rows,
)
from shared.db import create_sqlite_engine

T = TypeVar("T")
#: a call queued for the thread: the loop to answer on, the future it answers, the work
_Call = tuple[asyncio.AbstractEventLoop, asyncio.Future[Any], Callable[[], Any]]


class _CallThread:
    """One thread running calls in the order they come, each answered on its caller's loop.

    What ``run_in_executor`` on a one-worker pool does, without its ``concurrent.futures.Future``
    (a lock and a condition built per call) and the chaining of that future to the loop's: a
    call costs about 27 us of CPU here instead of 40, and a turn makes three. A caller that is
    cancelled stops waiting; its call still runs to its end on the thread.
    """

    def __init__(self, name: str):
        self._calls: queue.SimpleQueue[_Call | None] = queue.SimpleQueue()
        self._closed = False
        # a daemon: a process that exits without closing its store abandons the call in flight
        # as a crash would, and SQLite rolls an unfinished transaction back
        self._thread = threading.Thread(target=self._serve, name=name, daemon=True)
        self._thread.start()

    def call(self, work: Callable[[], T]) -> asyncio.Future[T]:
        if self._closed:
            raise RuntimeError("the checkpointer is closed")
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._calls.put((loop, future, work))
        return future

    def close(self) -> None:
        """No further calls; the thread ends once the calls already queued are done."""
        if not self._closed:
            self._closed = True
            self._calls.put(None)

    def join(self) -> None:
        self._thread.join()

    def _serve(self) -> None:
        while (item := self._calls.get()) is not None:
            loop, future, work = item
            try:
                result, error = work(), None
            except BaseException as exc:  # the caller's to see, as from an executor
                result, error = None, exc
            # a closed loop (RuntimeError): nobody waits for the answer
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(_settle, future, result, error)


def _settle(future: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if future.done():  # the caller was cancelled
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)


class SqliteCheckpointer(Checkpointer):
    """A checkpointer on a SQLite file (``sqlite:///path`` or ``sqlite+aiosqlite:///path``)."""

    def __init__(
        self, url: str, *, snapshot_every: int = DEFAULT_SNAPSHOT_EVERY, wal_checkpointed: bool = False
    ):
        # wal_checkpointed: a shared.db.WalCheckpoints thread checkpoints the file
        self.engine = create_sqlite_engine(url, wal_checkpointed=wal_checkpointed)
        self.snapshot_every = snapshot_every
        self._thread = _CallThread("sqlite-checkpointer")
        #: the thread's one connection, kept open (used on the thread only)
        self._conn: Connection | None = None

    async def _run(self, work: Callable[[Connection], T], *, write: bool = False) -> T:
        """``work`` on the checkpointer's thread, in a transaction committed if ``write``."""
        return await self._thread.call(partial(self._unit, work, write))

    def _unit(self, work: Callable[[Connection], T], write: bool) -> T:
        # the one connection stays open: a checkout from the pool and its return (the pool's
        # bookkeeping, a weakref finalizer) cost ~35 us a call, a third of a head read's CPU
        conn = self._conn
        if conn is None or conn.closed or conn.invalidated:
            conn = self._conn = self.engine.connect()
        with conn.begin() as transaction:  # committed at the end; rolled back on an error
            result = work(conn)
            if not write:
                transaction.rollback()  # a read only ends its transaction
        return result

    def _dispose(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        self.engine.dispose()

    async def create_tables(self) -> None:
        """Create the graph's tables if missing — for tests and tools; the gateway uses Alembic."""
        await self._run(create_graph_tables, write=True)

    async def close(self) -> None:
        await self._thread.call(self._dispose)
        self._thread.close()
        await asyncio.to_thread(self._thread.join)

    async def save(
        self,
        session: SessionRecord,
        versions: Sequence[VersionRecord],
        *,
        create: bool = False,
        expected_version: int | None = None,
        update_session: bool = True,
        extra: Sequence[ExtraWrite] = (),
    ) -> None:
        work = partial(
            save_rows,
            session=session,
            versions=versions,
            create=create,
            expected_version=expected_version,
            update_session=update_session,
            extra=extra,
        )
        await self._run(work, write=True)

    async def write(self, extra: Sequence[ExtraWrite], *, single_statement: bool = False) -> None:
        # one hand-off either way: a transaction around one statement costs no round trip here
        if single_statement:
            check_single(extra)
        await self._run(partial(write_rows, extra=extra), write=True)

    async def head(self, session_id: str) -> SessionHead | None:
        return await self._run(partial(head_row, session_id=session_id))

    async def load(self, session_id: str) -> tuple[SessionRecord, list[VersionRecord]] | None:
        return await self._run(partial(load_rows, session_id=session_id))

    async def replay(self, session_id: str, upto: int) -> list[VersionRecord]:
        return await self._run(partial(replay_rows, session_id=session_id, upto=upto))

    async def records(self, session_id: str, upto: int) -> list[VersionRecord]:
        return await self._run(partial(record_rows, session_id=session_id, upto=upto))

    async def history(self, session_id: str) -> list[VersionInfo]:
        return await self._run(partial(history_rows, session_id=session_id))

    async def delete(self, session_id: str) -> bool:
        return await self._run(partial(delete_rows, session_id=session_id), write=True)


def checkpointer_for(
    engine: AsyncEngine, *, snapshot_every: int = DEFAULT_SNAPSHOT_EVERY, wal_checkpointed: bool = False
) -> SqliteCheckpointer | SqlCheckpointer:
    """The SQL checkpointer for an application's engine: :class:`SqliteCheckpointer` on the same
    file for a SQLite file (``wal_checkpointed``: a ``shared.db.WalCheckpoints`` thread
    checkpoints that file), else :class:`SqlCheckpointer` on the engine itself."""
    database = engine.url.database or ""
    if engine.dialect.name == "sqlite" and database not in ("", ":memory:"):
        url = engine.url.render_as_string(hide_password=False)
        return SqliteCheckpointer(url, snapshot_every=snapshot_every, wal_checkpointed=wal_checkpointed)
    return SqlCheckpointer(engine, snapshot_every=snapshot_every)
