"""Standing requests kept in the gateway's database: schedules and watches, and their firings.

A schedule re-runs a request (``request_text``, as a turn of its owner's session) at each tick of
a recurrence read in the person's time zone; a watch runs a request every ``interval_seconds``
and fires when a JMESPath condition on its result becomes true. Every read and write is scoped to
a tenant: another tenant's rows are not found, so they cannot be seen, paused or cancelled.

A firing is one row per (request, tick), unique: the gateway that inserts it runs the tick, any
other gateway that sees the same tick finds the row taken and does nothing.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Literal, Self

from pydantic import BaseModel, ConfigDict, Field
from pydantic_settings import SettingsConfigDict
from sqlalchemy import (
    Boolean,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    delete,
    func,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession
from sqlalchemy.orm import Mapped, mapped_column
from sqlalchemy.sql.elements import ColumnElement

from shared.clock import utcnow
from shared.db import Base, UtcDateTime, session_factory, unit_of_work
from shared.settings import ServiceSettings

StandingKind = Literal["schedule", "watch"]
#: ``proposed``: read from a message and told back, waiting for the person's yes (one per session;
#: never fires, never listed by the API).
StandingStatus = Literal["proposed", "active", "paused", "cancelled"]
FiringStatus = Literal["started", "succeeded", "failed", "quiet", "skipped"]


class StandingSettings(ServiceSettings):
    """Limits on standing requests, per tenant (``SCHEDULES_MAX_PER_TENANT``...)."""

    model_config = SettingsConfigDict(env_prefix="SCHEDULES_", env_file=".env", extra="ignore")

    #: Active and paused standing requests a tenant may hold at once.
    max_per_tenant: int = Field(default=20, ge=1)
    #: The shortest time between two ticks of a schedule, or two polls of a watch.
    min_interval_s: int = Field(default=300, ge=1)
    #: Seconds between two looks for due ticks (the engine's ticker: one look for all gateways).
    tick_s: int = Field(default=10, ge=1, le=60)
    #: A schedule's tick found later than this (every gateway was down) is recorded as skipped.
    max_late_s: int = Field(default=3600, ge=0)
    #: Off: this gateway never fires standing requests (another one does).
    runner_enabled: bool = True


class StandingRequestRow(Base):
    """A schedule (a request re-run at each tick of a recurrence) or a watch (a request polled at
    an interval, firing when its condition becomes true); see ``gateway/standing/``."""

    __tablename__ = "standing_requests"
    #: The ticker reads active rows whose next fire time has come, soonest first.
    __table_args__ = (Index("ix_standing_requests_status_next_fire_at", "status", "next_fire_at"),)

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    tenant: Mapped[str] = mapped_column(String(64), index=True)
    kind: Mapped[str] = mapped_column(String(16))
    session_id: Mapped[str] = mapped_column(String(128))
    channel: Mapped[str] = mapped_column(String(32), default="rest")
    #: Where a firing's answer goes besides the session ("telegram"), empty for the session only.
    deliver_to: Mapped[str] = mapped_column(String(32), default="")
    label: Mapped[str] = mapped_column(String(256))
    request_text: Mapped[str] = mapped_column(Text)
    #: Schedules: an RFC 5545 RRULE read in ``timezone`` wall-clock time.
    recurrence: Mapped[str | None] = mapped_column(String(512), nullable=True)
    #: Watches: seconds between polls.
    interval_seconds: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: Watches: a JMESPath expression over the polled result, true when the watch should fire.
    condition: Mapped[str | None] = mapped_column(Text, nullable=True)
    #: Watches: the condition at the last poll, so a watch fires once per crossing.
    last_condition: Mapped[bool | None] = mapped_column(Boolean, nullable=True)
    timezone: Mapped[str] = mapped_column(String(64))
    language: Mapped[str] = mapped_column(String(8), default="en")
    status: Mapped[str] = mapped_column(String(16))
    next_fire_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime(), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UtcDateTime(), default=utcnow, onupdate=utcnow)


class StandingFiringRow(Base):
    """One tick of a standing request: the run it started and its result. The unique
    (standing_id, tick) pair is what keeps a tick from running twice when several gateways see it."""

    __tablename__ = "standing_firings"
    __table_args__ = (UniqueConstraint("standing_id", "tick", name="uq_standing_firings_standing_id_tick"),)

    id: Mapped[str] = mapped_column(String(128), primary_key=True)
    standing_id: Mapped[str] = mapped_column(
        String(64), ForeignKey("standing_requests.id", ondelete="CASCADE"), index=True
    )
    tenant: Mapped[str] = mapped_column(String(64), index=True)
    tick: Mapped[datetime] = mapped_column(UtcDateTime())
    status: Mapped[str] = mapped_column(String(16))
    run_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    condition_met: Mapped[bool | None] = mapped_column(Boolean, nullable=True)
    result: Mapped[str] = mapped_column(Text, default="")
    gateway_id: Mapped[str] = mapped_column(String(128), default="")
    created_at: Mapped[datetime] = mapped_column(UtcDateTime(), default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)


class _OfRow(BaseModel):
    """A model read from a row of the same fields."""

    model_config = ConfigDict(from_attributes=True)

    @classmethod
    def of(cls, row: Base) -> Self:
        return cls.model_validate(row)


class StandingRequest(_OfRow):
    """A standing request as the API returns it."""

    id: str
    kind: StandingKind
    tenant: str
    session_id: str
    channel: str
    deliver_to: str
    label: str
    request_text: str
    recurrence: str | None
    interval_seconds: int | None
    condition: str | None
    last_condition: bool | None
    timezone: str
    language: str
    status: StandingStatus
    next_fire_at: datetime | None
    created_at: datetime
    updated_at: datetime


class Firing(_OfRow):
    """One tick of a standing request as the API returns it."""

    id: str
    standing_id: str
    tick: datetime
    status: FiringStatus
    run_id: str | None
    condition_met: bool | None
    result: str
    gateway_id: str
    created_at: datetime
    finished_at: datetime | None


class NewStanding(BaseModel):
    """What a standing request is made of (validated by the caller: recurrence, condition)."""

    kind: StandingKind
    session_id: str
    channel: str = "rest"
    deliver_to: str = ""
    label: str
    request_text: str
    recurrence: str | None = None
    interval_seconds: int | None = None
    condition: str | None = None
    timezone: str
    language: str = "en"
    next_fire_at: datetime


class LimitReached(Exception):
    """The tenant already holds as many standing requests as allowed."""


def firing_id(standing_id: str, tick: datetime) -> str:
    """The one id of a request's tick, the same on every gateway.

    >>> from datetime import UTC
    >>> firing_id("st_1", datetime(2026, 3, 9, 13, 0, tzinfo=UTC))
    'st_1@20260309T130000Z'
    """
    return f"{standing_id}@{tick.astimezone(UTC):%Y%m%dT%H%M%SZ}"


def _new_row(tenant: str, new: NewStanding, status: StandingStatus) -> StandingRequestRow:
    return StandingRequestRow(
        id=f"st_{uuid.uuid4().hex[:20]}", tenant=tenant, status=status, **new.model_dump()
    )


def _proposal_of(tenant: str, session_id: str) -> tuple[ColumnElement[bool], ...]:
    """Where a session's proposal is (one at most)."""
    return (
        StandingRequestRow.tenant == tenant,
        StandingRequestRow.session_id == session_id,
        StandingRequestRow.status == "proposed",
    )


class StandingStore:
    """Reads and writes standing requests and firings; one short transaction per call."""

    def __init__(self, engine: AsyncEngine):
        self._sessions = session_factory(engine)

    async def create(self, tenant: str, new: NewStanding, *, max_per_tenant: int) -> StandingRequest:
        row = _new_row(tenant, new, "active")
        async with unit_of_work(self._sessions) as session:
            if await self._held(session, tenant) >= max_per_tenant:
                raise LimitReached
            session.add(row)
        return StandingRequest.of(row)

    async def propose(self, tenant: str, session_id: str, new: NewStanding | None) -> None:
        """Replace the session's proposal with ``new`` (None: drop it)."""
        async with unit_of_work(self._sessions) as session:
            await session.execute(delete(StandingRequestRow).where(*_proposal_of(tenant, session_id)))
            if new is not None:
                session.add(_new_row(tenant, new, "proposed"))

    async def proposed(self, tenant: str, session_id: str) -> StandingRequest | None:
        query = select(StandingRequestRow).where(*_proposal_of(tenant, session_id))
        async with self._sessions() as session:
            row = (await session.scalars(query.limit(1))).first()
        return None if row is None else StandingRequest.of(row)

    async def activate(
        self, tenant: str, standing_id: str, next_fire_at: datetime, *, max_per_tenant: int
    ) -> StandingRequest | None:
        """Make a proposal active (the person said yes); None if it is gone."""
        async with unit_of_work(self._sessions) as session:
            row = await session.get(StandingRequestRow, standing_id, with_for_update=True)
            if row is None or row.tenant != tenant or row.status != "proposed":
                return None
            if await self._held(session, tenant) >= max_per_tenant:
                raise LimitReached
            row.status = "active"
            row.next_fire_at = next_fire_at
            row.updated_at = utcnow()
        return StandingRequest.of(row)

    async def held(self, tenant: str) -> int:
        async with self._sessions() as session:
            return await self._held(session, tenant)

    @staticmethod
    async def _held(session: AsyncSession, tenant: str) -> int:
        held = await session.scalar(
            select(func.count())
            .select_from(StandingRequestRow)
            .where(StandingRequestRow.tenant == tenant, StandingRequestRow.status.in_(("active", "paused")))
        )
        return held or 0

    async def all(self, tenant: str, *, include_cancelled: bool = False) -> list[StandingRequest]:
        query = select(StandingRequestRow).where(
            StandingRequestRow.tenant == tenant, StandingRequestRow.status != "proposed"
        )
        if not include_cancelled:
            query = query.where(StandingRequestRow.status != "cancelled")
        async with self._sessions() as session:
            rows = (await session.scalars(query.order_by(StandingRequestRow.created_at))).all()
        return [StandingRequest.of(r) for r in rows]

    async def get(self, tenant: str, standing_id: str) -> StandingRequest | None:
        async with self._sessions() as session:
            row = await session.get(StandingRequestRow, standing_id)
        if row is None or row.tenant != tenant or row.status == "proposed":
            return None
        return StandingRequest.of(row)

    async def set_status(
        self, tenant: str, standing_id: str, status: StandingStatus, *, next_fire_at: datetime | None = None
    ) -> StandingRequest | None:
        """Pause, resume (with the next tick from now) or cancel; None if the tenant has no such
        request or it is cancelled (a cancelled request stays cancelled)."""
        async with unit_of_work(self._sessions) as session:
            row = await session.get(StandingRequestRow, standing_id, with_for_update=True)
            if row is None or row.tenant != tenant or row.status in ("cancelled", "proposed"):
                return None
            row.status = status
            if next_fire_at is not None:
                row.next_fire_at = next_fire_at
            if status == "active":
                row.last_condition = None
            row.updated_at = utcnow()
        return StandingRequest.of(row)

    async def due(self, now: datetime, *, limit: int = 100) -> list[StandingRequest]:
        """Active requests whose next tick has come, soonest first (every tenant's)."""
        query = (
            select(StandingRequestRow)
            .where(StandingRequestRow.status == "active", StandingRequestRow.next_fire_at <= now)
            .order_by(StandingRequestRow.next_fire_at)
            .limit(limit)
        )
        async with self._sessions() as session:
            rows = (await session.scalars(query)).all()
        return [StandingRequest.of(r) for r in rows]

    async def claim(
        self, request: StandingRequest, tick: datetime, next_fire_at: datetime | None, gateway_id: str
    ) -> Firing | None:
        """Record ``tick`` as started and move the request's next tick on, in one transaction;
        None when another gateway recorded this tick first (nothing to do here)."""
        row = StandingFiringRow(
            id=firing_id(request.id, tick),
            standing_id=request.id,
            tenant=request.tenant,
            tick=tick,
            status="started",
            result="",
            gateway_id=gateway_id,
            created_at=utcnow(),
        )
        try:
            async with unit_of_work(self._sessions) as session:
                session.add(row)
                await session.flush()
                await session.execute(
                    update(StandingRequestRow)
                    .where(
                        StandingRequestRow.id == request.id,
                        StandingRequestRow.next_fire_at == request.next_fire_at,
                    )
                    .values(next_fire_at=next_fire_at, updated_at=utcnow())
                )
        except IntegrityError:
            return None
        return Firing.of(row)

    async def advance(
        self, standing_id: str, expected: datetime | None, next_fire_at: datetime | None
    ) -> None:
        """Move a request's next tick on without firing (a tick skipped)."""
        async with unit_of_work(self._sessions) as session:
            await session.execute(
                update(StandingRequestRow)
                .where(StandingRequestRow.id == standing_id, StandingRequestRow.next_fire_at == expected)
                .values(next_fire_at=next_fire_at, updated_at=utcnow())
            )

    async def slow_down(self, standing_id: str, interval_seconds: int, next_fire_at: datetime) -> None:
        """Raise a watch's interval to the minimum the capability it polls declares (its manifest's
        ``metadata.watch.min_interval_s``), the next poll moved to match; never lowers it."""
        async with unit_of_work(self._sessions) as session:
            await session.execute(
                update(StandingRequestRow)
                .where(
                    StandingRequestRow.id == standing_id,
                    StandingRequestRow.interval_seconds < interval_seconds,
                )
                .values(interval_seconds=interval_seconds, next_fire_at=next_fire_at, updated_at=utcnow())
            )

    async def finish(
        self,
        firing: Firing,
        status: FiringStatus,
        *,
        run_id: str | None = None,
        result: str = "",
        condition_met: bool | None = None,
    ) -> Firing:
        """Record how a firing ended; a watch's condition is kept for the next poll."""
        async with unit_of_work(self._sessions) as session:
            row = await session.get(StandingFiringRow, firing.id)
            if row is None:
                return firing
            row.status = status
            row.run_id = run_id
            row.result = result[:2000]
            row.condition_met = condition_met
            row.finished_at = utcnow()
            if condition_met is not None:
                await session.execute(
                    update(StandingRequestRow)
                    .where(StandingRequestRow.id == firing.standing_id)
                    .values(last_condition=condition_met)
                )
        return Firing.of(row)

    async def firing(self, fid: str) -> Firing | None:
        async with self._sessions() as session:
            row = await session.get(StandingFiringRow, fid)
        return None if row is None else Firing.of(row)

    async def firings(self, tenant: str, standing_id: str | None = None, *, limit: int = 50) -> list[Firing]:
        query = select(StandingFiringRow).where(StandingFiringRow.tenant == tenant)
        if standing_id is not None:
            query = query.where(StandingFiringRow.standing_id == standing_id)
        async with self._sessions() as session:
            rows = (
                await session.scalars(query.order_by(StandingFiringRow.created_at.desc()).limit(limit))
            ).all()
        return [Firing.of(r) for r in rows]
