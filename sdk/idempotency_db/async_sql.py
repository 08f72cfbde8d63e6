"""The idempotency keys in a database reached through SQLAlchemy's async engine (PostgreSQL)."""

from __future__ import annotations

from sqlalchemy import MetaData, RowMapping
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlalchemy.sql import Executable

from shared.db import create_engine


class AsyncKeyDatabase:
    def __init__(self, url: str):
        self.url = url
        self._engine: AsyncEngine | None = None

    async def open(self, metadata: MetaData) -> None:
        # kept at once, so that close() disposes of it even when the CREATE fails
        self._engine = engine = create_engine(self.url)
        try:
            async with engine.begin() as conn:
                await conn.run_sync(metadata.create_all)
        except DBAPIError:
            # another process created the table between the check and the CREATE
            async with engine.begin() as conn:
                await conn.run_sync(metadata.create_all)

    async def write(self, statement: Executable) -> int:
        assert self._engine is not None, "open() first"
        async with self._engine.begin() as conn:
            return (await conn.execute(statement)).rowcount

    async def read_one(self, statement: Executable) -> RowMapping | None:
        assert self._engine is not None, "open() first"
        async with self._engine.connect() as conn:
            return (await conn.execute(statement)).mappings().first()

    async def close(self) -> None:
        if self._engine is not None:
            await self._engine.dispose()
            self._engine = None
