"""SQLite for the async engine without a thread per connection.

aiosqlite runs every call on a worker thread and hands the result back through the event loop.
For an embedded database that is the expensive part: on a 2-core machine one hop costs about
0.2 ms, while a whole WAL transaction (insert + update + commit) runs in about 0.04 ms. This
module keeps aiosqlite's API (so SQLAlchemy's ``sqlite+aiosqlite`` dialect and Alembic work
unchanged) but runs each call on the calling thread.

The trade-off: a statement blocks the event loop while it runs. That is microseconds for the
gateway's statements. A writer waiting for another connection's lock would block the loop too,
so :func:`shared.db.create_engine` gives SQLite one pooled connection per process: coroutines
wait for it asynchronously instead. Several processes on one file (not the intended set-up: use
PostgreSQL for several gateways) may wait up to ``timeout`` for each other.

>>> import asyncio
>>> async def demo():
...     async with connect(":memory:") as db:
...         cursor = await db.execute("select 40 + 2")
...         return await cursor.fetchone()
>>> asyncio.run(demo())
(42,)
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Generator
from functools import partial
from typing import Any

import aiosqlite

#: How long a statement waits for another process's write lock (it blocks the loop meanwhile).
DEFAULT_TIMEOUT_S = 5.0


class _RunNow:
    """Stands where aiosqlite keeps its queue to the worker thread: runs each job at once.

    SQLAlchemy's adapter queues a few jobs itself (``isolation_level``), so the queue must work.
    """

    def put_nowait(self, job: tuple[Any, Callable[[], Any]]) -> None:
        future, function = job
        try:
            result = function()
        except BaseException as exc:  # handed to the awaiting caller, like the worker thread does
            if future is not None and not future.done():
                future.set_exception(exc)
            return
        if future is not None and not future.done():
            future.set_result(result)


class InlineConnection(aiosqlite.Connection):
    """An ``aiosqlite.Connection`` whose calls run on the caller's thread (no worker thread)."""

    def __init__(self, connector: Callable[[], sqlite3.Connection], iter_chunk_size: int = 64):
        super().__init__(connector, iter_chunk_size)
        self._tx = _RunNow()  # type: ignore[assignment]

    async def _execute(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        if not self._running or not self._connection:
            raise ValueError("Connection closed")
        return fn(*args, **kwargs)

    async def _connect(self) -> InlineConnection:
        if self._connection is None:
            self._connection = self._connector()
        return self

    @property
    def sqlite(self) -> sqlite3.Connection:
        """The ``sqlite3`` connection itself, for callers that run statements on it directly
        (:mod:`shared.prepared`); the calls above do nothing more than that."""
        if not self._running or self._connection is None:
            raise ValueError("Connection closed")
        return self._connection

    def __await__(self) -> Generator[Any, None, InlineConnection]:
        return self._connect().__await__()  # no worker thread to start

    def stop(self) -> None:
        self._running = False
        if self._connection is not None:
            self._connection.close()
            self._connection = None


def connect(database: str, *, timeout: float = DEFAULT_TIMEOUT_S, **kwargs: Any) -> InlineConnection:
    """Like ``aiosqlite.connect``; the connection is opened when awaited."""
    return InlineConnection(partial(sqlite3.connect, database, timeout=timeout, **kwargs))
