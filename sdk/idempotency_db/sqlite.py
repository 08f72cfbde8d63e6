"""The idempotency keys in SQLite, run by pysqlite on one thread of the store's own.

A keyed call writes twice (its claim, then its answer). Through aiosqlite each statement, its
cursor and its commit were hand-offs of their own to the driver's thread, with SQLAlchemy's
greenlet bridge around each: about twice the CPU of one hand-off per write
(bench/results/idempotency_store.md). The one thread also serialises the statements, so one
connection serves them all, an in-memory database (``sqlite://``) included.

A file's WAL is checkpointed from a thread of its own (:class:`shared.db.WalCheckpoints`, as the
gateway does for its database): left to SQLite, every few hundred keyed calls one of them ran the
checkpoint inside its commit and waited for the copy and its fsyncs, several times a call's usual
latency (bench/results/gateway_turn.md).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from sqlalchemy import Connection, Engine, MetaData, RowMapping
from sqlalchemy.exc import OperationalError, SQLAlchemyError
from sqlalchemy.sql import Executable

from shared.db import WalCheckpoints, create_sqlite_engine, is_sqlite_file

T = TypeVar("T")


class SqliteKeyDatabase:
    def __init__(self, url: str):
        self.url = url
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sdk-idempotency")
        self._engine: Engine | None = None
        self._connection: Connection | None = None
        self._checkpoints = WalCheckpoints(url) if is_sqlite_file(url) else None

    async def _on_thread(self, work: Callable[[], T]) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._thread, work)

    async def open(self, metadata: MetaData) -> None:
        await self._on_thread(lambda: self._open(metadata))

    def _open(self, metadata: MetaData) -> None:
        # kept at once, so that close() disposes of it even when the CREATE fails
        self._engine = engine = create_sqlite_engine(self.url, wal_checkpointed=self._checkpoints is not None)
        try:
            metadata.create_all(engine)
        except OperationalError:
            # another process created the table between the check and the CREATE
            metadata.create_all(engine)
        if self._checkpoints is not None:
            self._checkpoints.start()

    def _connected(self) -> Connection:
        if self._connection is None:
            assert self._engine is not None, "open() first"
            self._connection = self._engine.connect()
        return self._connection

    def _in_transaction(self, work: Callable[[Connection], T]) -> T:
        connection = self._connected()
        try:
            with connection.begin():
                return work(connection)
        except SQLAlchemyError:
            if connection.invalidated:  # the driver lost it: the next statement connects again
                connection.close()
                self._connection = None
            raise

    async def write(self, statement: Executable) -> int:
        def run(connection: Connection) -> int:
            return connection.execute(statement).rowcount

        return await self._on_thread(lambda: self._in_transaction(run))

    async def read_one(self, statement: Executable) -> RowMapping | None:
        def run(connection: Connection) -> RowMapping | None:
            return connection.execute(statement).mappings().first()

        return await self._on_thread(lambda: self._in_transaction(run))

    async def close(self) -> None:
        try:
            await self._on_thread(self._close)
        finally:
            self._thread.shutdown(wait=True)
            if self._checkpoints is not None:
                await asyncio.to_thread(self._checkpoints.stop)

    def _close(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None
        if self._engine is not None:
            self._engine.dispose()
            self._engine = None
