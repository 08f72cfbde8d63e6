"""Runtime domain registrations kept in the gateway's database, so they survive a restart.

One row per domain registered through ``POST /v1/domains``: its name, base URL, when and by whom
(the admin client's address; never a token) and, for an MCP server, what the admin added to its
tools (description, goals: :class:`orchestrator.mcp_domain.McpRegistration` as JSON), so a
restarted gateway, or another one, builds the same manifest. The bootstrap file is read first
at start, then these rows, so a stored registration overrides a bootstrap entry of the same name.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel
from sqlalchemy import JSON, DateTime, String, delete, select
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlalchemy.orm import Mapped, mapped_column

from shared.clock import utcnow
from shared.db import Base, session_factory, unit_of_work
from shared.manifest import Goal


class DomainRegistrationRow(Base):
    __tablename__ = "domain_registrations"

    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    base_url: Mapped[str] = mapped_column(String(2048))
    registered_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    registered_by: Mapped[str] = mapped_column(String(256), default="")
    #: MCP servers only: the description and goals given at registration (None: none given)
    mcp_registration: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    #: The goals of the manifest the admin accepted (None: stored before they were kept)
    accepted_goals: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON, nullable=True)


class StoredRegistration(BaseModel):
    name: str
    base_url: str
    registered_at: datetime
    registered_by: str = ""
    mcp_registration: dict[str, Any] | None = None
    accepted_goals: list[Goal] | None = None


class RegistrationStore:
    """Reads and writes :class:`DomainRegistrationRow`; one short transaction per call."""

    def __init__(self, engine: AsyncEngine):
        self._sessions = session_factory(engine)

    async def save(
        self,
        name: str,
        base_url: str,
        registered_by: str = "",
        mcp_registration: dict[str, Any] | None = None,
        accepted_goals: list[Goal] | None = None,
    ) -> None:
        """Insert or replace the registration of ``name``."""
        async with unit_of_work(self._sessions) as session:
            await session.merge(
                DomainRegistrationRow(
                    name=name,
                    base_url=base_url,
                    registered_at=utcnow(),
                    registered_by=registered_by,
                    mcp_registration=mcp_registration,
                    accepted_goals=None
                    if accepted_goals is None
                    else [g.model_dump(mode="json", exclude_none=True) for g in accepted_goals],
                )
            )

    async def delete(self, name: str) -> None:
        async with unit_of_work(self._sessions) as session:
            await session.execute(delete(DomainRegistrationRow).where(DomainRegistrationRow.name == name))

    async def all(self) -> list[StoredRegistration]:
        async with self._sessions() as session:
            rows = (
                await session.scalars(select(DomainRegistrationRow).order_by(DomainRegistrationRow.name))
            ).all()
        return [
            StoredRegistration(
                name=r.name,
                base_url=r.base_url,
                registered_at=r.registered_at,
                registered_by=r.registered_by,
                mcp_registration=r.mcp_registration,
                accepted_goals=None
                if r.accepted_goals is None
                else [Goal.model_validate(g) for g in r.accepted_goals],
            )
            for r in rows
        ]
