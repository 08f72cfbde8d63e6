"""A PostgreSQL connection dropped by the server while pooled (a restart, a failover) costs one
failed call, and the calls after it reconnect: the pool pings nothing before a checkout
(shared.db.create_engine), so a dead connection is found by its first statement, which
invalidates the whole pool."""

from __future__ import annotations

import asyncpg
import pytest
from sqlalchemy.exc import DBAPIError

from graph import Frontier, SessionRecord, SqlCheckpointer
from shared.status import RunStatus
from tests.conftest import PG_ADMIN_URL

pytestmark = pytest.mark.postgres


async def _drop_connections(database: str) -> int:
    admin = await asyncpg.connect(PG_ADMIN_URL, timeout=3)
    try:
        rows = await admin.fetch(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = $1 AND pid <> pg_backend_pid()",
            database,
        )
    finally:
        await admin.close()
    return len(rows)


async def test_a_dropped_connection_fails_one_call_and_the_next_reconnects(pg_database_url: str) -> None:
    ck = SqlCheckpointer.from_url(pg_database_url)
    try:
        await ck.create_tables()
        session = SessionRecord("s1", "g", RunStatus.WAITING_INPUT, 0, Frontier(("n",)))
        await ck.save(session, [], create=True)
        assert (await ck.head("s1")) is not None  # a pooled connection, used once

        assert await _drop_connections(pg_database_url.rsplit("/", 1)[1]) >= 1

        with pytest.raises(DBAPIError) as failed:
            await ck.head("s1")
        assert failed.value.connection_invalidated
        head = await ck.head("s1")
        assert head is not None and head.version == 0
        await ck.save(session, [], expected_version=0)  # writes go on too
    finally:
        await ck.close()
