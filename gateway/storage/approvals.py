"""Approvals waiting for a yes, as the tenant's approvers see them (the ``approvals`` table).

The plan that waits stays in the session's graph state (its pending question); a row here names
it for people other than the session's owner, with its deadline. Rows are written in the
transaction of the turn that asks or answers (:meth:`ApprovalStore.turn_writes`), so the row and
the graph state never disagree. Every read an approver makes is scoped to a tenant here: another
tenant's approval is answered exactly as a missing one.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Literal, cast

from pydantic import BaseModel, ConfigDict
from sqlalchemy import Row, Table, and_, insert, or_, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine

from gateway.storage.tables import ApprovalRow

_approvals = cast(Table, ApprovalRow.__table__)

ApprovalStatus = Literal["pending", "approved", "rejected", "expired", "superseded"]
PENDING: ApprovalStatus = "pending"
#: A write on the turn's connection, in the transaction of the graph's pause (``graph.ExtraWrite``).
TurnWrite = Callable[[Connection], None]


class ApprovalStep(BaseModel):
    """One step that waits: what an approver needs to know to decide."""

    model_config = ConfigDict(frozen=True)

    step: int
    domain: str
    capability: str


class StoredApproval(BaseModel):
    """An approval as stored (and as ``/v1/approvals`` answers it)."""

    model_config = ConfigDict(frozen=True)

    id: str
    tenant: str
    session_id: str
    #: The run that asked.
    run_id: str
    status: ApprovalStatus
    question: str
    language: str
    channel: str
    steps: list[ApprovalStep]
    created_at: datetime
    expires_at: datetime | None = None
    remind_at: datetime | None = None
    reminded_at: datetime | None = None
    decided_at: datetime | None = None
    decided_by: str | None = None
    decision_run_id: str | None = None

    def expired_at(self, now: datetime) -> bool:
        """Past its deadline at ``now`` (whether or not the expiry was recorded yet)."""
        return self.status == "expired" or (self.expires_at is not None and self.expires_at <= now)


def _stored(row: Row[tuple[object, ...]]) -> StoredApproval:
    return StoredApproval.model_validate(row._asdict())


class ApprovalStore:
    def __init__(self, engine: AsyncEngine):
        self._engine = engine

    async def pending(self, tenant: str, now: datetime, *, limit: int = 100) -> list[StoredApproval]:
        """The tenant's approvals still waiting at ``now``, oldest first."""
        query = (
            select(_approvals)
            .where(
                _approvals.c.tenant == tenant,
                _approvals.c.status == PENDING,
                or_(_approvals.c.expires_at.is_(None), _approvals.c.expires_at > now),
            )
            .order_by(_approvals.c.created_at, _approvals.c.id)
            .limit(limit)
        )
        async with self._engine.connect() as conn:
            return [_stored(row) for row in (await conn.execute(query)).all()]

    async def get(self, approval_id: str, tenant: str) -> StoredApproval | None:
        """``approval_id`` if it is ``tenant``'s (``None`` for a missing one or another tenant's)."""
        query = select(_approvals).where(_approvals.c.id == approval_id, _approvals.c.tenant == tenant)
        async with self._engine.connect() as conn:
            row = (await conn.execute(query)).first()
        return _stored(row) if row is not None else None

    async def pending_for_session(self, session_id: str) -> StoredApproval | None:
        """The approval waiting in ``session_id`` (a session waits for one question at a time).
        Read by the session's own turn, under its lock: the session's owner was checked."""
        query = (
            select(_approvals)
            .where(_approvals.c.session_id == session_id, _approvals.c.status == PENDING)
            .order_by(_approvals.c.created_at.desc())
            .limit(1)
        )
        async with self._engine.connect() as conn:
            row = (await conn.execute(query)).first()
        return _stored(row) if row is not None else None

    async def due(self, now: datetime, *, limit: int = 100) -> list[StoredApproval]:
        """Pending approvals past their deadline at ``now`` (every tenant's: the expiry's own
        scan), oldest deadline first."""
        query = (
            select(_approvals)
            .where(
                _approvals.c.status == PENDING,
                _approvals.c.expires_at.is_not(None),
                _approvals.c.expires_at <= now,
            )
            .order_by(_approvals.c.expires_at)
            .limit(limit)
        )
        async with self._engine.connect() as conn:
            return [_stored(row) for row in (await conn.execute(query)).all()]

    async def waiting_with_timers(self, *, limit: int) -> list[StoredApproval]:
        """Pending approvals with a reminder or a deadline (every tenant's: their workflows'
        start-up scan), the soonest deadline first."""
        query = (
            select(_approvals)
            .where(
                _approvals.c.status == PENDING,
                or_(_approvals.c.expires_at.is_not(None), _approvals.c.remind_at.is_not(None)),
            )
            .order_by(_approvals.c.expires_at, _approvals.c.created_at)
            .limit(limit)
        )
        async with self._engine.connect() as conn:
            return [_stored(row) for row in (await conn.execute(query)).all()]

    async def mark_reminded(self, approval_id: str, now: datetime) -> bool:
        """Record that the reminder went out (once: ``False`` if it already had, or the approval
        is no longer pending)."""
        statement = (
            update(_approvals)
            .where(
                _approvals.c.id == approval_id,
                _approvals.c.status == PENDING,
                _approvals.c.reminded_at.is_(None),
            )
            .values(reminded_at=now)
        )
        async with self._engine.begin() as conn:
            return (await conn.execute(statement)).rowcount == 1

    async def settle(
        self, approval_id: str, status: ApprovalStatus, *, by: str, now: datetime, run_id: str | None = None
    ) -> bool:
        """Settle a pending approval outside a turn (``False`` if it was no longer pending)."""
        statement = (
            update(_approvals)
            .where(_approvals.c.id == approval_id, _approvals.c.status == PENDING)
            .values(status=status, decided_at=now, decided_by=by, decision_run_id=run_id)
        )
        async with self._engine.begin() as conn:
            return (await conn.execute(statement)).rowcount == 1

    @staticmethod
    def asked_write(approval: StoredApproval) -> TurnWrite:
        """Store a new pending approval (in the transaction of the turn that asked)."""

        def write(conn: Connection) -> None:
            values = approval.model_dump()
            values["steps"] = [step.model_dump() for step in approval.steps]
            conn.execute(insert(_approvals).values(**values))

        return write

    @staticmethod
    def superseded_in_session_write(session_id: str, now: datetime, run_id: str) -> TurnWrite:
        """Settle whatever still waits in ``session_id`` as superseded: its turn asked a new
        question (a session waits for one approval at a time)."""
        statement = (
            update(_approvals)
            .where(_approvals.c.session_id == session_id, _approvals.c.status == PENDING)
            .values(status="superseded", decided_at=now, decided_by="owner", decision_run_id=run_id)
        )

        def write(conn: Connection) -> None:
            conn.execute(statement)

        return write

    @staticmethod
    def decided_write(
        approval_id: str, status: ApprovalStatus, *, by: str, run_id: str, now: datetime
    ) -> TurnWrite:
        """Settle a pending approval (in the transaction of the turn that decided it); an
        approval already settled keeps its first decision."""
        statement = (
            update(_approvals)
            .where(and_(_approvals.c.id == approval_id, _approvals.c.status == PENDING))
            .values(status=status, decided_at=now, decided_by=by, decision_run_id=run_id)
        )

        def write(conn: Connection) -> None:
            conn.execute(statement)

        return write
