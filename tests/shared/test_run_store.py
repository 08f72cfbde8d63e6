"""The gateway's run store on a migrated database: the same tests on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime

import pytest
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from gateway.storage.migrate import upgrade
from gateway.storage.runs import RunStore
from shared.db import create_engine
from shared.models import RunResult
from shared.status import RunStatus


@pytest.fixture
async def engine(database_url: str) -> AsyncIterator[AsyncEngine]:
    engine = create_engine(database_url)
    await upgrade(engine)  # the real migrations, not create_all
    try:
        yield engine
    finally:
        await engine.dispose()


def run_result(run_id: str, session_id: str, status: RunStatus, answer: str) -> RunResult:
    return RunResult(
        run_id=run_id,
        session_id=session_id,
        status=status,
        answer=answer,
        notes=[f"note of {run_id}"],
        created_at=datetime(2026, 1, 2, 3, 4, int(run_id[-1]), tzinfo=UTC),
    )


async def write_turn(engine: AsyncEngine, result: RunResult, *, events: int = 2) -> None:
    write = RunStore.turn_write(
        result, result.model_dump_json(), input_text="oi", channel="rest", tenant="acme", events=events
    )
    async with engine.begin() as conn:
        await conn.run_sync(write)


async def test_a_turn_creates_the_session_and_the_next_one_updates_it(engine: AsyncEngine) -> None:
    store = RunStore(engine)
    assert (await store.load_session("s")).exists is False

    first = run_result("run-1", "s", RunStatus.WAITING_INPUT, "qual?")
    await write_turn(engine, first)
    session = await store.load_session("s")
    assert (session.exists, session.status, session.turn_count, session.event_count) == (
        True,
        "waiting_input",
        1,
        2,
    )

    second = run_result("run-2", "s", RunStatus.COMPLETED, "pronto")
    await write_turn(engine, second, events=3)
    session = await store.load_session("s")
    assert (session.status, session.turn_count, session.event_count) == ("completed", 2, 5)

    # the trace, written as JSON text, reads back as the very result
    assert await store.get_run("run-2") == second
    assert await store.session_runs("s") == [first, second]
    assert await store.get_run("missing") is None
    # the session and its runs are the tenant's that wrote them, and nobody else's
    assert await store.session_owner("s") == "acme"
    assert await store.owned_run("run-2", "acme") == second
    assert await store.owned_run("run-2", "other") is None


async def test_a_failed_transaction_leaves_no_turn_behind(engine: AsyncEngine) -> None:
    store = RunStore(engine)
    result = run_result("run-1", "s", RunStatus.COMPLETED, "ok")
    await write_turn(engine, result)
    with pytest.raises(IntegrityError):  # the same run id again
        await write_turn(engine, result)
    session = await store.load_session("s")
    assert (session.turn_count, session.event_count) == (1, 2)  # the session update rolled back
    assert await store.session_runs("s") == [result]


async def test_ensure_session_forks_the_channel_and_reset_keeps_the_runs(engine: AsyncEngine) -> None:
    store = RunStore(engine)
    write = RunStore.turn_write(
        run_result("run-1", "parent", RunStatus.COMPLETED, "ok"),
        "{}",
        input_text="oi",
        channel="whatsapp",
        tenant="acme",
        events=2,
    )
    async with engine.begin() as conn:
        await conn.run_sync(write)

    await store.ensure_session("child", tenant="acme", forked_from="parent")
    # a second call changes nothing
    await store.ensure_session("child", tenant="other", forked_from="parent")
    assert await store.session_owner("child") == "acme"
    child = await store.load_session("child")
    assert (child.exists, child.status, child.turn_count, child.event_count) == (True, "waiting_input", 0, 2)

    await store.reset_session("parent")
    parent = await store.load_session("parent")
    assert (parent.status, parent.turn_count, parent.event_count) == ("reset", 1, 2)
    await store.reset_session("nobody")  # nothing to reset: no error, no row
    assert (await store.load_session("nobody")).exists is False
