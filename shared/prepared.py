"""Statements on every request's path: compiled once, run on the driver where that is safe.

A turn of the gateway runs a handful of small statements (the session head, the graph's version
rows, the run trace). On embedded SQLite, SQLite itself takes about 10 µs for each of them;
SQLAlchemy's async execution around it (greenlet hop, execution context, cursor result) takes
about 150 µs on the 2-core bench machine. :class:`Prepared` keeps the statement a SQLAlchemy
Core construct (one definition, every dialect) but, on an inline SQLite connection
(:mod:`shared.inline_sqlite`), runs its compiled SQL straight on the ``sqlite3`` connection the
``AsyncConnection`` has checked out, with SQLAlchemy's own bind and result processors, so the
rows are exactly what ``conn.execute`` would write and read. Everywhere else (PostgreSQL) it is
``conn.execute``.

What the direct path does not do, so :class:`Prepared` refuses it at set-up: Python-side column
defaults (``default=`` / ``onupdate=`` callables that ``conn.execute`` would fill in), and
writes outside a transaction begun by SQLAlchemy (``engine.begin()``), which SQLAlchemy would
not know to commit. Connection events (``before_cursor_execute``) and ``echo`` do not see
these statements. Driver errors become SQLAlchemy's (``IntegrityError``...), as with
``conn.execute``.

>>> import asyncio
>>> from sqlalchemy import Column, Integer, MetaData, String, Table, bindparam, insert, select
>>> from shared.db import create_engine
>>> notes = Table("notes", MetaData(), Column("id", Integer, primary_key=True), Column("text", String))
>>> add_note = Prepared(insert(notes))
>>> note_by_id = Prepared(select(notes.c.text).where(notes.c.id == bindparam("id")))
>>> async def demo():
...     engine = create_engine("sqlite:///:memory:")
...     async with engine.begin() as conn:
...         await conn.run_sync(notes.metadata.create_all)
...         await add_note.executemany(conn, [{"id": 1, "text": "one"}, {"id": 2, "text": "two"}])
...         row = await note_by_id.first(conn, {"id": 2})
...     await engine.dispose()
...     return row
>>> asyncio.run(demo())
('two',)
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy.engine import Dialect
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncConnection
from sqlalchemy.sql import Delete, Insert, Update
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.selectable import Select

from shared.inline_sqlite import InlineConnection

Statement = Insert | Update | Delete | Select[Any]
Processor = Callable[[Any], Any] | None
_GIVEN = object()  # the value comes from the caller's parameters


@dataclass(frozen=True, slots=True)
class _Compiled:
    sql: str
    #: positional parameters: (bind name, bind processor, the value of a literal in the statement)
    binds: tuple[tuple[str, Processor, Any], ...]
    #: one result processor per selected column (SELECT only)
    results: tuple[Processor, ...]

    def args(self, params: Mapping[str, Any]) -> tuple[Any, ...]:
        values = (params[name] if fixed is _GIVEN else fixed for name, _, fixed in self.binds)
        return tuple(
            value if process is None else process(value)
            for value, (_, process, _) in zip(values, self.binds, strict=True)
        )


class Prepared:
    """A Core statement compiled once per dialect (and, for an INSERT, per set of columns)."""

    __slots__ = ("_compiled", "statement")

    def __init__(self, statement: Statement):
        self.statement = statement
        self._compiled: dict[tuple[str, tuple[str, ...]], _Compiled] = {}

    async def execute(self, conn: AsyncConnection, params: Mapping[str, Any]) -> int:
        """Run a write with one set of parameters; the number of rows it matched."""
        raw = self._direct(conn, write=True)
        if raw is None:
            return int((await conn.execute(self.statement, dict(params))).rowcount)
        compiled = self._compile(conn.dialect, tuple(params))
        args = compiled.args(params)
        with _translated(compiled.sql, args):
            return raw.execute(compiled.sql, args).rowcount

    async def executemany(self, conn: AsyncConnection, rows: Sequence[Mapping[str, Any]]) -> None:
        """Run a write once per row (every row has the same keys)."""
        if not rows:
            return
        raw = self._direct(conn, write=True)
        if raw is None:
            await conn.execute(self.statement, [dict(r) for r in rows])
            return
        compiled = self._compile(conn.dialect, tuple(rows[0]))
        args = [compiled.args(r) for r in rows]
        with _translated(compiled.sql, args):
            raw.executemany(compiled.sql, args)

    async def first(self, conn: AsyncConnection, params: Mapping[str, Any]) -> tuple[Any, ...] | None:
        """The first row of a SELECT, or ``None``."""
        raw = self._direct(conn, write=False)
        if raw is None:
            row = (await conn.execute(self.statement, dict(params))).first()
            return None if row is None else tuple(row)
        compiled = self._compile(conn.dialect, ())
        args = compiled.args(params)
        with _translated(compiled.sql, args):
            found = raw.execute(compiled.sql, args).fetchone()
        if found is None:
            return None
        return tuple(v if p is None else p(v) for v, p in zip(found, compiled.results, strict=True))

    # ------------------------------------------------------------------ internals

    @staticmethod
    def _direct(conn: AsyncConnection, *, write: bool) -> sqlite3.Connection | None:
        """The ``sqlite3`` connection under ``conn`` if it is inline SQLite, else ``None``."""
        sync = conn.sync_connection
        if sync is None:
            return None
        driver = sync.connection.driver_connection
        if not isinstance(driver, InlineConnection):
            return None
        if write and not conn.in_transaction():
            raise RuntimeError("a Prepared write must run inside a transaction (engine.begin())")
        return driver.sqlite

    def _compile(self, dialect: Dialect, keys: tuple[str, ...]) -> _Compiled:
        key = (dialect.name, keys)
        found = self._compiled.get(key)
        if found is not None:
            return found
        compiled = self.statement.compile(dialect=dialect, column_keys=list(keys) or None)
        assert isinstance(compiled, SQLCompiler)
        if compiled.insert_prefetch or compiled.update_prefetch:
            missing = [c.key for c in [*compiled.insert_prefetch, *compiled.update_prefetch]]
            raise ValueError(f"a Prepared statement must set every column with a Python default: {missing}")
        order = compiled.positiontup or []
        binds = tuple(
            (
                name,
                compiled.binds[name].type.dialect_impl(dialect).bind_processor(dialect),
                # a literal of the statement (``turn_count + 1``) carries its value
                _GIVEN if name in keys or compiled.binds[name].required else compiled.binds[name].value,
            )
            for name in order
        )
        results: tuple[Processor, ...] = ()
        if isinstance(self.statement, Select):
            results = tuple(
                c.type.dialect_impl(dialect).result_processor(dialect, None)
                for c in self.statement.selected_columns
            )
        found = _Compiled(compiled.string, binds, results)
        self._compiled[key] = found
        return found


class _translated:
    """``sqlite3`` errors become SQLAlchemy's (``IntegrityError``...), as ``conn.execute`` raises them."""

    __slots__ = ("args", "sql")

    def __init__(self, sql: str, args: Any):
        self.sql = sql
        self.args = args

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: Any) -> None:
        if isinstance(exc, sqlite3.Error):
            raise DBAPIError.instance(self.sql, self.args, exc, sqlite3.Error) from exc
