"""The database's readiness is a write, not a read: a full disk or a read-only database answers
``SELECT 1`` and refuses every turn's commit. ``/ready`` rewrites one row's timestamp
(:func:`write_probe`), a change of bytes the database must store."""

from __future__ import annotations

from datetime import datetime
from typing import cast

from sqlalchemy import DateTime, String, Table, bindparam, insert, update
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlalchemy.orm import Mapped, mapped_column

from shared.clock import utcnow
from shared.db import Base

#: The one row every probe rewrites (its migration inserts it).
PROBE_ID = "ready"


class WriteProbeRow(Base):
    __tablename__ = "write_probe"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    checked_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


_probe = cast(Table, WriteProbeRow.__table__)
_TOUCH = (
    update(_probe)
    .where(_probe.c.id == PROBE_ID)
    .values(checked_at=bindparam("p_now", type_=DateTime(timezone=True)))
)


async def write_probe(engine: AsyncEngine) -> None:
    """Raise unless the database stores a write now."""
    now = utcnow()
    async with engine.begin() as conn:
        if (await conn.execute(_TOUCH, {"p_now": now})).rowcount == 0:  # tables made without migrations
            await conn.execute(insert(_probe).values(id=PROBE_ID, checked_at=now))
