"""One liveness lease per gateway process, for the durable engine's takeover
(:mod:`gateway.durable.liveness`): a row per executor, its lease renewed while the process lives.

The leases live in the gateway's database, beside the engine's own tables, not in Redis: a Redis
restarted empty must not make live gateways look dead. Times are epoch milliseconds (one integer
compares the same on SQLite and PostgreSQL)."""

from __future__ import annotations

from typing import cast

from sqlalchemy import BigInteger, String, Table
from sqlalchemy.orm import Mapped, mapped_column

from shared.db import Base


class GatewayLivenessRow(Base):
    __tablename__ = "gateway_liveness"

    #: the durable engine's executor id of one gateway process
    executor_id: Mapped[str] = mapped_column(String(128), primary_key=True)
    application_version: Mapped[str] = mapped_column(String(64))
    #: the lease: past this, the process is taken for dead and its workflows are taken over
    expires_at_ms: Mapped[int] = mapped_column(BigInteger, index=True)
    #: the executor taking over this (dead) one's workflows, while it does
    recovered_by: Mapped[str | None] = mapped_column(String(128), nullable=True)


gateway_liveness = cast(Table, GatewayLivenessRow.__table__)
