"""Async SQLAlchemy plumbing: one engine per process, built in ``lifespan`` and disposed on
shutdown; one session (or connection) per unit of work (commit on success, rollback on error).

:class:`Base` is the platform's one declarative base. Every service's tables register on its
``metadata``, but a service creates or migrates only its own: pass them explicitly, e.g.
``Base.metadata.create_all(conn, tables=[...])``.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import JSON, DateTime, MetaData, event
from sqlalchemy import create_engine as create_sync_engine
from sqlalchemy.engine import Dialect, Engine, make_url
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker, create_async_engine
from sqlalchemy.orm import DeclarativeBase
from sqlalchemy.types import TypeDecorator

from shared.clock import as_utc

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


class JsonText(TypeDecorator[Any]):
    """A JSON column written from JSON text that is already encoded (pydantic's
    ``model_dump_json``), so the value is not encoded twice; it reads back as JSON data.

    Use it as the type of a bind parameter for a ``JSON`` column::

        insert(runs).values(trace=bindparam("trace_json", type_=JsonText()))
    """

    impl = JSON
    cache_ok = True

    def bind_processor(self, dialect: Dialect) -> None:
        return None  # the text goes to the driver as it is


class UtcDateTime(TypeDecorator[datetime]):
    """A timestamp that reads back aware, in UTC, from every database: SQLite keeps no zone, so
    without this its rows would read back naive while PostgreSQL's read back aware.

    >>> from datetime import UTC
    >>> UtcDateTime().process_result_value(datetime(2026, 1, 2), None).tzinfo is UTC
    True
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_result_value(self, value: datetime | None, dialect: Dialect | None) -> datetime | None:
        return as_utc(value)


def normalise_url(url: str) -> str:
    """Accept the usual sync URLs and return their async-driver form.

    >>> normalise_url("postgresql://u@h/db")
    'postgresql+asyncpg://u@h/db'
    >>> normalise_url("sqlite:///var/x.db")
    'sqlite+aiosqlite:///var/x.db'
    """
    if url.startswith("postgresql://") or url.startswith("postgres://"):
        return "postgresql+asyncpg://" + url.split("://", 1)[1]
    if url.startswith("sqlite://"):
        return "sqlite+aiosqlite://" + url.split("://", 1)[1]
    return url


def create_engine(url: str, *, wal_checkpointed: bool = False, **engine_kw: Any) -> AsyncEngine:
    """An async engine for PostgreSQL (asyncpg) or SQLite (aiosqlite): one code path, the same
    statements and SQLAlchemy's compiled-statement cache on both.

    SQLite gets :func:`sqlite_pragmas` on every new connection and its file's folder is created;
    ``wal_checkpointed``: a :class:`WalCheckpoints` thread checkpoints the file
    (:func:`checkpointed_sqlite_pragmas`). PostgreSQL ignores it.
    """
    url = normalise_url(url)
    if url.startswith("sqlite"):
        _make_folder(url)
        # Connection.close() already rolls back the transaction it began (pysqlite opens none for
        # a SELECT), so a reset on return would only add a round trip to the driver's thread.
        engine_kw.setdefault("pool_reset_on_return", None)
        engine = create_async_engine(url, **engine_kw)
        event.listen(engine.sync_engine, "connect", _pragmas(wal_checkpointed))
        return engine
    # No ping per checkout (on asyncpg a ping is BEGIN, a query and ROLLBACK: three round trips
    # on every unit of work). A connection the server dropped fails its first statement instead,
    # which invalidates the whole pool, so one request gets the error (a 503 to retry) and the next
    # ones reconnect; recycling bounds a connection's age for servers and proxies that drop idle ones.
    engine_kw.setdefault("pool_pre_ping", False)
    engine_kw.setdefault("pool_recycle", 1800)
    engine_kw.setdefault("pool_size", 10)
    engine_kw.setdefault("max_overflow", 20)
    return create_async_engine(url, **engine_kw)


def create_sqlite_engine(url: str, *, wal_checkpointed: bool = False, **engine_kw: Any) -> Engine:
    """A synchronous (pysqlite) engine on a SQLite file, with :func:`sqlite_pragmas`, for code that
    runs its statements on a thread of its own; async or sync URLs are accepted.
    ``wal_checkpointed`` as for :func:`create_engine`.

    >>> create_sqlite_engine("sqlite+aiosqlite:///:memory:").dialect.driver
    'pysqlite'
    """
    url = normalise_url(url).replace("sqlite+aiosqlite://", "sqlite://", 1)
    _make_folder(url)
    engine = create_sync_engine(url, **engine_kw)
    event.listen(engine, "connect", _pragmas(wal_checkpointed))
    return engine


def _make_folder(sqlite_url: str) -> None:
    path = sqlite_url.split(":///", 1)[1] if ":///" in sqlite_url else ""
    if path and path != ":memory:":
        Path(path).parent.mkdir(parents=True, exist_ok=True)


def sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    """The engine's ``connect`` event hook for SQLite (``event.listen(engine.sync_engine,
    "connect", sqlite_pragmas)``): WAL lets readers run beside the single writer; NORMAL sync is
    durable with WAL (a process crash loses nothing; only an OS crash may lose the last commits);
    SQLite enforces foreign keys only when asked."""
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()


#: The WAL's length (pages) at which a commit checkpoints it by itself, on a connection to a file
#: that a :class:`WalCheckpoints` thread checkpoints: several rounds of that thread at a busy
#: gateway's write rate, so commits leave the checkpoints to the thread, and a bound if it stops.
CHECKPOINTED_WAL_PAGES = 10_000


def checkpointed_sqlite_pragmas(dbapi_conn: Any, record: Any) -> None:
    """:func:`sqlite_pragmas`, for a connection to a file that a :class:`WalCheckpoints` thread
    checkpoints: SQLite's own checkpoint (at 1,000 pages) would otherwise come first, inside
    some request's commit."""
    sqlite_pragmas(dbapi_conn, record)
    cur = dbapi_conn.cursor()
    cur.execute(f"PRAGMA wal_autocheckpoint={CHECKPOINTED_WAL_PAGES}")
    cur.close()


def _pragmas(wal_checkpointed: bool) -> Callable[[Any, Any], None]:
    return checkpointed_sqlite_pragmas if wal_checkpointed else sqlite_pragmas


log = logging.getLogger(__name__)


class WalCheckpoints:
    """Checkpoints a SQLite file's WAL from a thread of its own every ``interval_s``.

    In WAL mode with ``synchronous=NORMAL`` a commit writes no fsync; the fsyncs come with the
    checkpoints that copy the WAL back into the database file, which SQLite otherwise runs inside
    whichever commit grows the WAL past ``wal_autocheckpoint`` (1000 pages): that request waits
    for the copy and its fsyncs. Here the thread runs them (``PASSIVE``: never waits for, nor
    blocks, readers and writers), and the file's connections leave them to it
    (``wal_checkpointed`` engines: :data:`CHECKPOINTED_WAL_PAGES`), so no request pays them.

    One fsync stays with the writers: the first commit after a checkpoint that emptied the WAL
    starts it over and syncs its header. That is one commit per round, so the rounds are a second
    apart rather than a few per second (at 0.25 s a SQLite gateway's turn writer synced ~3 times a
    second, each a fraction of a millisecond to tens of milliseconds inside a turn).
    """

    def __init__(self, url: str, *, interval_s: float = 1.0):
        database = make_url(normalise_url(url)).database
        if not database or database == ":memory:":
            raise ValueError(f"WAL checkpoints need a SQLite file, not {url!r}")
        self.path = database
        self.interval_s = interval_s
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="sqlite-wal-checkpoints", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    def _run(self) -> None:
        conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        try:
            conn.execute("PRAGMA busy_timeout=100")
            while not self._stop.wait(self.interval_s):
                try:
                    conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                except sqlite3.Error as exc:  # busy or locked now: the next round tries again
                    log.debug("WAL checkpoint of %s skipped: %s", self.path, exc)
        finally:
            conn.close()


def is_sqlite_file(url: str) -> bool:
    """A SQLite URL naming a file (not ``:memory:``).

    >>> is_sqlite_file("sqlite+aiosqlite:///var/x.db"), is_sqlite_file("sqlite://"), is_sqlite_file("postgresql://h/db")
    (True, False, False)
    """
    parsed = make_url(normalise_url(url))
    return parsed.get_backend_name() == "sqlite" and bool(parsed.database) and parsed.database != ":memory:"


def session_factory(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    return async_sessionmaker(engine, expire_on_commit=False)


@asynccontextmanager
async def unit_of_work(factory: async_sessionmaker[AsyncSession]) -> AsyncIterator[AsyncSession]:
    async with factory() as session:
        try:
            yield session
            await session.commit()
        except BaseException:
            await session.rollback()
            raise
