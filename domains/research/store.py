"""The research domain's own database: emitted events and the latest per-session snapshot.

``research_events`` is the emitted history (one row per event, never deleted by a reset);
``research_sessions`` holds the session's counters (event sequence, conversation generation)
and the snapshot in the documented JSON shape, rewritten after every turn. The graph engine's
tables (``graph_sessions``, ``graph_versions``) live in the same database: the domain owns it,
and creates only :data:`RESEARCH_TABLES` and the graph's there, never another service's tables
that share the declarative base.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from sqlalchemy import DateTime, Integer, String, Table, Text, select
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker
from sqlalchemy.orm import Mapped, mapped_column

from domains.research.memory import snapshot_json, utc_iso
from graph.checkpoint import GRAPH_TABLES
from shared.clock import utcnow
from shared.db import Base, session_factory, unit_of_work


class SessionRow(Base):
    __tablename__ = "research_sessions"

    session_id: Mapped[str] = mapped_column(String(200), primary_key=True)
    #: Bumped by a reset or a new conversation after a finished one: a new graph session.
    generation: Mapped[int] = mapped_column(Integer, default=1)
    #: The last event number used (``evt-0007`` -> 7); never goes back, even on reset.
    event_seq: Mapped[int] = mapped_column(Integer, default=0)
    language: Mapped[str] = mapped_column(String(8), default="pt")
    #: JSON ``{session_id, updated_at, agents: {role: [{event_id, summary, tokens_total}]}}``.
    snapshot: Mapped[str] = mapped_column(Text)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class EventRow(Base):
    __tablename__ = "research_events"

    session_id: Mapped[str] = mapped_column(String(200), primary_key=True)
    event_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    #: The event's number (``evt-0012`` -> 12), for ordering past ``evt-9999``.
    seq: Mapped[int] = mapped_column(Integer)
    generation: Mapped[int] = mapped_column(Integer)
    role: Mapped[str] = mapped_column(String(64))
    timestamp: Mapped[str] = mapped_column(String(40))
    summary: Mapped[str] = mapped_column(Text)
    tokens_input: Mapped[int] = mapped_column(Integer)
    tokens_output: Mapped[int] = mapped_column(Integer)
    tokens_total: Mapped[int] = mapped_column(Integer)
    mode: Mapped[str] = mapped_column(String(32))


#: The domain's own tables (the graph engine's are :data:`~graph.checkpoint.GRAPH_TABLES`).
RESEARCH_TABLES: tuple[Table, ...] = (
    cast(Table, SessionRow.__table__),
    cast(Table, EventRow.__table__),
)


@dataclass(frozen=True)
class SessionInfo:
    session_id: str
    generation: int
    event_seq: int
    language: str


class ResearchStore:
    def __init__(self, engine: AsyncEngine):
        self.engine = engine
        self._factory: async_sessionmaker[AsyncSession] = session_factory(engine)

    async def create_tables(self) -> None:
        """Our tables and the graph engine's, idempotently (and no other service's)."""
        async with self.engine.begin() as conn:
            await conn.run_sync(Base.metadata.create_all, tables=[*RESEARCH_TABLES, *GRAPH_TABLES])

    async def session(self, session_id: str) -> SessionInfo | None:
        async with self._factory() as db:
            row = await db.get(SessionRow, session_id)
            if row is None:
                return None
            return SessionInfo(row.session_id, row.generation, row.event_seq, row.language)

    async def save_turn(
        self,
        session_id: str,
        *,
        generation: int,
        event_seq: int,
        language: str,
        events: Sequence[dict[str, Any]],
        memory: dict[str, Any],
    ) -> dict[str, Any]:
        """Append the turn's new events and rewrite the snapshot; returns the snapshot JSON."""
        snap = snapshot_json(session_id, memory, utc_iso())
        async with unit_of_work(self._factory) as db:
            known = set(
                (
                    await db.execute(
                        select(EventRow.event_id).where(
                            EventRow.session_id == session_id,
                            EventRow.event_id.in_([e["event_id"] for e in events] or [""]),
                        )
                    )
                ).scalars()
            )
            for e in events:
                if e["event_id"] in known:
                    continue
                db.add(
                    EventRow(
                        session_id=session_id,
                        event_id=e["event_id"],
                        seq=int(e["event_id"].split("-", 1)[1]),
                        generation=generation,
                        role=e["role"],
                        timestamp=e["timestamp"],
                        summary=e["summary"],
                        tokens_input=e["tokens_input"],
                        tokens_output=e["tokens_output"],
                        tokens_total=e["tokens_total"],
                        mode=e.get("mode", ""),
                    )
                )
            await self._upsert(db, session_id, generation, event_seq, language, snap)
        return snap

    async def _upsert(
        self,
        db: AsyncSession,
        session_id: str,
        generation: int,
        event_seq: int,
        language: str,
        snap: dict[str, Any],
    ) -> None:
        row = await db.get(SessionRow, session_id)
        now = utcnow()
        if row is None:
            db.add(
                SessionRow(
                    session_id=session_id,
                    generation=generation,
                    event_seq=event_seq,
                    language=language,
                    snapshot=json.dumps(snap, ensure_ascii=False),
                    updated_at=now,
                )
            )
            return
        row.generation = generation
        row.event_seq = max(row.event_seq, event_seq)
        row.language = language
        row.snapshot = json.dumps(snap, ensure_ascii=False)
        row.updated_at = now

    async def reset(self, session_id: str) -> SessionInfo:
        """New generation, empty agent memory in the snapshot; events are kept."""
        async with unit_of_work(self._factory) as db:
            row = await db.get(SessionRow, session_id)
            generation = (row.generation + 1) if row else 2
            seq = row.event_seq if row else 0
            language = row.language if row else "pt"
            await self._upsert(
                db, session_id, generation, seq, language, snapshot_json(session_id, {}, utc_iso())
            )
        return SessionInfo(session_id, generation, seq, language)

    async def snapshot(self, session_id: str) -> dict[str, Any] | None:
        async with self._factory() as db:
            row = await db.get(SessionRow, session_id)
            return None if row is None else dict(json.loads(row.snapshot))

    async def events(self, session_id: str) -> list[dict[str, Any]]:
        query = select(EventRow).where(EventRow.session_id == session_id).order_by(EventRow.seq)
        async with self._factory() as db:
            return [
                {
                    "event_id": r.event_id,
                    "generation": r.generation,
                    "role": r.role,
                    "timestamp": r.timestamp,
                    "summary": r.summary,
                    "tokens_input": r.tokens_input,
                    "tokens_output": r.tokens_output,
                    "tokens_total": r.tokens_total,
                    "mode": r.mode,
                }
                for r in (await db.execute(query)).scalars()
            ]
