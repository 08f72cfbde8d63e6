"""Async SQLAlchemy plumbing: one engine per process, built in ``lifespan`` and disposed on
shutdown; one session per unit of work (commit on success, rollback on error)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import JSON, MetaData, event
from sqlalchemy.engine import Dialect
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker, create_async_engine
from sqlalchemy.orm import DeclarativeBase
from sqlalchemy.pool import AsyncAdaptedQueuePool
from sqlalchemy.types import TypeDecorator

from shared import inline_sqlite

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


def create_engine(url: str, **engine_kw: Any) -> AsyncEngine:
    """An async engine; SQLite runs its statements on the event loop's thread
    (:mod:`shared.inline_sqlite`: cheaper than aiosqlite's thread hop), with WAL."""
    url = normalise_url(url)
    if url.startswith("sqlite"):
        path = url.split(":///", 1)[1] if ":///" in url else ""
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        # One connection per process: statements run on the loop's thread, so a second
        # connection's writer would block the loop waiting for the first one's lock; with one,
        # other coroutines wait (asynchronously) for the pool instead. Statements take
        # microseconds, so this costs nothing measurable.
        engine_kw.setdefault("poolclass", AsyncAdaptedQueuePool)
        engine_kw.setdefault("pool_size", 1)
        engine_kw.setdefault("max_overflow", 0)
        # pysqlite opens no transaction for SELECTs and every write path commits or rolls
        # back, so the pool's reset-on-return would only add a statement per checkout.
        engine_kw.setdefault("pool_reset_on_return", None)
        engine = create_async_engine(
            url, async_creator=lambda: inline_sqlite.connect(path or ":memory:"), **engine_kw
        )
        event.listen(engine.sync_engine, "connect", sqlite_pragmas)
        return engine
    engine_kw.setdefault("pool_pre_ping", True)
    engine_kw.setdefault("pool_size", 10)
    engine_kw.setdefault("max_overflow", 20)
    return create_async_engine(url, **engine_kw)


def sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    """WAL lets readers run beside the single writer; NORMAL sync is durable with WAL (a process
    crash loses nothing; only an OS crash may lose the last commits)."""
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()


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
