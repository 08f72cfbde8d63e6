"""Checkpointers: where sessions and their numbered state versions live (pause and resume).

Storage model — **deltas, not copies**. Every merged state is a version; a version row stores the
node's delta as JSON, and every ``snapshot_every`` versions (and always version 0) also a full
snapshot. The state at version *n* is the latest snapshot ≤ *n* folded with the deltas after it
(through the graph's reducers), so a growing ``messages`` list costs one message per version,
while replay never reads more than ``snapshot_every`` rows.

A version written at the end of a step also records the step's *frontier* (the nodes to run
next and the join arrivals so far); that is what lets a session resume, or be forked, from it.

Checkpointers are dumb stores: the engine encodes the JSON, decides the snapshots and folds the
deltas, so :class:`InMemoryCheckpointer` and :class:`SqlCheckpointer` behave identically.

Only JSON data can be checkpointed (dict, list, str, int, float, bool, None); anything else
raises :class:`~graph.errors.StateNotSerializableError` naming the key.

The SQL tables (``graph_sessions``, ``graph_versions``: :data:`GRAPH_TABLES`) are declared on
the platform's one declarative base (:class:`shared.db.Base`), so an application's Alembic
migrations can include them; :meth:`SqlCheckpointer.create_tables` creates just these two.
"""

from __future__ import annotations

import inspect
import json
from abc import ABC, abstractmethod
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, cast

from sqlalchemy import (
    DateTime,
    ForeignKey,
    Integer,
    String,
    Table,
    Text,
    bindparam,
    delete,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlalchemy.orm import Mapped, mapped_column

from graph.errors import GraphSetupError, SessionConflictError
from shared.clock import as_utc, utcnow
from shared.db import Base, create_engine
from shared.status import RunStatus

DEFAULT_SNAPSHOT_EVERY = 50
_LATEST = 2**31 - 1  # "up to the newest version" (fits the INTEGER column)


# --------------------------------------------------------------------------- records


@dataclass(frozen=True, slots=True)
class Frontier:
    """What runs next: node names (in order) and, per join target, the sources that arrived."""

    next: tuple[str, ...] = ()
    joins: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def to_json(self) -> str:
        return json.dumps({"next": list(self.next), "joins": {k: list(v) for k, v in self.joins.items()}})

    @classmethod
    def from_json(cls, text: str) -> Frontier:
        data = json.loads(text)
        return cls(tuple(data["next"]), {k: tuple(v) for k, v in data.get("joins", {}).items()})


@dataclass(frozen=True, slots=True)
class VersionRecord:
    """One stored version: the delta (JSON text), maybe a snapshot, maybe the frontier after it."""

    version: int
    node: str
    delta: str
    snapshot: str | None
    frontier: Frontier | None
    created_at: datetime

    @property
    def delta_bytes(self) -> int:
        return len(self.delta.encode())


@dataclass(frozen=True, slots=True)
class VersionInfo:
    """A line of a session's history (no payloads; :meth:`GraphEngine.get_version` has the state)."""

    version: int
    node: str
    created_at: datetime
    delta_bytes: int
    snapshot: bool
    #: True when the session can continue (resume / fork) from this version.
    step_boundary: bool


@dataclass(frozen=True, slots=True)
class SessionRecord:
    """The session row: where the run is, not what the state is (that is in the versions)."""

    session_id: str
    graph_name: str
    status: RunStatus
    version: int
    frontier: Frontier
    current_node: str | None = None
    interrupt: Mapping[str, Any] | None = None
    created_at: datetime = field(default_factory=utcnow)
    updated_at: datetime = field(default_factory=utcnow)


@dataclass(frozen=True, slots=True)
class SessionHead:
    """What changes whenever a session is written: enough to tell a cached copy is current."""

    version: int
    status: RunStatus
    updated_at: datetime
    #: the newest version row (may be past ``version`` while a run is in flight)
    latest: int


#: A write run inside a SQL checkpointer's :meth:`~Checkpointer.save` transaction (the
#: application's own rows committed atomically with the graph's, e.g. a turn's trace with the
#: pause that ends it): a plain function of a synchronous SQLAlchemy ``Connection``, so every SQL
#: checkpointer can run it, whatever thread or driver it runs its statements on.
ExtraWrite = Callable[[Connection], None]


class Checkpointer(ABC):
    """The storage contract the engine needs; every method is one round trip to the store."""

    snapshot_every: int = DEFAULT_SNAPSHOT_EVERY

    @abstractmethod
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
        """Atomically upsert the session row and append ``versions`` (and run ``extra``, SQL only).

        ``create=True`` fails with :class:`SessionConflictError` if the id exists; otherwise the
        row must still be at ``expected_version`` (optimistic concurrency: two writers on one
        session never interleave silently). ``update_session=False`` only appends versions (the
        engine's intermediate steps: the latest version row carries the frontier, so the session
        row is rewritten only when the run pauses, completes or fails); a version number that
        already exists is a :class:`SessionConflictError` too.
        """

    async def write(self, extra: Sequence[ExtraWrite], *, single_statement: bool = False) -> None:
        """Commit ``extra`` alone, in one transaction on the store's connection (SQL only): the
        application's rows that must be stored before a turn goes on (a run reserved before its
        first domain call), written where the turn's pause will write, so a turn costs no second
        connection (on SQLite: no second writer waiting for the file's lock).

        ``single_statement=True``: ``extra`` is one write running one statement, which is atomic
        by itself, so no transaction is opened around it (on PostgreSQL no BEGIN and COMMIT
        round trips); anything else is a :class:`GraphSetupError`."""
        raise GraphSetupError("extra writes need a SqlCheckpointer", param="extra")

    @abstractmethod
    async def head(self, session_id: str) -> SessionHead | None:
        """The session row's version, status and ``updated_at`` plus its newest version number."""

    @abstractmethod
    async def load(self, session_id: str) -> tuple[SessionRecord, list[VersionRecord]] | None:
        """The session row and the records rebuilding its *latest* version (see :meth:`replay`).

        While a run is in flight (or after a crash mid-run) the latest version may be newer
        than the row's ``version``; the engine then continues from that version's frontier.
        """

    @abstractmethod
    async def replay(self, session_id: str, upto: int) -> list[VersionRecord]:
        """Records from the latest snapshot ≤ ``upto`` through ``upto`` (empty if none)."""

    @abstractmethod
    async def records(self, session_id: str, upto: int) -> list[VersionRecord]:
        """Every record with version ≤ ``upto`` (used to fork a session)."""

    @abstractmethod
    async def history(self, session_id: str) -> list[VersionInfo]:
        """Every version of the session, oldest first, without payloads."""

    @abstractmethod
    async def delete(self, session_id: str) -> bool:
        """Remove the session and its versions; ``False`` if it did not exist."""


def _info(record: VersionRecord) -> VersionInfo:
    return VersionInfo(
        version=record.version,
        node=record.node,
        created_at=record.created_at,
        delta_bytes=record.delta_bytes,
        snapshot=record.snapshot is not None,
        step_boundary=record.frontier is not None,
    )


# --------------------------------------------------------------------------- in memory


class InMemoryCheckpointer(Checkpointer):
    """Process-local store (tests, single-process tools). Same semantics as :class:`SqlCheckpointer`."""

    def __init__(self, *, snapshot_every: int = DEFAULT_SNAPSHOT_EVERY):
        self.snapshot_every = snapshot_every
        self._sessions: dict[str, SessionRecord] = {}
        self._versions: dict[str, list[VersionRecord]] = {}

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
        if extra:
            raise GraphSetupError("extra writes need a SqlCheckpointer", param="extra")
        sid = session.session_id
        existing = self._versions.get(sid)
        if existing and versions and existing[-1].version >= versions[0].version:
            raise SessionConflictError(f"session {sid!r} already has version {versions[0].version}")
        if create:
            if sid in self._sessions:
                raise SessionConflictError(f"session {sid!r} already exists", param="session_id")
            self._versions[sid] = []
        else:
            current = self._sessions.get(sid)
            if current is None or (expected_version is not None and current.version != expected_version):
                raise SessionConflictError(f"session {sid!r} changed concurrently", param="session_id")
            session = replace(session, created_at=current.created_at)
        if update_session:
            self._sessions[sid] = session
        self._versions[sid].extend(versions)

    async def head(self, session_id: str) -> SessionHead | None:
        session = self._sessions.get(session_id)
        if session is None:
            return None
        versions = self._versions.get(session_id) or []
        latest = versions[-1].version if versions else session.version
        return SessionHead(session.version, session.status, session.updated_at, latest)

    async def load(self, session_id: str) -> tuple[SessionRecord, list[VersionRecord]] | None:
        session = self._sessions.get(session_id)
        if session is None:
            return None
        return session, await self.replay(session_id, _LATEST)

    async def replay(self, session_id: str, upto: int) -> list[VersionRecord]:
        rows = [r for r in self._versions.get(session_id, ()) if r.version <= upto]
        start = max((i for i, r in enumerate(rows) if r.snapshot is not None), default=None)
        return [] if start is None else rows[start:]

    async def records(self, session_id: str, upto: int) -> list[VersionRecord]:
        return [r for r in self._versions.get(session_id, ()) if r.version <= upto]

    async def history(self, session_id: str) -> list[VersionInfo]:
        return [_info(r) for r in self._versions.get(session_id, ())]

    async def delete(self, session_id: str) -> bool:
        self._versions.pop(session_id, None)
        return self._sessions.pop(session_id, None) is not None


# --------------------------------------------------------------------------- SQL


class GraphSessionRow(Base):
    """``graph_sessions``: one row per session (status, where it stands, pending question)."""

    __tablename__ = "graph_sessions"

    session_id: Mapped[str] = mapped_column(String(200), primary_key=True)
    graph_name: Mapped[str] = mapped_column(String(200))
    status: Mapped[str] = mapped_column(String(32), index=True)
    current_node: Mapped[str | None] = mapped_column(String(200), nullable=True)
    #: JSON ``{"next": [...], "joins": {...}}`` — the node(s) to run next.
    next_nodes: Mapped[str] = mapped_column(Text)
    #: JSON interrupt ``{"name", "question", "payload"}`` while ``status == "waiting_input"``.
    interrupt: Mapped[str | None] = mapped_column(Text, nullable=True)
    version: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class GraphVersionRow(Base):
    """``graph_versions``: one row per merged state (a delta; sometimes a full snapshot)."""

    __tablename__ = "graph_versions"

    session_id: Mapped[str] = mapped_column(
        String(200), ForeignKey("graph_sessions.session_id", ondelete="CASCADE"), primary_key=True
    )
    version: Mapped[int] = mapped_column(Integer, primary_key=True)
    node: Mapped[str] = mapped_column(String(200))
    delta: Mapped[str] = mapped_column(Text)
    snapshot: Mapped[str | None] = mapped_column(Text, nullable=True)
    #: JSON frontier after this version; NULL inside a parallel step (not a resume point).
    next_nodes: Mapped[str | None] = mapped_column(Text, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


_sessions = cast(Table, GraphSessionRow.__table__)
_versions = cast(Table, GraphVersionRow.__table__)
#: The checkpointer's tables: what an application migrates or creates for it.
GRAPH_TABLES: tuple[Table, ...] = (_sessions, _versions)


# The statements every pause and resume runs, built once: a built statement memoises its cache
# key, so SQLAlchemy's compiled cache finds their SQL without rebuilding them.
_SESSION_COLUMNS = (
    "graph_name",
    "status",
    "current_node",
    "next_nodes",
    "interrupt",
    "version",
    "updated_at",
)
_INSERT_SESSION = insert(_sessions)
_INSERT_VERSIONS = insert(_versions)
_update_session = (
    update(_sessions)
    .where(_sessions.c.session_id == bindparam("p_session_id"))
    .values({name: bindparam(f"p_{name}") for name in _SESSION_COLUMNS})
)
_UPDATE_SESSION = _update_session
_UPDATE_SESSION_AT = _update_session.where(_sessions.c.version == bindparam("p_expected"))
_HEAD = select(
    _sessions.c.version,
    _sessions.c.status,
    _sessions.c.updated_at,
    select(func.max(_versions.c.version)).where(_versions.c.session_id == bindparam("sid")).scalar_subquery(),
).where(_sessions.c.session_id == bindparam("sid"))
_VERSION_COLUMNS = (
    _versions.c.version,
    _versions.c.node,
    _versions.c.delta,
    _versions.c.snapshot,
    _versions.c.next_nodes,
    _versions.c.created_at,
)
_SESSION = select(
    _sessions.c.graph_name,
    _sessions.c.status,
    _sessions.c.version,
    _sessions.c.next_nodes,
    _sessions.c.current_node,
    _sessions.c.interrupt,
    _sessions.c.created_at,
    _sessions.c.updated_at,
).where(_sessions.c.session_id == bindparam("sid"))
#: the records from the latest snapshot ≤ upto through upto
_REPLAY = (
    select(*_VERSION_COLUMNS)
    .where(
        _versions.c.session_id == bindparam("sid"),
        _versions.c.version <= bindparam("upto"),
        _versions.c.version
        >= select(func.max(_versions.c.version))
        .where(
            _versions.c.session_id == bindparam("sid"),
            _versions.c.version <= bindparam("upto"),
            _versions.c.snapshot.is_not(None),
        )
        .scalar_subquery(),
    )
    .order_by(_versions.c.version)
)


# The SQL of every checkpointer method, as plain functions of a synchronous ``Connection``:
# :class:`SqlCheckpointer` runs them through ``AsyncConnection.run_sync``, the SQLite
# checkpointer (:mod:`graph.sqlite_checkpoint`) on its own thread; one SQL, either way.


def _session_values(session: SessionRecord) -> dict[str, Any]:
    return {
        "graph_name": session.graph_name,
        "status": session.status.value,
        "current_node": session.current_node,
        "next_nodes": session.frontier.to_json(),
        "interrupt": None if session.interrupt is None else json.dumps(session.interrupt),
        "version": session.version,
        "updated_at": session.updated_at,
    }


def save_rows(
    conn: Connection,
    session: SessionRecord,
    versions: Sequence[VersionRecord],
    create: bool,
    expected_version: int | None,
    update_session: bool,
    extra: Sequence[ExtraWrite],
) -> None:
    """:meth:`Checkpointer.save` inside the caller's transaction."""
    _check_plain(extra)
    sid = session.session_id
    values = _session_values(session)
    rows = [
        {
            "session_id": sid,
            "version": r.version,
            "node": r.node,
            "delta": r.delta,
            "snapshot": r.snapshot,
            "next_nodes": None if r.frontier is None else r.frontier.to_json(),
            "created_at": r.created_at,
        }
        for r in versions
    ]
    try:
        if create:
            conn.execute(_INSERT_SESSION, {"session_id": sid, "created_at": session.created_at, **values})
        elif update_session:
            params = {f"p_{name}": value for name, value in values.items()}
            params["p_session_id"] = sid
            if expected_version is None:
                matched = conn.execute(_UPDATE_SESSION, params).rowcount
            else:
                params["p_expected"] = expected_version
                matched = conn.execute(_UPDATE_SESSION_AT, params).rowcount
            if matched != 1:
                raise SessionConflictError(
                    f"session {sid!r} changed concurrently (expected version {expected_version})",
                    param="session_id",
                )
        if rows:
            conn.execute(_INSERT_VERSIONS, rows)
    except IntegrityError as exc:
        raise SessionConflictError(
            f"session {sid!r} already exists or was written concurrently", param="session_id"
        ) from exc
    # the caller's rows: their errors are theirs (and roll the graph's rows back too)
    for write in extra:
        write(conn)


def write_rows(conn: Connection, extra: Sequence[ExtraWrite]) -> None:
    """:meth:`Checkpointer.write` inside the caller's transaction."""
    _check_plain(extra)
    for write in extra:
        write(conn)


def check_single(extra: Sequence[ExtraWrite]) -> None:
    if len(extra) != 1:
        raise GraphSetupError("a single-statement write is one write", param="extra")


def _check_plain(extra: Sequence[ExtraWrite]) -> None:
    # checked before anything is written: an async function would never run, silently
    if any(inspect.iscoroutinefunction(write) for write in extra):
        raise GraphSetupError("an extra write is a plain function of a Connection, not async", param="extra")


def head_row(conn: Connection, session_id: str) -> SessionHead | None:
    row = conn.execute(_HEAD, {"sid": session_id}).first()
    if row is None:
        return None
    version, status, updated_at, newest = row
    newest = version if newest is None else newest
    return SessionHead(version, RunStatus(status), as_utc(updated_at), newest)


def _record(row: Any) -> VersionRecord:
    return VersionRecord(
        version=row.version,
        node=row.node,
        delta=row.delta,
        snapshot=row.snapshot,
        frontier=None if row.next_nodes is None else Frontier.from_json(row.next_nodes),
        created_at=as_utc(row.created_at),
    )


def replay_rows(conn: Connection, session_id: str, upto: int) -> list[VersionRecord]:
    return [_record(r) for r in conn.execute(_REPLAY, {"sid": session_id, "upto": upto})]


def load_rows(conn: Connection, session_id: str) -> tuple[SessionRecord, list[VersionRecord]] | None:
    row = conn.execute(_SESSION, {"sid": session_id}).first()
    if row is None:
        return None
    graph_name, status, version, next_nodes, current_node, interrupt, created_at, updated_at = row
    session = SessionRecord(
        session_id=session_id,
        graph_name=graph_name,
        status=RunStatus(status),
        version=version,
        frontier=Frontier.from_json(next_nodes),
        current_node=current_node,
        interrupt=None if interrupt is None else json.loads(interrupt),
        created_at=as_utc(created_at),
        updated_at=as_utc(updated_at),
    )
    return session, replay_rows(conn, session_id, _LATEST)


def record_rows(conn: Connection, session_id: str, upto: int) -> list[VersionRecord]:
    query = (
        select(*_VERSION_COLUMNS)
        .where(_versions.c.session_id == session_id, _versions.c.version <= upto)
        .order_by(_versions.c.version)
    )
    return [_record(r) for r in conn.execute(query)]


def history_rows(conn: Connection, session_id: str) -> list[VersionInfo]:
    query = (
        select(
            _versions.c.version,
            _versions.c.node,
            _versions.c.created_at,
            _versions.c.snapshot.is_not(None).label("has_snapshot"),
            _versions.c.next_nodes.is_not(None).label("boundary"),
            _versions.c.delta,
        )
        .where(_versions.c.session_id == session_id)
        .order_by(_versions.c.version)
    )
    return [
        VersionInfo(
            version=r.version,
            node=r.node,
            created_at=as_utc(r.created_at),
            delta_bytes=len(r.delta.encode()),
            snapshot=bool(r.has_snapshot),
            step_boundary=bool(r.boundary),
        )
        for r in conn.execute(query)
    ]


def delete_rows(conn: Connection, session_id: str) -> bool:
    conn.execute(delete(_versions).where(_versions.c.session_id == session_id))
    result = conn.execute(delete(_sessions).where(_sessions.c.session_id == session_id))
    return bool(result.rowcount)


def create_graph_tables(conn: Connection) -> None:
    """Create :data:`GRAPH_TABLES` if missing (and no other table of the shared metadata)."""
    Base.metadata.create_all(conn, tables=list(GRAPH_TABLES))


class SqlCheckpointer(Checkpointer):
    """SQLAlchemy 2 async store: ``postgresql+asyncpg://...`` or ``sqlite+aiosqlite:///file.db``.

    Each :meth:`save` is one transaction (session row + new version rows), so a process killed
    mid-run loses at most the step in flight, never a paused session. For SQLite,
    :class:`~graph.sqlite_checkpoint.SqliteCheckpointer` runs the same SQL with one
    thread hop per call instead of a few per statement.
    """

    def __init__(
        self, engine: AsyncEngine, *, snapshot_every: int = DEFAULT_SNAPSHOT_EVERY, owns_engine: bool = False
    ):
        self.engine = engine
        #: reads in autocommit: one statement is its own snapshot, and a read costs no BEGIN
        #: and no ROLLBACK round trip (a resume reads the head on every turn)
        self._reads = engine.execution_options(isolation_level="AUTOCOMMIT")
        self.snapshot_every = snapshot_every
        self._owns_engine = owns_engine

    @classmethod
    def from_url(
        cls, url: str, *, snapshot_every: int = DEFAULT_SNAPSHOT_EVERY, **engine_kw: Any
    ) -> SqlCheckpointer:
        """Create (and own) an engine (:func:`shared.db.create_engine`: SQLite gets WAL,
        ``synchronous=NORMAL`` and foreign keys)."""
        return cls(create_engine(url, **engine_kw), snapshot_every=snapshot_every, owns_engine=True)

    async def create_tables(self) -> None:
        """Create :data:`GRAPH_TABLES` if missing — for tests and tools; the gateway uses Alembic."""
        async with self.engine.begin() as conn:
            await conn.run_sync(create_graph_tables)

    async def close(self) -> None:
        if self._owns_engine:
            await self.engine.dispose()

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
        async with self.engine.begin() as conn:
            await conn.run_sync(save_rows, session, versions, create, expected_version, update_session, extra)

    async def write(self, extra: Sequence[ExtraWrite], *, single_statement: bool = False) -> None:
        if single_statement:
            check_single(extra)
            async with self._reads.connect() as conn:  # autocommit: the statement commits itself
                await conn.run_sync(write_rows, extra)
            return
        async with self.engine.begin() as conn:
            await conn.run_sync(write_rows, extra)

    async def head(self, session_id: str) -> SessionHead | None:
        async with self._reads.connect() as conn:
            return await conn.run_sync(head_row, session_id)

    async def load(self, session_id: str) -> tuple[SessionRecord, list[VersionRecord]] | None:
        async with self._reads.connect() as conn:
            return await conn.run_sync(load_rows, session_id)

    async def replay(self, session_id: str, upto: int) -> list[VersionRecord]:
        async with self._reads.connect() as conn:
            return await conn.run_sync(replay_rows, session_id, upto)

    async def records(self, session_id: str, upto: int) -> list[VersionRecord]:
        async with self._reads.connect() as conn:
            return await conn.run_sync(record_rows, session_id, upto)

    async def history(self, session_id: str) -> list[VersionInfo]:
        async with self._reads.connect() as conn:
            return await conn.run_sync(history_rows, session_id)

    async def delete(self, session_id: str) -> bool:
        async with self.engine.begin() as conn:
            return await conn.run_sync(delete_rows, session_id)


# --------------------------------------------------------------------------- cache


class CachingCheckpointer(Checkpointer):
    """Keeps the records of recently written sessions in memory in front of another checkpointer.

    A resume then reads the session's :class:`SessionHead` (one small query) instead of the row
    and its versions, and uses the cached records if nothing was written since — by this process
    or any other: a session moved to another gateway and back is simply reloaded. The records are
    JSON text, so no caller can change a cached state. Holds at most ``max_sessions`` sessions,
    least recently used out first.
    """

    def __init__(self, inner: Checkpointer, *, max_sessions: int = 1024):
        self.inner = inner
        self.snapshot_every = inner.snapshot_every
        self.max_sessions = max_sessions
        self._entries: OrderedDict[str, tuple[SessionRecord, list[VersionRecord]]] = OrderedDict()

    def _remember(self, session: SessionRecord, records: list[VersionRecord]) -> None:
        # only the records from the latest snapshot on are needed to rebuild the latest state
        start = max((i for i, r in enumerate(records) if r.snapshot is not None), default=None)
        if start is None:
            self._entries.pop(session.session_id, None)
            return
        self._entries[session.session_id] = (session, records[start:])
        self._entries.move_to_end(session.session_id)
        while len(self._entries) > self.max_sessions:
            self._entries.popitem(last=False)

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
        sid = session.session_id
        cached = self._entries.pop(sid, None)  # dropped unless this write lands
        await self.inner.save(
            session,
            versions,
            create=create,
            expected_version=expected_version,
            update_session=update_session,
            extra=extra,
        )
        if create:
            self._remember(session, list(versions))
        elif cached is not None:
            row, records = cached
            if update_session:
                # the store keeps the row's creation time; so must the copy
                row = replace(session, created_at=row.created_at)
            self._remember(row, records + list(versions))

    async def write(self, extra: Sequence[ExtraWrite], *, single_statement: bool = False) -> None:
        await self.inner.write(extra, single_statement=single_statement)

    async def head(self, session_id: str) -> SessionHead | None:
        return await self.inner.head(session_id)

    async def load(self, session_id: str) -> tuple[SessionRecord, list[VersionRecord]] | None:
        cached = self._entries.get(session_id)
        if cached is not None:
            head = await self.inner.head(session_id)
            row, records = cached
            if head == SessionHead(row.version, row.status, row.updated_at, records[-1].version):
                self._entries.move_to_end(session_id)
                return row, list(records)
            del self._entries[session_id]
        loaded = await self.inner.load(session_id)
        if loaded is not None:
            self._remember(*loaded)
        return loaded

    async def replay(self, session_id: str, upto: int) -> list[VersionRecord]:
        return await self.inner.replay(session_id, upto)

    async def records(self, session_id: str, upto: int) -> list[VersionRecord]:
        return await self.inner.records(session_id, upto)

    async def history(self, session_id: str) -> list[VersionInfo]:
        return await self.inner.history(session_id)

    async def delete(self, session_id: str) -> bool:
        self._entries.pop(session_id, None)
        return await self.inner.delete(session_id)
