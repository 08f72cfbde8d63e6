"""Tables the gateway owns: sessions and runs (a run's steps are in its trace).

A session belongs to the tenant that created it (``tenant``); its runs are its tenant's too.

Migrations live in ``gateway/storage/migrations``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from gateway.storage.principals import ANONYMOUS_TENANT
from shared.clock import utcnow
from shared.db import Base, UtcDateTime


class SessionRow(Base):
    __tablename__ = "sessions"

    id: Mapped[str] = mapped_column(String(128), primary_key=True)
    status: Mapped[str] = mapped_column(String(32), default="pending")
    channel: Mapped[str] = mapped_column(String(32), default="rest")
    #: The tenant that created the session; it never changes (see ``RunStore.session_owner``).
    tenant: Mapped[str] = mapped_column(
        String(64), default=ANONYMOUS_TENANT, server_default=ANONYMOUS_TENANT, index=True
    )
    turn_count: Mapped[int] = mapped_column(Integer, default=0)
    event_count: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime(), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UtcDateTime(), default=utcnow, onupdate=utcnow)


class RunRow(Base):
    __tablename__ = "runs"
    #: Unfinished background runs are looked up by status, oldest first (the takeover scan), so
    #: the scan reads a few index entries instead of every run ever stored.
    __table_args__ = (Index("ix_runs_status_created_at", "status", "created_at"),)

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    session_id: Mapped[str] = mapped_column(
        String(128), ForeignKey("sessions.id", ondelete="CASCADE"), index=True
    )
    status: Mapped[str] = mapped_column(String(32))
    input_text: Mapped[str] = mapped_column(Text)
    answer: Mapped[str] = mapped_column(Text, default="")
    #: The full RunResult as the API returns it.
    trace: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime(), default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)


class ApprovalRow(Base):
    """A step that waits for a yes, as people other than the session's owner see it: the
    tenant's approvers list, approve or reject it; it may expire. The plan itself stays with the
    session's graph state (the pending question); this row is its index, status and deadline."""

    __tablename__ = "approvals"
    #: Approvers list a tenant's pending ones; the expiry scan reads pending ones by deadline.
    __table_args__ = (
        Index("ix_approvals_tenant_status", "tenant", "status"),
        Index("ix_approvals_status_expires_at", "status", "expires_at"),
    )

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    tenant: Mapped[str] = mapped_column(String(64))
    session_id: Mapped[str] = mapped_column(
        String(128), ForeignKey("sessions.id", ondelete="CASCADE"), index=True
    )
    #: The run that asked.
    run_id: Mapped[str] = mapped_column(String(64))
    #: ``pending``, then ``approved``, ``rejected``, ``expired`` or ``superseded`` (the person
    #: moved on to another request).
    status: Mapped[str] = mapped_column(String(16))
    #: The question as the person saw it, in their language.
    question: Mapped[str] = mapped_column(Text)
    language: Mapped[str] = mapped_column(String(16))
    channel: Mapped[str] = mapped_column(String(32))
    #: The plan's step ids that wait for the yes and their capabilities, for approvers.
    steps: Mapped[list[Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime(), default=utcnow)
    expires_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)
    remind_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)
    reminded_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)
    decided_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)
    #: Who decided: ``owner`` (by chat), ``key:<id>``/``tenant:<name>`` (an approver), ``expiry``.
    decided_by: Mapped[str | None] = mapped_column(String(128), nullable=True)
    #: The run that carried the decision out (or recorded the expiry).
    decision_run_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
