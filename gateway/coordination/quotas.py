"""Per-key quotas: how many ``/v1`` requests a key may make per minute, and how many turns it may
have running at once. Over either, the request is refused before anything runs: 429
``rate_limit_exceeded`` (``type: rate_limit_error``) with ``Retry-After``, which OpenAI's SDKs
read as a rate limit and back off from.

The subject of a quota is the API key: a key stored in the ``api_keys`` table by its id, a key of
``API_KEYS`` by its tenant (each is a tenant of its own), the admin token and open mode's anonymous
caller by theirs.

With Redis the counters live there, so every gateway replica counts the same requests:

- the rate is a sliding-window counter (this minute's count plus the part of the last minute's
  that still falls inside the window), read and bumped in one Lua script on Redis's own clock, so
  replicas with skewed clocks agree; a refused request is not counted;
- the running turns of a key are a sorted set of leases (slot id -> expiry): taking a slot drops
  the expired ones and counts the rest in one script; the gateway renews the leases of its
  running turns every third of ``QUOTA_SLOT_LEASE_S``, so a gateway that dies (SIGKILL) gives its
  slots back within the lease instead of leaking them.

Without Redis each process counts in memory. A Redis outage is a 503 (the shared store's), never a
500: a quota that cannot be read is not silently skipped.
"""

from __future__ import annotations

import logging
import math
import time
import uuid
from collections.abc import Awaitable, Callable
from typing import Protocol

from redis.asyncio import Redis

from gateway.coordination.lease_keeper import LeaseKeeper
from gateway.errors import REDIS_OUTAGE, RetryLater, shared_store_errors
from gateway.settings import GatewaySettings
from gateway.storage.principals import Principal

log = logging.getLogger(__name__)

WINDOW_MS = 60_000
#: A key at its concurrent-run limit may try again this soon: a turn usually ends within seconds.
SLOT_RETRY_AFTER_S = 1.0


class RateLimitExceeded(RetryLater):
    """A key over one of its quotas (OpenAI's status, type and code for it)."""

    status_code = 429
    code = "rate_limit_exceeded"
    error_type = "rate_limit_error"


def quota_subject(principal: Principal) -> str:
    """What a quota counts against: the key (its stored id), else the principal's tenant."""
    return principal.key_id or principal.tenant


def sliding_window_wait_ms(previous: float, current: float, elapsed_ms: float, limit: int) -> float:
    """How long until one more request fits, 0 if it fits now, for a sliding window of
    :data:`WINDOW_MS` holding ``previous`` requests in the last fixed minute and ``current`` in
    this one, ``elapsed_ms`` into it (the same arithmetic as :data:`_RATE`).

    >>> sliding_window_wait_ms(0, 2, 10_000, 3)
    0
    >>> sliding_window_wait_ms(0, 3, 10_000, 3)  # this minute is full: its end, plus a third of the next
    70000
    >>> sliding_window_wait_ms(3, 1, 30_000, 3)  # two thirds of the last minute must slide out
    10000
    """
    window = WINDOW_MS
    if previous * (window - elapsed_ms) / window + current + 1 <= limit:
        return 0
    if current + 1 > limit:
        # the next minute, whose previous minute is this one
        return (window - elapsed_ms) + math.ceil(window * (current - limit + 1) / current)
    return math.ceil(window * (previous + current - limit + 1) / previous) - elapsed_ms


#: ``KEYS[1]`` the subject's key prefix, ``ARGV[1]`` the window in ms, ``ARGV[2]`` the limit.
#: Returns 0 when the request is counted, else the ms to wait (nothing counted). Redis's ``TIME``:
#: one clock for every gateway.
_RATE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local window = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local index = math.floor(now / window)
local elapsed = now - index * window
local current_key = KEYS[1] .. string.format('%d', index)
local current = tonumber(redis.call('GET', current_key) or '0')
local previous = tonumber(redis.call('GET', KEYS[1] .. string.format('%d', index - 1)) or '0')
if previous * (window - elapsed) / window + current + 1 <= limit then
  redis.call('INCR', current_key)
  redis.call('PEXPIRE', current_key, 2 * window)
  return 0
end
if current + 1 > limit then
  return (window - elapsed) + math.ceil(window * (current - limit + 1) / current)
end
return math.ceil(window * (previous + current - limit + 1) / previous) - elapsed
"""
#: ``KEYS[1]`` the subject's slots, ``ARGV[1]`` a new slot id, ``ARGV[2]`` the limit, ``ARGV[3]``
#: the lease in ms. Returns 1 when the slot is taken, 0 at the limit.
_TAKE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
"""
#: Extends the lease of slot ``ARGV[i + 1]`` in ``KEYS[i]`` by ``ARGV[1]`` ms, for each ``i``
#: whose slot is still there. Returns 1 (renewed) or 0 (it lapsed) per slot.
_RENEW = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local lease = tonumber(ARGV[1])
local kept = {}
for i, key in ipairs(KEYS) do
  if redis.call('ZSCORE', key, ARGV[i + 1]) then
    redis.call('ZADD', key, 'XX', now + lease, ARGV[i + 1])
    redis.call('PEXPIRE', key, lease)
    kept[i] = 1
  else
    kept[i] = 0
  end
end
return kept
"""
#: Slots renewed per script call (a bound on one call's work inside Redis).


class RunSlot:
    """One running turn's place in its key's concurrent-run quota, given back once."""

    def __init__(self, release: Callable[[], Awaitable[None]] | None = None):
        self._release = release

    async def release(self) -> None:
        release, self._release = self._release, None
        if release is not None:
            await release()

    def hand_over(self) -> RunSlot:
        """The slot, moved to a new holder (a background run that outlives the request that
        took it): releasing this one does nothing from now on."""
        moved = RunSlot(self._release)
        self._release = None
        return moved


class _Counters(Protocol):
    async def hit(self, subject: str, limit: int) -> float:
        """Count one request; 0 if it fits, else the ms to wait (and nothing counted)."""
        ...

    async def take(self, subject: str, limit: int) -> Callable[[], Awaitable[None]] | None:
        """A slot's release, or ``None`` at the limit."""
        ...

    def start(self) -> None: ...

    async def stop(self) -> None: ...


class LocalCounters:
    """One process's counts (no ``REDIS_URL``)."""

    def __init__(self) -> None:
        #: subject -> (minute index, requests in the previous minute, requests in this one)
        self._windows: dict[str, tuple[int, int, int]] = {}
        self._running: dict[str, int] = {}

    async def hit(self, subject: str, limit: int) -> float:
        now_ms = time.time() * 1000
        index, elapsed = divmod(now_ms, WINDOW_MS)
        seen, previous, current = self._windows.get(subject, (int(index), 0, 0))
        if seen != index:  # a new minute: this one's count becomes the previous one's
            previous, current = (current if seen == index - 1 else 0), 0
        wait = sliding_window_wait_ms(previous, current, elapsed, limit)
        if wait == 0:
            current += 1
        self._windows[subject] = (int(index), previous, current)
        return wait

    async def take(self, subject: str, limit: int) -> Callable[[], Awaitable[None]] | None:
        if self._running.get(subject, 0) >= limit:
            return None
        self._running[subject] = self._running.get(subject, 0) + 1

        async def release() -> None:
            left = self._running.get(subject, 1) - 1
            if left > 0:
                self._running[subject] = left
            else:  # forget idle keys: the dict must not grow with every key ever seen
                self._running.pop(subject, None)

        return release

    def start(self) -> None:
        pass

    async def stop(self) -> None:
        pass


class RedisCounters:
    """Counts every gateway shares (see the module docstring)."""

    def __init__(self, redis: Redis, *, lease_s: float, prefix: str = "orch:quota:"):
        self.redis = redis
        self.prefix = prefix
        self.lease_s = lease_s
        self.lease_ms = max(1, int(lease_s * 1000))
        self._rate = redis.register_script(_RATE)
        self._take = redis.register_script(_TAKE)
        self._renew = redis.register_script(_RENEW)
        #: slot id -> its key: the slots this process holds, renewed by ``_keeper``
        self._held: dict[str, str] = {}
        self._keeper = LeaseKeeper(
            lease_s=lease_s,
            held=lambda: list(self._held.items()),
            renew=self._renew_slots,
            lost=self._slot_lapsed,
            name="quota-run-slots",
            unreachable="run slots not renewed: shared store unreachable",
        )

    def rate_key(self, subject: str) -> str:
        return f"{self.prefix}rate:{subject}:"

    def slots_key(self, subject: str) -> str:
        return f"{self.prefix}runs:{subject}"

    async def hit(self, subject: str, limit: int) -> float:
        with shared_store_errors():
            wait = await self._rate(keys=[self.rate_key(subject)], args=[WINDOW_MS, limit])
        return float(wait)

    async def take(self, subject: str, limit: int) -> Callable[[], Awaitable[None]] | None:
        key = self.slots_key(subject)
        slot = uuid.uuid4().hex
        with shared_store_errors():
            if not await self._take(keys=[key], args=[slot, limit, self.lease_ms]):
                return None
        self._held[slot] = key

        async def release() -> None:
            self._held.pop(slot, None)
            try:
                await self.redis.zrem(key, slot)
            except REDIS_OUTAGE:
                # the lease lapses on its own within lease_s
                log.warning("run slot not released: shared store unreachable")

        return release

    def start(self) -> None:
        self._keeper.start()

    async def stop(self) -> None:
        await self._keeper.stop()

    async def _renew_slots(self, slots: list[tuple[str, str]]) -> list[int]:
        renewed: list[int] = await self._renew(
            keys=[key for _, key in slots], args=[self.lease_ms, *(slot for slot, _ in slots)]
        )
        return renewed

    def _slot_lapsed(self, held: tuple[str, str]) -> None:
        if self._held.pop(held[0], None) is not None:
            # it lapsed (Redis out of reach past the lease): the run goes on, uncounted
            log.warning("run slot lapsed before its run ended")


class Quotas:
    """The gateway's quotas: :meth:`check_rate` on every ``/v1`` request, :meth:`run_slot` around
    every turn."""

    def __init__(self, settings: GatewaySettings, redis: Redis | None = None):
        self.rate_limit = settings.rate_limit_per_min
        self.run_limit = settings.max_concurrent_runs_per_key
        self._counters: _Counters = (
            RedisCounters(redis, lease_s=settings.quota_slot_lease_s)
            if redis is not None
            else LocalCounters()
        )

    def start(self) -> None:
        if self.run_limit:
            self._counters.start()

    async def stop(self) -> None:
        await self._counters.stop()

    async def check_rate(self, principal: Principal) -> None:
        """Count one request of ``principal``'s key; 429 past ``RATE_LIMIT_PER_MIN``."""
        if not self.rate_limit:
            return
        wait_ms = await self._counters.hit(quota_subject(principal), self.rate_limit)
        if wait_ms > 0:
            raise RateLimitExceeded(
                f"Rate limit reached for this API key: {self.rate_limit} requests per minute. "
                "Try again after the time in the Retry-After header.",
                # never past the window: a client told to wait longer than that may give up
                retry_after_s=min(wait_ms, WINDOW_MS) / 1000,
            )

    async def run_slot(self, principal: Principal) -> RunSlot:
        """A place for one more running turn of ``principal``'s key; 429 past
        ``MAX_CONCURRENT_RUNS_PER_KEY``."""
        if not self.run_limit:
            return RunSlot()
        release = await self._counters.take(quota_subject(principal), self.run_limit)
        if release is None:
            raise RateLimitExceeded(
                f"Too many runs at once for this API key (at most {self.run_limit}); "
                "send this one after one of them ends.",
                retry_after_s=SLOT_RETRY_AFTER_S,
            )
        return RunSlot(release)
