"""The gateways' liveness leases (gateway/durable/liveness.py) on a real, migrated database
(a SQLite file): a lapsed lease is won by exactly one of the survivors that race for it, a live one
by none, and a gateway restarted under its fixed executor id waits for a takeover of its old lease
to end before it holds the lease again."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncEngine

from gateway.durable.liveness import Liveness, now_ms
from gateway.storage.liveness import gateway_liveness
from tests.conftest import migrated_engines


@pytest.fixture
async def engine(tmp_path: Path) -> AsyncIterator[AsyncEngine]:
    async with migrated_engines(f"sqlite+aiosqlite:///{tmp_path / 'gateway.sqlite3'}") as (database,):
        yield database


def liveness(engine: AsyncEngine, executor_id: str, lease_s: float = 5.0) -> Liveness:
    return Liveness(engine, executor_id, "1", lease_s=lease_s, interval_s=1.0)


async def lease_of(engine: AsyncEngine, executor_id: str) -> tuple[int, str | None] | None:
    async with engine.connect() as conn:
        row = (
            await conn.execute(
                select(gateway_liveness.c.expires_at_ms, gateway_liveness.c.recovered_by).where(
                    gateway_liveness.c.executor_id == executor_id
                )
            )
        ).first()
    return None if row is None else (row[0], row[1])


async def test_a_lapsed_lease_is_won_by_one_survivor_and_a_live_one_by_none(engine: AsyncEngine) -> None:
    dead, alive = liveness(engine, "gw-dead"), liveness(engine, "gw-alive")
    await dead.take()
    await alive.take()
    survivors = [liveness(engine, f"gw-survivor-{i}") for i in range(5)]

    # both leases live: nobody may claim either
    now = now_ms()
    assert not any(await asyncio.gather(*(s._claim("gw-dead", now) for s in survivors)))

    await dead.give_up()  # as a graceful stop does (a SIGKILL lets it lapse at its term)
    now = now_ms()
    won = await asyncio.gather(*(s._claim("gw-dead", now) for s in survivors))
    assert sum(won) == 1, won
    winner = survivors[won.index(True)]
    lease = await lease_of(engine, "gw-dead")
    assert lease is not None and lease[1] == winner.executor_id and lease[0] > now
    assert not any(await asyncio.gather(*(s._claim("gw-alive", now) for s in survivors)))


async def test_a_restart_under_a_fixed_id_waits_for_the_takeover_of_its_lease(engine: AsyncEngine) -> None:
    old = liveness(engine, "gw-fixed", lease_s=1.0)
    await old.take()
    await old.give_up()
    survivor = liveness(engine, "gw-survivor")
    assert await survivor._claim("gw-fixed", now_ms())

    restarted = liveness(engine, "gw-fixed", lease_s=1.0)
    taking = asyncio.create_task(restarted.take())
    await asyncio.sleep(0.5)
    assert not taking.done()  # the survivor is still resuming the old lease's workflows
    async with engine.begin() as conn:  # the survivor's takeover ends: it deletes the row
        await conn.execute(
            gateway_liveness.delete().where(
                gateway_liveness.c.executor_id == "gw-fixed", gateway_liveness.c.recovered_by == "gw-survivor"
            )
        )
    await asyncio.wait_for(taking, 5)
    lease = await lease_of(engine, "gw-fixed")
    assert lease is not None and lease[1] is None and lease[0] > now_ms()


async def test_a_renewal_counts_the_live_gateways(engine: AsyncEngine) -> None:
    first, second, gone = liveness(engine, "gw-1"), liveness(engine, "gw-2"), liveness(engine, "gw-3")
    for gateway in (first, second, gone):
        await gateway.take()
    async with engine.begin() as conn:
        await conn.execute(
            update(gateway_liveness).where(gateway_liveness.c.executor_id == "gw-3").values(expires_at_ms=0)
        )
    await first.renew()
    assert first.live_gateways == 2


async def first_renewal(engine: AsyncEngine, executor_id: str, taken_until_ms: int) -> None:
    """Until the lease taken until ``taken_until_ms`` has been renewed (polling the database)."""
    async with asyncio.timeout(30):
        while True:
            lease = await lease_of(engine, executor_id)
            if lease is not None and lease[0] != taken_until_ms:
                return
            await asyncio.sleep(0.01)


async def test_a_gateway_stopped_as_it_becomes_ready_stops_its_lease_keeper(engine: AsyncEngine) -> None:
    """Becoming ready wakes the keeper for a recovery pass; a stop right after (a lifespan that
    starts and ends at once) must still end it. A wait that swallowed the stop's cancellation
    (``asyncio.wait_for`` on Python 3.11 when the awaited event is set at the same moment) kept
    it renewing forever, and the gateway's shutdown waited on it."""
    keeper = liveness(engine, "gw-quick")
    await keeper.take()
    taken = await lease_of(engine, "gw-quick")
    assert taken is not None
    keeper.start()
    await first_renewal(engine, "gw-quick", taken[0])  # the keeper is on its way to its wait
    keeper.recover_now()
    stopping = asyncio.ensure_future(keeper.stop())
    done, _ = await asyncio.wait({stopping}, timeout=10)
    if not done:
        await keeper.stop()  # a second cancellation ends it, so the engine can be disposed of
    assert done, "the lease keeper went on renewing after it was stopped"
