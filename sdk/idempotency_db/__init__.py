"""Where the SDK's idempotency keys live: one contract, one backend per database kind, chosen
once from the store's URL (:func:`key_database`).

The statements are the store's own (:mod:`sdk.idempotency`); a backend only runs them, each
write in a transaction of its own, and reports the driver's errors as SQLAlchemy raises them
(``IntegrityError`` for a key already claimed).
"""

from __future__ import annotations

from typing import Protocol

from sqlalchemy import MetaData, RowMapping
from sqlalchemy.sql import Executable

from shared.db import normalise_url


class KeyDatabase(Protocol):
    async def open(self, metadata: MetaData) -> None:
        """Connect and create the store's tables when they are missing."""
        ...

    async def write(self, statement: Executable) -> int:
        """Run ``statement`` in a transaction of its own and commit; the rows it matched."""
        ...

    async def read_one(self, statement: Executable) -> RowMapping | None:
        """The first row ``statement`` selects, or None."""
        ...

    async def close(self) -> None: ...


def key_database(url: str) -> KeyDatabase:
    """SQLite (a file, or memory for ``sqlite://``) on a thread of its own; any other URL
    (PostgreSQL) through SQLAlchemy's async engine."""
    if normalise_url(url).startswith("sqlite"):
        from sdk.idempotency_db.sqlite import SqliteKeyDatabase

        return SqliteKeyDatabase(url)
    from sdk.idempotency_db.async_sql import AsyncKeyDatabase

    return AsyncKeyDatabase(url)
