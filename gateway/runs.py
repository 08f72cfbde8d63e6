"""Persistence of sessions and runs: one read when a turn starts, one transaction when it ends."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple, cast

from sqlalchemy import DateTime, Table, bindparam, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine

from gateway.storage import RunRow, SessionRow
from shared.clock import utcnow
from shared.db import JsonText, session_factory, unit_of_work
from shared.models import RunResult

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
_INSERT_SESSION = insert(_sessions)
_SESSION_ROW = select(
    _sessions.c.status,
    _sessions.c.turn_count,
    _sessions.c.event_count,
).where(_sessions.c.id == bindparam("p_id"))
#: the trace arrives as JSON text: pydantic writes it once, for this row and the response body
_INSERT_RUN = insert(_runs).values(trace=bindparam("trace_json", type_=JsonText()))


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
        events: int = 0,
    ) -> Callable[[Connection], None]:
        """The turn's rows (session upsert, run with its trace ``trace_json``, which is
        ``result.model_dump_json()``) as one write on the checkpointer's connection, in the
        transaction of the graph's pause. Core statements rather than ORM objects: this is on
        every turn's path."""
        stamp = utcnow()

        def write(conn: Connection) -> None:
            updated = conn.execute(
                _UPDATE_SESSION,
                {
                    "p_id": result.session_id,
                    "p_status": result.status.value,
                    "p_events": events,
                    "p_updated_at": stamp,
                },
            )
            if updated.rowcount == 0:
                conn.execute(
                    _INSERT_SESSION,
                    {
                        "id": result.session_id,
                        "status": result.status.value,
                        "channel": channel,
                        "turn_count": 1,
                        "event_count": events,
                        "created_at": stamp,
                        "updated_at": stamp,
                    },
                )
            conn.execute(
                _INSERT_RUN,
                {
                    "id": result.run_id,
                    "session_id": result.session_id,
                    "status": result.status.value,
                    "input_text": input_text,
                    "answer": result.answer,
                    "trace_json": trace_json,
                    "created_at": result.created_at or stamp,
                    "finished_at": result.finished_at,
                },
            )

        return write

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

    async def ensure_session(self, session_id: str, *, forked_from: str | None = None) -> None:
        async with unit_of_work(self._sessions) as db:
            if await db.get(SessionRow, session_id) is None:
                parent = await db.get(SessionRow, forked_from) if forked_from else None
                db.add(
                    SessionRow(
                        id=session_id,
                        status="waiting_input",
                        channel=parent.channel if parent else "rest",
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
