"""Finding 8 (second half): a gateway killed while holding a session's lock froze that session
for the lock's 120 s TTL. The Redis lock is now a short lease the holder renews while its turn
runs, carrying a fencing token: a holder that stops renewing (killed) frees the session within
the lease, and a stale holder can neither release nor extend the new holder's lock.

Against the real Redis (``redis_url``; a failure under ``CI=true`` when it is missing).
"""

from __future__ import annotations

import asyncio
import signal
import sys
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import httpx
import pytest
from redis.asyncio import Redis

from gateway.coordination.locks import RedisSessionLocks
from gateway.errors import SharedStoreUnavailable
from shared.errors import Conflict
from tests.conftest import (
    ROOT,
    Process,
    exit_code,
    free_port,
    spawn,
    start_fixture_domain,
    start_gateway,
    stop_process,
    write_bootstrap,
)

pytestmark = pytest.mark.redis

LEASE_S = 0.6


@pytest.fixture
def prefix() -> str:
    """Keys of this test only (other suites share the Redis database)."""
    return f"test:lock:{uuid.uuid4().hex[:8]}:"


async def token_in(redis: Redis, key: str) -> int | None:
    """The fencing token the session's key holds (None: nobody holds it)."""
    value = await redis.get(key)
    return int(value) if value is not None else None


def gateway_locks(redis: Redis, prefix: str, *, wait_s: float) -> RedisSessionLocks:
    """One gateway's view of the locks: the same Redis, the same key space."""
    return RedisSessionLocks(redis, wait_s=wait_s, lease_s=LEASE_S, prefix=prefix)


async def test_an_abandoned_lease_frees_the_session_within_the_lease(redis: Redis, prefix: str) -> None:
    dead = gateway_locks(redis, prefix, wait_s=0)
    await dead.acquire("s1")  # taken, then never renewed: the holder died
    with pytest.raises(Conflict, match="busy"):
        await gateway_locks(redis, prefix, wait_s=0).acquire("s1")
    # waits at most three leases: the old 120 s TTL would time this out
    taken = await gateway_locks(redis, prefix, wait_s=3 * LEASE_S).acquire("s1")
    assert await token_in(redis, prefix + "s:s1") == taken.token


async def test_a_stale_holder_cannot_release_or_extend_the_new_holders_lock(
    redis: Redis, prefix: str
) -> None:
    stale = await gateway_locks(redis, prefix, wait_s=0).acquire("s1")
    current = await gateway_locks(redis, prefix, wait_s=3 * LEASE_S).acquire("s1")
    assert current.token > stale.token  # the fencing token only grows
    assert await stale.release() is False
    assert await stale.renew() is False
    assert await token_in(redis, prefix + "s:s1") == current.token
    with pytest.raises(Conflict, match="busy"):
        await gateway_locks(redis, prefix, wait_s=0).acquire("s1")
    assert await current.release() is True
    assert await redis.exists(prefix + "s:s1") == 0


@asynccontextmanager
async def turn_holding(locks: RedisSessionLocks, session_id: str) -> AsyncIterator[None]:
    """A turn holding ``session_id``'s lock while the block runs; it ends (without a 409) after."""
    inside = asyncio.Event()
    done = asyncio.Event()

    async def turn() -> None:
        async with locks.hold(session_id):
            inside.set()
            await done.wait()

    holder = asyncio.create_task(turn())
    await inside.wait()
    try:
        yield
    finally:
        done.set()
        await holder


async def test_a_running_turn_keeps_its_session_past_the_lease(redis: Redis, prefix: str) -> None:
    key = prefix + "s:s1"
    async with turn_holding(gateway_locks(redis, prefix, wait_s=0), "s1"):
        token = await redis.get(key)
        # each renewal pushes the expiry back up: four of them outlast the first lease
        renewals, last_ttl = 0, await redis.pttl(key)
        while renewals < 4:
            ttl = await redis.pttl(key)
            assert ttl > 0, "the lease expired while its turn ran"
            renewals += ttl > last_ttl
            last_ttl = ttl
            await asyncio.sleep(0.01)
        assert await redis.get(key) == token
        with pytest.raises(Conflict, match="busy"):
            await gateway_locks(redis, prefix, wait_s=0).acquire("s1")
    assert await redis.exists(key) == 0


async def test_a_late_renewal_takes_back_a_lapsed_lease_nobody_took(redis: Redis, prefix: str) -> None:
    """A gateway starved of CPU past its lease (loop lag under load) keeps its turn when no other
    holder came: the next renewal sets the key again, with the same token."""
    key = prefix + "s:s1"
    async with turn_holding(gateway_locks(redis, prefix, wait_s=0), "s1"):  # no 409 when it ends
        token = await redis.get(key)
        await redis.delete(key)  # the lease lapsed: no renewal reached Redis in time
        for _ in range(int(10 * LEASE_S / 0.01)):  # the next renewal takes it back
            if await redis.get(key) == token:
                break
            await asyncio.sleep(0.01)
        assert await redis.get(key) == token, "the lapsed lease was not taken back"
        with pytest.raises(Conflict, match="busy"):
            await gateway_locks(redis, prefix, wait_s=0).acquire("s1")
    assert await redis.exists(key) == 0


async def test_a_holder_whose_session_was_taken_over_is_stopped_with_409(redis: Redis, prefix: str) -> None:
    locks = gateway_locks(redis, prefix, wait_s=0)
    inside = asyncio.Event()

    async def turn() -> None:
        async with locks.hold("s1"):
            inside.set()
            await asyncio.Event().wait()  # a turn still running when its lease is lost

    holder = asyncio.create_task(turn())
    await inside.wait()
    # the lease lapses (a partition, a long pause) and another gateway takes the session
    await redis.delete(prefix + "s:s1")
    other = await gateway_locks(redis, prefix, wait_s=0).acquire("s1")
    with pytest.raises(Conflict, match="lost its lock"):
        await asyncio.wait_for(holder, 10 * LEASE_S)
    # the stale holder's release on the way out left the new holder's lock alone
    assert await token_in(redis, prefix + "s:s1") == other.token


async def test_a_killed_holder_process_frees_the_session_within_the_lease(
    redis: Redis, redis_url: str, prefix: str, tmp_path: Path
) -> None:
    out = tmp_path / "holder.out"
    with out.open("wb") as sink:
        holder = spawn(
            [sys.executable, str(Path(__file__).with_name("lock_holder.py")), redis_url, prefix, "s1", "1.0"],
            env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
            output=sink,
        )
    try:
        while "held" not in out.read_text():
            assert exit_code(holder) is None, out.read_text()
            await asyncio.sleep(0.02)
        with pytest.raises(Conflict, match="busy"):
            await RedisSessionLocks(redis, wait_s=0, prefix=prefix).acquire("s1")
    finally:
        stop_process(holder, signal.SIGKILL)
    # the dead process's lease (1 s) runs out; the old TTL would have held it for 120 s
    await RedisSessionLocks(redis, wait_s=3.0, prefix=prefix).acquire("s1")


async def test_an_unreachable_redis_is_a_503_not_a_500() -> None:
    nowhere = Redis.from_url(f"redis://127.0.0.1:{free_port()}/0", socket_connect_timeout=1.0)
    try:
        with pytest.raises(SharedStoreUnavailable, match="shared store"):
            await RedisSessionLocks(nowhere, wait_s=0).acquire("s1")
    finally:
        await nowhere.aclose()


@pytest.mark.integration
@pytest.mark.postgres
async def test_a_gateway_killed_mid_turn_frees_the_session_for_another_gateway(
    tmp_path: Path, domain_processes: dict[str, Process], pg_database_url: str, redis_url: str
) -> None:
    """Two real gateways on one PostgreSQL and one Redis: A is SIGKILLed while its turn waits on a
    slow domain, holding the session's lock; B answers the session's next message at once. Before,
    B waited ``SESSION_LOCK_WAIT_S`` and answered 409 (the lock lived 120 s)."""
    slow = start_fixture_domain("slow_domain")
    domains = {"general": domain_processes["general"].url, "slowpoke": slow.url}
    env = {
        "DATABASE_URL": pg_database_url,
        "REDIS_URL": redis_url,
        "BOOTSTRAP_FILE": str(write_bootstrap(tmp_path / "bootstrap.json", domains)),
        "API_KEYS": "",
        "SESSION_LOCK_LEASE_S": "1",
        "SESSION_LOCK_WAIT_S": "10",
    }
    a = start_gateway(env)
    b = start_gateway(env)
    session = {"X-Session-Id": f"killed-{uuid.uuid4().hex[:8]}"}
    try:
        async with httpx.AsyncClient(timeout=60) as client:
            slow_turn = asyncio.create_task(
                client.post(
                    f"{a.url}/v1/runs", json={"input_text": "reconcilia o inventário"}, headers=session
                )
            )
            while (await client.get(f"{slow.url}/started")).json()["started"] == 0:
                assert not slow_turn.done(), slow_turn.result().text
                await asyncio.sleep(0.05)
            a.stop("kill")  # mid-turn, holding the session's lock
            with pytest.raises(httpx.HTTPError):
                await slow_turn
            answered = await client.post(f"{b.url}/v1/runs", json={"input_text": "oi"}, headers=session)
            assert answered.status_code == 200, answered.text
    finally:
        a.stop("kill")
        b.stop()
        slow.stop()
