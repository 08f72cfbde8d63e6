"""Conversation points: where in which session a conversation stands after a turn, so a client that
names a point (a chat client resending its history, a Responses client's ``previous_response_id``)
continues the state that matches what the person sees.

A point is a session, the state version its turn ended on and that turn's run id. When the
session has moved past the point (an answer regenerated, an earlier message edited, a branch
taken from an older response), the next message runs on a fork of the session at the point, not
on a state the person no longer sees. A point whose session was reset (the version there is no
longer that turn's) leads nowhere: :func:`session_at` answers ``None``.

Chat clients name a point by their history: :func:`conversation_key` hashes the messages before
the last user message, and each turn records the key of its history plus the message and the
answer it sent, which is what the client's next request starts with.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, NamedTuple, cast

from sqlalchemy import JSON, DateTime, Insert, Integer, String, Table, bindparam, delete, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlalchemy.orm import Mapped, mapped_column
from sqlalchemy.sql.base import ReadOnlyColumnCollection

from dialogue.state import TurnState
from gateway.storage.runs import RunStore
from graph import GraphEngine, GraphRuntimeError, SessionNotFoundError
from shared.clock import utcnow
from shared.db import Base

#: A message as the history hash sees it: role (``developer`` read as ``system``) and its text.
Utterance = tuple[str, str]
_ROLES = {"system": "system", "developer": "system", "user": "user", "assistant": "assistant"}


class ConversationPointRow(Base):
    __tablename__ = "conversation_points"

    #: ``conv-<sha256>`` for a chat history, the response id for a stored Responses API response
    key: Mapped[str] = mapped_column(String(128), primary_key=True)
    session_id: Mapped[str] = mapped_column(String(128))
    version: Mapped[int] = mapped_column(Integer)
    run_id: Mapped[str] = mapped_column(String(64))
    #: the tenant whose turn it follows: only that tenant may read or continue it
    tenant: Mapped[str] = mapped_column(String(64), default="")
    #: the ``Response`` body as it was sent (Responses API points only)
    response: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


@dataclass(frozen=True)
class ConversationPoint:
    session_id: str
    version: int
    run_id: str


def utterance(role: str, text: str) -> Utterance | None:
    """The message as hashed: whitespace collapsed (clients trim and re-wrap what they show);
    ``None`` for roles that carry no conversation text (tool results) or no text.

    >>> utterance("developer", "  be\\n brief ")
    ('system', 'be brief')
    >>> utterance("tool", "{}") is None
    True
    """
    kind = _ROLES.get(role)
    words = " ".join(text.split())
    return (kind, words) if kind is not None and words else None


def following_key(tenant: str, history: Sequence[Utterance], said: Sequence[Utterance | None]) -> str:
    """The key of the history a client sends after a turn: ``history`` plus what was ``said`` in
    the turn (its message and the answer as it was sent)."""
    return conversation_key(tenant, [*history, *(u for u in said if u is not None)])


def conversation_key(tenant: str, history: Sequence[Utterance]) -> str:
    """A stable key for ``history`` within ``tenant`` (one caller's conversations).

    >>> a = conversation_key("", [("user", "oi"), ("assistant", "Olá!")])
    >>> a == conversation_key("", [("user", "oi"), ("assistant", "Olá!")]), a.startswith("conv-")
    (True, True)
    >>> a == conversation_key("other key", [("user", "oi"), ("assistant", "Olá!")])
    False
    """
    text = json.dumps([tenant, [list(u) for u in history]], ensure_ascii=False, separators=(",", ":"))
    return "conv-" + hashlib.sha256(text.encode()).hexdigest()


_points = cast(Table, ConversationPointRow.__table__)
_POINT = select(
    _points.c.session_id, _points.c.version, _points.c.run_id, _points.c.tenant, _points.c.response
).where(_points.c.key == bindparam("p_key"))
_FORGET = delete(_points).where(
    _points.c.key == bindparam("p_key"), _points.c.tenant == bindparam("p_tenant")
)


def _upsert(dialect: str) -> Insert:
    """A point inserted, or replaced whole when its key exists: one statement (a chat turn names
    its point on every turn of a conversation derived from the resent history)."""
    if dialect == "postgresql":
        on_pg = postgresql.insert(_points)
        return on_pg.on_conflict_do_update(index_elements=["key"], set_=_replaced(on_pg.excluded))
    on_sqlite = sqlite.insert(_points)
    return on_sqlite.on_conflict_do_update(index_elements=["key"], set_=_replaced(on_sqlite.excluded))


def _replaced(excluded: ReadOnlyColumnCollection[str, Any]) -> dict[str, Any]:
    return {column.name: excluded[column.name] for column in _points.c if column.name != "key"}


#: per dialect, built once (SQLAlchemy's compiled cache then reuses their SQL)
_UPSERT = {dialect: _upsert(dialect) for dialect in ("postgresql", "sqlite")}


class _Stored(NamedTuple):
    point: ConversationPoint
    response: dict[str, Any] | None


class ConversationPoints:
    """Reads and writes :class:`ConversationPointRow`; one statement per call (Core: these run
    on the turns of every chat client that names no session)."""

    def __init__(self, engine: AsyncEngine):
        self._engine = engine

    async def get(self, key: str, tenant: str) -> ConversationPoint | None:
        """The point named ``key``, if ``tenant`` created it."""
        stored = await self._row(key, tenant)
        return None if stored is None else stored.point

    async def response(self, response_id: str, tenant: str) -> dict[str, Any] | None:
        """The stored ``Response`` body named ``response_id``, if ``tenant`` created it."""
        stored = await self._row(response_id, tenant)
        return None if stored is None else stored.response

    async def put(
        self, point: ConversationPoint, tenant: str, names: Mapping[str, dict[str, Any] | None]
    ) -> None:
        """Name ``point`` by each of ``names`` (a key, with the ``Response`` body it stands for or
        ``None``), inserted or replaced in one transaction."""
        stamp = utcnow()
        rows = [
            {
                "key": key,
                "session_id": point.session_id,
                "version": point.version,
                "run_id": point.run_id,
                "tenant": tenant,
                "response": response,
                "created_at": stamp,
            }
            for key, response in names.items()
        ]
        if not rows:
            return
        async with self._engine.begin() as conn:
            await conn.execute(_UPSERT[conn.dialect.name], rows)

    async def delete(self, key: str, tenant: str) -> bool:
        """Forget the point named ``key`` if ``tenant`` created it; whether it did."""
        async with self._engine.begin() as conn:
            forgotten = await conn.execute(_FORGET, {"p_key": key, "p_tenant": tenant})
        return bool(forgotten.rowcount)

    async def _row(self, key: str, tenant: str) -> _Stored | None:
        async with self._engine.connect() as conn:
            row = (await conn.execute(_POINT, {"p_key": key})).first()
        if row is None or row.tenant != tenant:
            return None
        return _Stored(ConversationPoint(row.session_id, row.version, row.run_id), row.response)


async def point_after(
    engine: GraphEngine[TurnState], session_id: str, run_id: str
) -> ConversationPoint | None:
    """Where the session stands after the turn ``run_id`` (``None`` if another turn already
    followed it, which then names its own point)."""
    try:
        head = await engine.get_session(session_id)
    except SessionNotFoundError:
        return None
    if head.state.turn.run_id != run_id:
        return None
    return ConversationPoint(session_id, head.session.version, run_id)


async def session_at(
    point: ConversationPoint,
    engine: GraphEngine[TurnState],
    store: RunStore,
    *,
    tenant: str,
    new_session_id: str,
) -> str | None:
    """The session the next message after ``point`` runs on: the point's own session while it
    stands there, else a fork of it at the point (named ``new_session_id``); ``None`` when the
    point's state is gone (the session was reset or deleted)."""
    try:
        head = await engine.get_session(point.session_id)
    except SessionNotFoundError:
        return None
    if head.session.version == point.version:
        return point.session_id if head.state.turn.run_id == point.run_id else None
    if head.session.version < point.version:
        return None
    try:
        then = await engine.get_version(point.session_id, point.version)
        if then.turn.run_id != point.run_id:
            return None
        forked = await engine.fork(point.session_id, point.version, new_session_id)
    except (SessionNotFoundError, GraphRuntimeError):
        return None
    # the fork is the point's tenant's, as its session is (a point is only found by its tenant)
    await store.ensure_session(forked.session_id, tenant=tenant, forked_from=point.session_id)
    return forked.session_id


async def session_for_history(
    points: ConversationPoints,
    engine: GraphEngine[TurnState],
    store: RunStore,
    *,
    tenant: str,
    history: Sequence[Utterance],
    new_session_id: str,
) -> str | None:
    """The session a client's resent ``history`` continues (a fork when it diverged from the
    session), or ``None``: no earlier turn (a first message starts a new session) or a history
    this gateway never answered."""
    if not any(role == "user" for role, _ in history):
        return None
    point = await points.get(conversation_key(tenant, history), tenant)
    if point is None:
        return None
    return await session_at(point, engine, store, tenant=tenant, new_session_id=new_session_id)
