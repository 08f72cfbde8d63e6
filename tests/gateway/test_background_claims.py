"""Background run claims against the real Redis (``redis_url``; a failure under ``CI=true`` when it
is missing): a live holder keeps its runs, a dead one's lapse and exactly one survivor takes each,
and a stale holder cannot free or keep the claim another gateway took."""

from __future__ import annotations

import asyncio
import time
import uuid

import pytest
from redis.asyncio import Redis

from gateway.coordination.background_claims import RedisClaims

pytestmark = pytest.mark.redis

LEASE_S = 1.0


@pytest.fixture
def prefix() -> str:
    """Keys of this test only (other suites share the Redis database)."""
    return f"test:background:{uuid.uuid4().hex[:8]}:"


def gateway_claims(redis: Redis, prefix: str) -> RedisClaims:
    """One gateway's claims: the same Redis and key space, a holder id of its own."""
    return RedisClaims(redis, lease_s=LEASE_S, prefix=prefix)


async def lapsed(redis: Redis, key: str) -> None:
    """Until ``key`` is gone (its holder stopped renewing), within a few leases."""
    deadline = time.monotonic() + 20 * LEASE_S
    while await redis.exists(key):
        assert time.monotonic() < deadline, f"{key} never lapsed"
        await asyncio.sleep(LEASE_S / 10)


async def test_a_dead_holders_run_is_taken_by_exactly_one_survivor(redis: Redis, prefix: str) -> None:
    dead = gateway_claims(redis, prefix)
    assert await dead.claim("r1", 1)  # claimed, then never renewed: its gateway died
    first, second = gateway_claims(redis, prefix), gateway_claims(redis, prefix)
    assert await first.take_lapsed(10) == []  # still inside the lease
    await lapsed(redis, dead.key("r1"))

    taken = await asyncio.gather(first.take_lapsed(10), second.take_lapsed(10))

    assert sorted(taken, key=len) == [[], ["r1"]]
    winner = first if taken[0] else second
    assert winner.holds("r1")
    assert await redis.get(winner.key("r1")) == winner.holder.encode()


async def test_a_live_holder_keeps_its_runs(redis: Redis, prefix: str) -> None:
    live = gateway_claims(redis, prefix)
    live.start()
    try:
        assert await live.claim("r1", 1)
        other = gateway_claims(redis, prefix)
        # until the claim has been renewed past three leases, nobody could take it
        deadline = time.monotonic() + 3 * LEASE_S
        while time.monotonic() < deadline:
            assert await other.take_lapsed(10) == []
            await asyncio.sleep(LEASE_S / 3)
        await live.release("r1")  # its row is final: dropped from the index too
        assert await redis.zrange(live.index_key, 0, -1) == []
        assert await other.take_lapsed(10) == []
    finally:
        await live.stop()


async def test_a_stale_holder_neither_frees_nor_keeps_the_new_holders_claim(
    redis: Redis, prefix: str
) -> None:
    stale = gateway_claims(redis, prefix)
    assert await stale.claim("r1", 1)
    await lapsed(redis, stale.key("r1"))
    survivor = gateway_claims(redis, prefix)
    assert await survivor.take_lapsed(10) == ["r1"]

    stale.start()  # it wakes up: its next renewal finds the run another's
    try:
        deadline = time.monotonic() + 20 * LEASE_S
        while stale.holds("r1"):
            assert time.monotonic() < deadline, "the stale holder never noticed"
            await asyncio.sleep(LEASE_S / 10)
    finally:
        await stale.stop()
    await stale.give_back("r1")
    assert await redis.get(survivor.key("r1")) == survivor.holder.encode()
