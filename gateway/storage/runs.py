"""Persistence of sessions and runs: one read when a turn starts, one transaction when it ends.

Ownership lives here too: :meth:`RunStore.session_owner` is the one answer to "whose session is
this", and :meth:`RunStore.check_owner` / :meth:`RunStore.claimable` / :meth:`RunStore.owned_run`
are the checks every route and the turn make through it; :meth:`RunStore.claim_session` is the one
decision for a new id, made atomically where its row is created. Another tenant's session or run is
answered exactly as a missing one (404), so its existence is not revealed by reads.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, NamedTuple, cast

from sqlalchemy import DateTime, Insert, Table, bindparam, insert, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from gateway.storage.principals import TELEGRAM_SESSION_PREFIX, TELEGRAM_TENANT
from gateway.storage.tables import RunRow, SessionRow
from graph import Checkpointer
from shared.clock import utcnow
from shared.db import JsonText, session_factory, unit_of_work
from shared.errors import NotFound
from shared.models import RunResult
from shared.status import RETRYABLE, RunStatus

_sessions = cast(Table, SessionRow.__table__)
_runs = cast(Table, RunRow.__table__)


# built once at import: SQLAlchemy's compiled cache then reuses their SQL on every turn
_UPDATE_SESSION = (
    update(_sessions)
    .where(_sessions.c.id == bindparam("p_id"))
    .values(
        status=bindparam("p_status"),
        turn_count=_sessions.c.turn_count + 1,
        event_count=_sessions.c.event_count + bindparam("p_events"),
        updated_at=bindparam("p_updated_at", type_=DateTime(timezone=True)),
    )
)
#: a turn only ever updates a session of its own tenant (checked before, under the session lock)
_UPDATE_SESSION = _UPDATE_SESSION.where(_sessions.c.tenant == bindparam("p_tenant"))
_INSERT_SESSION = insert(_sessions)
_SESSION_ROW = select(
    _sessions.c.status,
    _sessions.c.turn_count,
    _sessions.c.event_count,
).where(_sessions.c.id == bindparam("p_id"))
_SESSION_ORIGIN = select(_sessions.c.channel, _sessions.c.event_count).where(
    _sessions.c.id == bindparam("p_id")
)
_SESSION_TENANT = select(_sessions.c.tenant).where(_sessions.c.id == bindparam("p_id"))
#: the trace arrives as JSON text: pydantic writes it once, for this row and the response body
_INSERT_RUN = insert(_runs).values(trace=bindparam("trace_json", type_=JsonText()))
#: a background run's row exists from its 202 (``queued``): its turn fills it in
_FINISH_QUEUED_RUN = (
    update(_runs)
    # a run cancelled while its turn ran stays cancelled: no step started after the cancel
    .where(_runs.c.id == bindparam("p_id"), _runs.c.status != RunStatus.CANCELLED.value)
    .values(
        status=bindparam("status"),
        answer=bindparam("answer"),
        trace=bindparam("trace_json", type_=JsonText()),
        finished_at=bindparam("finished_at", type_=DateTime(timezone=True)),
    )
)
#: Background runs of this process recorded before their turn (:meth:`RunStore.queue_run`), until
#: it ends: their turn updates the row instead of inserting it. Process-wide, as a run's turn runs
#: in the process that queued it (and run ids are unique).
_queued_runs: set[str] = set()
#: A background run not yet finished: what a worker may still move on.
_UNFINISHED = (RunStatus.QUEUED.value, RunStatus.EXECUTING.value)


#: Session owners remembered at most (an owner never changes, so they are never stale).
_OWNERS_MAX = 65_536
_ARCHIVE = re.compile(r"^(?P<base>.+)~reset-(?P<events>[0-9]+)$")


def archive_id(session_id: str, event_count: int) -> str:
    """Where a reset keeps the versions it clears: named after the session and the event count at
    the reset (unchanged until the next turn), so the session finds them without a lookup table.

    >>> archive_id("s1", 4)
    's1~reset-4'
    """
    return f"{session_id}~reset-{event_count}"


def archived_from(session_id: str) -> str | None:
    """The session whose reset archive ``session_id`` is named as, if it is named so.

    >>> archived_from("s1~reset-4"), archived_from("s1")
    ('s1', None)
    """
    found = _ARCHIVE.match(session_id)
    return found.group("base") if found else None


def no_session(session_id: str) -> NotFound:
    return NotFound(f"No session with id '{session_id}'", param="session_id")


#: Where a queued background run's trace keeps what else its turn needs (channel, metadata, pinned
#: domain); ``RunResult`` ignores it, so no read of the run shows it.
ENTRY_KEY = "background_entry"


@dataclass(frozen=True)
class UnfinishedRun:
    """A stored background run that has not ended, as a gateway taking it over reads it."""

    run_id: str
    session_id: str
    input_text: str
    created_at: datetime | None
    entry: dict[str, Any]
    #: its session's tenant; ``None`` when the session is gone
    tenant: str | None


class Claim(NamedTuple):
    """The outcome of :meth:`RunStore.claim_session`."""

    #: the session is the claiming tenant's (new or already its own)
    owned: bool
    #: its row was created by this claim (it stays the tenant's even if what follows fails: an
    #: owner never changes, which is what lets every process cache owners)
    created: bool = False


def _insert_if_absent(dialect: str) -> Insert:
    """A session row inserted unless one with its id exists: the database's primary key decides
    between two claims of one new id, in one statement."""
    if dialect == "postgresql":
        return postgresql.insert(_sessions).on_conflict_do_nothing(index_elements=["id"])
    if dialect == "sqlite":
        return sqlite.insert(_sessions).on_conflict_do_nothing(index_elements=["id"])
    return insert(_sessions).prefix_with("IGNORE", dialect="mysql")


def _insert_run_if_absent(dialect: str) -> Insert:
    if dialect == "postgresql":
        return postgresql.insert(_runs).on_conflict_do_nothing(index_elements=["id"])
    if dialect == "sqlite":
        return sqlite.insert(_runs).on_conflict_do_nothing(index_elements=["id"])
    return insert(_runs).prefix_with("IGNORE", dialect="mysql")


#: per dialect, built once: the trace arrives as JSON text (pydantic writes it, no dict between)
_RESERVE_RUN = {
    dialect: _insert_run_if_absent(dialect).values(trace=bindparam("trace_json", type_=JsonText()))
    for dialect in ("postgresql", "sqlite", "mysql")
}
_RUN_STATUS = select(_runs.c.status).where(_runs.c.id == bindparam("p_id"))


class RunListing(NamedTuple):
    """One line of ``GET /v1/runs``: a run without its trace."""

    run_id: str
    session_id: str
    status: RunStatus
    input_text: str
    created_at: datetime | None
    finished_at: datetime | None


class StoredTurn(NamedTuple):
    run: RunResult
    #: the text the person sent for this turn (a clarification reply, not the question it answered)
    input_text: str


@dataclass
class SessionSnapshot:
    id: str
    exists: bool
    status: str = "pending"
    turn_count: int = 0
    event_count: int = 0


class RunStore:
    def __init__(self, engine: AsyncEngine):
        self._engine = engine
        self._sessions = session_factory(engine)
        self._owners: dict[str, str] = {}

    async def session_owner(self, session_id: str) -> str | None:
        """The tenant that owns ``session_id``, or ``None`` if nobody does yet: the session row's
        tenant; for a reset archive with no row of its own, its session's owner; ids of the
        Telegram channel belong to the Telegram tenant even before their first message."""
        owner = self._owners.get(session_id)
        if owner is not None:
            return owner
        async with self._engine.connect() as conn:
            owner = (await conn.execute(_SESSION_TENANT, {"p_id": session_id})).scalar_one_or_none()
        if owner is None:
            base = archived_from(session_id)
            if base is not None:
                return await self.session_owner(base)
            return TELEGRAM_TENANT if session_id.startswith(TELEGRAM_SESSION_PREFIX) else None
        if len(self._owners) >= _OWNERS_MAX:
            self._owners.pop(next(iter(self._owners)))
        self._owners[session_id] = owner
        return owner

    async def check_owner(self, session_id: str, tenant: str) -> None:
        """Reads of a session: ``NotFound`` unless ``tenant`` owns it (missing or another
        tenant's, the same answer)."""
        if await self.session_owner(session_id) != tenant:
            raise no_session(session_id)

    async def claimable(self, session_id: str, tenant: str) -> bool:
        """May ``tenant`` write to ``session_id``: its own, or an id nobody owns. A reset archive's
        name is never new: it is its session's owner's, or nobody's to take."""
        owner = await self.session_owner(session_id)
        if owner is None:
            return archived_from(session_id) is None
        return owner == tenant

    async def claim_session(
        self, session_id: str, tenant: str, *, channel: str = "rest", forked_from: str | None = None
    ) -> Claim:
        """The one ownership decision for a session id: ``tenant``'s own session, or a new id made
        ``tenant``'s by creating its row (a fork's with ``forked_from``'s channel and event count)
        in one insert-if-absent, so two tenants claiming one new id at once cannot both get it
        (the loser is refused before anything of its request has run)."""
        owner = await self.session_owner(session_id)
        if owner is not None and owner != tenant:
            return Claim(owned=False)
        if owner is None and archived_from(session_id) is not None:
            return Claim(owned=False)  # a reset archive's name is nobody's to take
        if session_id in self._owners:
            return Claim(owned=True)  # its row exists (the cache holds only owners read from rows)
        stamp = utcnow()
        async with self._engine.begin() as conn:
            channel_of, events = channel, 0
            if forked_from is not None:
                parent = (await conn.execute(_SESSION_ORIGIN, {"p_id": forked_from})).first()
                if parent is not None:
                    channel_of, events = parent.channel, parent.event_count
            inserted = await conn.execute(
                _insert_if_absent(conn.dialect.name),
                {
                    "id": session_id,
                    "status": "waiting_input" if forked_from is not None else RunStatus.PENDING.value,
                    "channel": channel_of,
                    "tenant": tenant,
                    "turn_count": 0,
                    "event_count": events,
                    "created_at": stamp,
                    "updated_at": stamp,
                },
            )
            owner = (await conn.execute(_SESSION_TENANT, {"p_id": session_id})).scalar_one()
        self._owners.pop(session_id, None)
        if len(self._owners) >= _OWNERS_MAX:
            self._owners.pop(next(iter(self._owners)))
        self._owners[session_id] = owner
        return Claim(owned=owner == tenant, created=owner == tenant and inserted.rowcount == 1)

    async def owned_run(self, run_id: str, tenant: str) -> RunResult | None:
        """The run, if its session is ``tenant``'s."""
        async with self._sessions() as db:
            row = await db.get(RunRow, run_id)
            if row is None or await self.session_owner(row.session_id) != tenant:
                return None
            return RunResult.model_validate(row.trace)

    async def load_session(self, session_id: str) -> SessionSnapshot:
        async with self._engine.connect() as conn:
            row = (await conn.execute(_SESSION_ROW, {"p_id": session_id})).first()
        if row is None:
            return SessionSnapshot(id=session_id, exists=False)
        status, turn_count, event_count = row
        return SessionSnapshot(
            id=session_id,
            exists=True,
            status=status,
            turn_count=turn_count,
            event_count=event_count,
        )

    @staticmethod
    def turn_write(
        result: RunResult,
        trace_json: str,
        *,
        input_text: str,
        channel: str,
        tenant: str,
        events: int = 0,
    ) -> Callable[[Connection], None]:
        """The turn's rows (session upsert, run with its trace ``trace_json``, which is
        ``result.model_dump_json()``) as one write on the checkpointer's connection, in the
        transaction of the graph's pause. Core statements rather than ORM objects: this is on
        every turn's path."""
        stamp = utcnow()

        def write(conn: Connection) -> None:
            _upsert_session(conn, result, channel=channel, tenant=tenant, events=events, stamp=stamp)
            if result.run_id in _queued_runs:
                conn.execute(
                    _FINISH_QUEUED_RUN,
                    {
                        "p_id": result.run_id,
                        "status": result.status.value,
                        "answer": result.answer,
                        "trace_json": trace_json,
                        "finished_at": result.finished_at,
                    },
                )
                return
            conn.execute(
                _INSERT_RUN,
                _run_row(
                    result,
                    input_text=input_text,
                    answer=result.answer,
                    trace_json=trace_json,
                    created_at=result.created_at or stamp,
                ),
            )

        return write

    async def queue_run(
        self,
        run: RunResult,
        *,
        input_text: str,
        channel: str,
        tenant: str,
        entry: dict[str, Any] | None = None,
    ) -> None:
        """Record a background run before its 202 (status ``queued``), so it is findable by id from
        then on; its session row too if the session is new, which claims the id for ``tenant``.
        ``NotFound`` if the session turns out to be another tenant's (taken meanwhile).

        ``entry``: what else its turn needs (:data:`ENTRY_KEY`), kept in the trace until the turn
        replaces it, so another gateway can run it if this one dies."""
        stamp = run.created_at or utcnow()
        trace = run.model_dump(mode="json")
        if entry is not None:
            trace[ENTRY_KEY] = entry
        for attempt in range(2):
            try:
                # Core statements in one transaction: this is on every background request's path
                async with self._engine.begin() as conn:
                    owner = (
                        await conn.execute(_SESSION_TENANT, {"p_id": run.session_id})
                    ).scalar_one_or_none()
                    if owner is None:
                        await conn.execute(
                            _INSERT_SESSION,
                            _session_row(
                                run.session_id,
                                RunStatus.PENDING,
                                channel=channel,
                                tenant=tenant,
                                turns=0,
                                events=0,
                                stamp=stamp,
                            ),
                        )
                    elif owner != tenant:
                        raise no_session(run.session_id)
                    await conn.execute(
                        _INSERT_RUN,
                        _run_row(
                            run,
                            input_text=input_text,
                            answer="",
                            trace_json=json.dumps(trace),
                            created_at=stamp,
                        ),
                    )
                break
            except IntegrityError:
                # the same new session created by a concurrent request: read it again, once
                if attempt:
                    raise
        _queued_runs.add(run.run_id)

    async def reserve_run(
        self, run: RunResult, *, input_text: str, through: Checkpointer | None = None
    ) -> None:
        """Record a turn's run (``executing``) before its first domain call, so nothing acts
        that could not be recorded: a database that cannot take this write fails the turn before
        any step runs. The turn's own write then fills the row in. A row left unfinished by a
        crashed attempt under the same run id (an ``Idempotency-Key``'s retry) is taken as it is.

        ``through``: the checkpointer that will store the turn's pause, whose connection then
        takes this write too (:meth:`~graph.Checkpointer.write`; on SQLite one hand-off to its
        thread and no second connection waiting for the file's write lock); else this store's
        engine. The same insert either way."""
        reservation = self._reservation(run, input_text)
        if through is not None:
            # one insert: it commits by itself (no BEGIN / COMMIT round trips on PostgreSQL)
            await through.write([reservation], single_statement=True)
        else:
            async with self._engine.begin() as conn:
                await conn.run_sync(reservation)
        _queued_runs.add(run.run_id)

    @staticmethod
    def _reservation(run: RunResult, input_text: str) -> Callable[[Connection], None]:
        stamp = run.created_at or utcnow()
        values = {
            "id": run.run_id,
            "session_id": run.session_id,
            "status": RunStatus.EXECUTING.value,
            "input_text": input_text,
            "answer": "",
            "trace_json": run.model_dump_json(),
            "created_at": stamp,
            "finished_at": None,
        }

        def write(conn: Connection) -> None:
            conn.execute(_RESERVE_RUN[conn.dialect.name], values)

        return write

    def recorded_before_turn(self, run_id: str) -> bool:
        """Its row exists before its turn ends (a background run, or a reserved turn)."""
        return run_id in _queued_runs

    async def run_status(self, run_id: str) -> RunStatus | None:
        """The stored status of ``run_id`` (one indexed read: checked before each step of a
        background run, so a cancel made on any gateway stops it)."""
        async with self._engine.connect() as conn:
            status = (await conn.execute(_RUN_STATUS, {"p_id": run_id})).scalar_one_or_none()
        return RunStatus(status) if status is not None else None

    async def cancel_run(self, run_id: str, reason: str) -> None:
        """A background run still queued or running: ``cancelled`` (a queued one never starts,
        a running one starts no further step)."""
        await self._move_unfinished([run_id], RunStatus.CANCELLED, reason)

    async def requeue_retryable(self, run_id: str, note: str) -> UnfinishedRun | None:
        """A failed or timed-out run queued again under its own id (-> ``queued``, ``note``
        added), with what its turn needs; ``None`` unless its status is retryable."""
        async with unit_of_work(self._sessions) as db:
            row = await db.get(RunRow, run_id, with_for_update=True)
            if row is None or RunStatus(row.status) not in RETRYABLE:
                return None
            run = RunResult.model_validate(row.trace)
            run = run.model_copy(update={"status": RunStatus.QUEUED, "notes": [*run.notes, note]})
            row.status = RunStatus.QUEUED.value
            row.finished_at = None
            entry = (row.trace or {}).get(ENTRY_KEY) or {}
            row.trace = {**run.model_dump(mode="json"), ENTRY_KEY: entry}
            session_id, input_text = row.session_id, row.input_text
        return UnfinishedRun(
            run_id=run_id,
            session_id=session_id,
            input_text=input_text,
            created_at=run.created_at,
            entry=entry,
            tenant=await self.session_owner(session_id),
        )

    async def get_run_request(self, run_id: str) -> tuple[str, dict[str, Any]] | None:
        """What ``run_id`` was asked: its input text and the request's extras (channel, metadata,
        pinned domain) when it was a background run."""
        async with self._sessions() as db:
            row = await db.get(RunRow, run_id)
            if row is None:
                return None
            return row.input_text, dict((row.trace or {}).get(ENTRY_KEY) or {})

    async def is_background(self, run_id: str) -> bool:
        """Its row was stored with what a worker needs to run it (:data:`ENTRY_KEY`)."""
        async with self._sessions() as db:
            row = await db.get(RunRow, run_id)
            return row is not None and ENTRY_KEY in (row.trace or {})

    async def list_runs(
        self, tenant: str, *, status: RunStatus | None = None, session_id: str | None = None, limit: int = 50
    ) -> list[RunListing]:
        """``tenant``'s runs, newest first, optionally of one status and one session."""
        query = (
            select(
                _runs.c.id,
                _runs.c.session_id,
                _runs.c.status,
                _runs.c.input_text,
                _runs.c.created_at,
                _runs.c.finished_at,
            )
            .join(_sessions, _sessions.c.id == _runs.c.session_id)
            .where(_sessions.c.tenant == tenant)
            .order_by(_runs.c.created_at.desc(), _runs.c.id)
            .limit(limit)
        )
        if status is not None:
            query = query.where(_runs.c.status == status.value)
        if session_id is not None:
            query = query.where(_runs.c.session_id == session_id)
        async with self._engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return [
            RunListing(
                run_id=r.id,
                session_id=r.session_id,
                status=RunStatus(r.status),
                input_text=r.input_text,
                created_at=r.created_at,
                finished_at=r.finished_at,
            )
            for r in rows
        ]

    async def mark_running(self, run_id: str) -> None:
        """A background run's worker has taken it: ``queued`` -> ``executing``."""
        await self._move_unfinished([run_id], RunStatus.EXECUTING)

    async def fail_runs(self, run_ids: list[str], reason: str) -> None:
        """Background runs that ended without a stored turn: ``failed``, with ``reason`` in their
        notes. A run whose turn was stored meanwhile keeps its own status."""
        await self._move_unfinished(run_ids, RunStatus.FAILED, reason)

    def forget_queued(self, run_id: str) -> None:
        _queued_runs.discard(run_id)

    def adopt_queued(self, run_id: str) -> None:
        """A stored background run taken over from another process: its turn updates its row."""
        _queued_runs.add(run_id)

    async def unfinished_run(self, run_id: str) -> UnfinishedRun | None:
        """A background run to take over, with what its turn needs; ``None`` when it is final
        (its turn committed) or gone."""
        async with self._engine.connect() as conn:
            row = (
                await conn.execute(
                    select(_runs.c.session_id, _runs.c.status, _runs.c.input_text, _runs.c.trace).where(
                        _runs.c.id == run_id
                    )
                )
            ).first()
        if row is None or row.status not in _UNFINISHED:
            return None
        trace = row.trace if isinstance(row.trace, dict) else json.loads(row.trace)
        if ENTRY_KEY not in trace:
            # a turn's reservation (its request waits on it, or died with its gateway): not a
            # background run, never taken over; a resend with its Idempotency-Key runs it again
            return None
        run = RunResult.model_validate(trace)
        return UnfinishedRun(
            run_id=run_id,
            session_id=row.session_id,
            input_text=row.input_text,
            created_at=run.created_at,
            entry=trace.get(ENTRY_KEY) or {},
            tenant=await self.session_owner(row.session_id),
        )

    async def _move_unfinished(
        self, run_ids: list[str], status: RunStatus, note: str | None = None, *, answer: str | None = None
    ) -> None:
        if not run_ids:
            return
        async with unit_of_work(self._sessions) as db:
            rows = await db.scalars(
                select(RunRow).where(RunRow.id.in_(run_ids), RunRow.status.in_(_UNFINISHED))
            )
            for row in rows:
                run = RunResult.model_validate(row.trace)
                changes: dict[str, Any] = {"status": status}
                if note is not None:
                    changes["notes"] = [*run.notes, note]
                if status in (RunStatus.FAILED, RunStatus.CANCELLED):
                    changes["finished_at"] = row.finished_at = utcnow()
                if answer is not None:
                    changes["answer"] = row.answer = answer
                run = run.model_copy(update=changes)
                row.status = status.value
                # keys beside the trace (the background entry) stay until the turn replaces them
                row.trace = {**row.trace, **run.model_dump(mode="json")}

    async def get_run(self, run_id: str) -> RunResult | None:
        async with self._sessions() as db:
            row = await db.get(RunRow, run_id)
            return RunResult.model_validate(row.trace) if row is not None else None

    async def session_runs(self, session_id: str, limit: int = 50) -> list[RunResult]:
        async with self._sessions() as db:
            rows = await db.scalars(
                select(RunRow).where(RunRow.session_id == session_id).order_by(RunRow.created_at).limit(limit)
            )
            return [RunResult.model_validate(r.trace) for r in rows]

    async def session_turns(self, session_id: str, limit: int = 50) -> list[StoredTurn]:
        """The session's runs, oldest first, each with the text the person typed."""
        async with self._sessions() as db:
            rows = await db.scalars(
                select(RunRow).where(RunRow.session_id == session_id).order_by(RunRow.created_at).limit(limit)
            )
            return [StoredTurn(RunResult.model_validate(r.trace), r.input_text) for r in rows]

    async def ensure_session(self, session_id: str, *, tenant: str, forked_from: str | None = None) -> None:
        async with unit_of_work(self._sessions) as db:
            if await db.get(SessionRow, session_id) is None:
                parent = await db.get(SessionRow, forked_from) if forked_from else None
                db.add(
                    SessionRow(
                        id=session_id,
                        status="waiting_input",
                        channel=parent.channel if parent else "rest",
                        tenant=tenant,
                        turn_count=0,
                        event_count=parent.event_count if parent else 0,
                    )
                )

    async def reset_session(self, session_id: str) -> None:
        """Mark the session reset (the graph session, which holds the memory and the pending
        question, is deleted by the caller); runs and event numbering stay."""
        async with unit_of_work(self._sessions) as db:
            row = await db.get(SessionRow, session_id)
            if row is not None:
                row.status = "reset"
                row.updated_at = utcnow()


def _session_row(
    session_id: str, status: RunStatus, *, channel: str, tenant: str, turns: int, events: int, stamp: datetime
) -> dict[str, object]:
    """A new ``sessions`` row's values."""
    return {
        "id": session_id,
        "status": status.value,
        "channel": channel,
        "tenant": tenant,
        "turn_count": turns,
        "event_count": events,
        "created_at": stamp,
        "updated_at": stamp,
    }


def _run_row(
    run: RunResult, *, input_text: str, answer: str, trace_json: str, created_at: datetime
) -> dict[str, object]:
    """A new ``runs`` row's values (finished when ``run`` is)."""
    return {
        "id": run.run_id,
        "session_id": run.session_id,
        "status": run.status.value,
        "input_text": input_text,
        "answer": answer,
        "trace_json": trace_json,
        "created_at": created_at,
        "finished_at": run.finished_at,
    }


def _upsert_session(
    conn: Connection, result: RunResult, *, channel: str, tenant: str, events: int, stamp: datetime
) -> None:
    """The turn's session row: counted on, or made by its first turn."""
    updated = conn.execute(
        _UPDATE_SESSION,
        {
            "p_id": result.session_id,
            "p_status": result.status.value,
            "p_events": events,
            "p_updated_at": stamp,
            "p_tenant": tenant,
        },
    )
    if updated.rowcount == 0:
        conn.execute(
            _INSERT_SESSION,
            _session_row(
                result.session_id,
                result.status,
                channel=channel,
                tenant=tenant,
                turns=1,
                events=events,
                stamp=stamp,
            ),
        )
