"""Who holds each background run: the claims that let another gateway take over the runs of one
that died.

With ``REDIS_URL`` a claim is a lease in Redis, as the session locks and the quota slots are:

- accepting a run sets its key (``SET NX PX``) to this process's holder id and adds the run to an
  index of unfinished background runs (a sorted set, oldest first), in one script, before the run
  is stored: there is no moment when a stored run is unfinished and unclaimed by a live holder;
- the holder renews the leases of all its runs every third of the lease, one script call per
  beat (per batch of runs), so a gateway that dies (SIGKILL) lets go of its runs within the lease;
- :meth:`RedisClaims.take_lapsed` claims, in one script, the indexed runs whose lease lapsed:
  ``SET NX`` per run, so two survivors never both take one;
- renewing and releasing act only while the key still holds this holder's id: a stale holder
  cannot extend or free a claim another gateway took meanwhile.

Without Redis there is one gateway: its claims are the runs it holds in memory, and what is left
unfinished in the database at start was its previous process's (:class:`LocalClaims`).
"""

from __future__ import annotations

import logging
import uuid
from typing import Protocol

from redis.asyncio import Redis

from gateway.coordination.lease_keeper import BATCH, LeaseKeeper
from gateway.errors import REDIS_OUTAGE, shared_store_errors

log = logging.getLogger(__name__)

#: ``KEYS[1]`` the run's claim, ``KEYS[2]`` the index; ``ARGV`` holder, lease ms, run id, score.
#: Returns 1 when claimed, 0 when someone holds it.
_CLAIM = """
if not redis.call('set', KEYS[1], ARGV[1], 'nx', 'px', ARGV[2]) then return 0 end
redis.call('zadd', KEYS[2], ARGV[4], ARGV[3])
return 1
"""
#: Extends the lease of each ``KEYS[i]`` still holding ``ARGV[1]`` to ``ARGV[2]`` ms.
#: Returns 1 (renewed) or 0 (lost) per key.
_RENEW = """
local kept = {}
for i, key in ipairs(KEYS) do
  if redis.call('get', key) == ARGV[1] then
    redis.call('pexpire', key, ARGV[2])
    kept[i] = 1
  else
    kept[i] = 0
  end
end
return kept
"""
#: ``KEYS[i]`` the claim of run ``ARGV[i + 2]``; ``ARGV[1]`` holder, ``ARGV[2]`` lease ms. Claims
#: every run whose claim key is gone (``SET NX``); returns their ids.
_TAKE = """
local taken = {}
for i, key in ipairs(KEYS) do
  if redis.call('set', key, ARGV[1], 'nx', 'px', ARGV[2]) then
    taken[#taken + 1] = ARGV[i + 2]
  end
end
return taken
"""
#: Frees the claim ``KEYS[1]`` if it still holds ``ARGV[1]`` (the run stays indexed).
_GIVE_BACK = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0
"""
#: Frees the claim ``KEYS[1]`` if it still holds ``ARGV[1]``, and drops run ``ARGV[2]`` from the
#: index ``KEYS[2]`` (its row is final, or was never stored).
_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then redis.call('del', KEYS[1]) end
redis.call('zrem', KEYS[2], ARGV[2])
return 1
"""


class BackgroundClaims(Protocol):
    #: ``True`` when other processes may hold runs (the sweeper then runs on an interval).
    shared: bool

    def holds(self, run_id: str) -> bool:
        """Does this process still hold ``run_id`` (not lost to another gateway)?"""
        ...

    async def claim(self, run_id: str, created_ms: int) -> bool:
        """Claim a run about to be stored; ``False`` if another holder has it."""
        ...

    async def take(self, run_ids: list[str]) -> list[str]:
        """Claim those of ``run_ids`` nobody holds (stored runs found unfinished)."""
        ...

    async def take_lapsed(self, limit: int) -> list[str]:
        """Claim up to ``limit`` indexed runs whose holder let go of them (died)."""
        ...

    async def release(self, run_id: str) -> None:
        """Let go of a run whose row is final (or was never stored)."""
        ...

    async def give_back(self, run_id: str) -> None:
        """Let go of a claimed run that is still unfinished (someone may take it again)."""
        ...

    def start(self) -> None: ...

    async def stop(self) -> None: ...


class LocalClaims:
    """One gateway (no ``REDIS_URL``): a claim is a run this process holds."""

    shared = False

    def __init__(self) -> None:
        self._held: set[str] = set()

    def holds(self, run_id: str) -> bool:
        return run_id in self._held

    async def claim(self, run_id: str, created_ms: int) -> bool:
        if run_id in self._held:
            return False
        self._held.add(run_id)
        return True

    async def take(self, run_ids: list[str]) -> list[str]:
        taken = [r for r in run_ids if r not in self._held]
        self._held.update(taken)
        return taken

    async def take_lapsed(self, limit: int) -> list[str]:
        return []  # nobody else holds runs: nothing lapses while this process lives

    async def release(self, run_id: str) -> None:
        self._held.discard(run_id)

    async def give_back(self, run_id: str) -> None:
        self._held.discard(run_id)

    def start(self) -> None:
        pass

    async def stop(self) -> None:
        pass


class RedisClaims:
    """Claims every gateway sees (see the module docstring)."""

    shared = True

    def __init__(self, redis: Redis, *, lease_s: float, prefix: str = "orch:background:"):
        self.redis = redis
        self.lease_s = lease_s
        self.lease_ms = max(1, int(lease_s * 1000))
        self.prefix = prefix
        self.index_key = prefix + "unfinished"
        #: this process's id in the claims it holds (a restarted gateway is a new holder)
        self.holder = uuid.uuid4().hex
        self._claim = redis.register_script(_CLAIM)
        self._renew = redis.register_script(_RENEW)
        self._take = redis.register_script(_TAKE)
        self._release = redis.register_script(_RELEASE)
        self._give_back = redis.register_script(_GIVE_BACK)
        self._held: set[str] = set()
        self._keeper = LeaseKeeper(
            lease_s=lease_s,
            held=lambda: list(self._held),
            renew=self._renew_claims,
            lost=self._claim_lost,
            name="background-claims",
            unreachable="background run claims not renewed: shared store unreachable",
        )

    def key(self, run_id: str) -> str:
        return f"{self.prefix}run:{run_id}"

    def holds(self, run_id: str) -> bool:
        return run_id in self._held

    async def claim(self, run_id: str, created_ms: int) -> bool:
        with shared_store_errors():
            claimed = await self._claim(
                keys=[self.key(run_id), self.index_key], args=[self.holder, self.lease_ms, run_id, created_ms]
            )
        if claimed:
            self._held.add(run_id)
        return bool(claimed)

    async def take(self, run_ids: list[str]) -> list[str]:
        taken: list[str] = []
        for start in range(0, len(run_ids), BATCH):
            batch = [r for r in run_ids[start : start + BATCH] if r not in self._held]
            if not batch:
                continue
            got = await self._take(
                keys=[self.key(r) for r in batch], args=[self.holder, self.lease_ms, *batch]
            )
            for raw in got:
                run_id = raw.decode() if isinstance(raw, bytes) else str(raw)
                self._held.add(run_id)
                taken.append(run_id)
        return taken

    async def take_lapsed(self, limit: int) -> list[str]:
        if limit <= 0:
            return []
        # the oldest first: they have waited longest; this process's own are skipped in take
        indexed = await self.redis.zrange(self.index_key, 0, -1)
        candidates = [r.decode() if isinstance(r, bytes) else str(r) for r in indexed]
        taken: list[str] = []
        for start in range(0, len(candidates), BATCH):
            taken.extend(await self.take(candidates[start : start + BATCH]))
            if len(taken) >= limit:
                break
        # taken past the limit: given back at once, for another gateway (or the next pass)
        for run_id in taken[limit:]:
            await self.give_back(run_id)
        return taken[:limit]

    async def give_back(self, run_id: str) -> None:
        self._held.discard(run_id)
        try:
            await self._give_back(keys=[self.key(run_id)], args=[self.holder])
        except REDIS_OUTAGE:
            log.warning("background run's claim not given back: shared store unreachable")

    async def release(self, run_id: str) -> None:
        self._held.discard(run_id)
        try:
            await self._release(keys=[self.key(run_id), self.index_key], args=[self.holder, run_id])
        except REDIS_OUTAGE:
            # the lease lapses on its own; a survivor then finds the row final and drops it
            log.warning(
                "background run's claim not released: shared store unreachable", extra={"run_id": run_id}
            )

    def start(self) -> None:
        self._keeper.start()

    async def stop(self) -> None:
        await self._keeper.stop()

    async def _renew_claims(self, run_ids: list[str]) -> list[int]:
        renewed: list[int] = await self._renew(
            keys=[self.key(r) for r in run_ids], args=[self.holder, self.lease_ms]
        )
        return renewed

    def _claim_lost(self, run_id: str) -> None:
        if run_id in self._held:
            # another gateway took it over (this one was out of reach past the lease)
            self._held.discard(run_id)
            log.warning("background run's claim lost to another gateway", extra={"run_id": run_id})
