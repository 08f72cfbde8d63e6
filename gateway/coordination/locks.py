"""Per-session locks: two messages to one session never run their turns at the same time.

Without ``REDIS_URL`` an in-process ``asyncio.Lock`` does. With it, the lock is a lease in Redis,
so it holds across gateway processes:

- taking it sets the session's key, for ``lease_s``, to a fencing token: the next value of one
  counter (``INCR`` in the same Lua script as the ``SET NX PX``), so every holder of a session
  has a larger token than the one before;
- the holder renews the lease every ``lease_s / 3`` while its turn runs, so a gateway that dies
  (SIGKILL, a lost machine) frees its sessions within ``lease_s``, not after a long TTL;
- renewing and releasing act only while the key still holds the caller's token: a stale holder
  (paused past its lease while another gateway took the session) can neither extend nor free the
  new holder's lock, and its turn is stopped with 409 instead of going on to write;
- a renewal that comes late (the process was starved of CPU past its lease) while nobody took
  the session takes the key back with the same token and the turn goes on: a busy gateway does
  not fail its own turns. Writes stay safe either way: the session's state is written with
  optimistic concurrency (``expected_version``), so a turn whose session another holder
  changed meanwhile fails to commit instead of overwriting it.

A turn waits up to ``wait_s`` for the lock, then the request is refused with 409. Redis being
unreachable is a 503 (:class:`gateway.errors.SharedStoreUnavailable`), never a 500.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass, field
from typing import Any, Protocol

from redis.asyncio import Redis

from gateway.errors import REDIS_OUTAGE, shared_store_errors
from shared.errors import Conflict

log = logging.getLogger(__name__)

#: Takes the lock if nobody holds it: ``KEYS[1]`` the session's key, ``KEYS[2]`` the fencing
#: counter, ``ARGV[1]`` the lease in ms. Returns the new fencing token, or 0 when it is held.
_ACQUIRE = """
if redis.call('exists', KEYS[1]) == 1 then return 0 end
local token = redis.call('incr', KEYS[2])
redis.call('set', KEYS[1], token, 'px', ARGV[1])
return token
"""
#: Extends the lease while the key still holds the caller's token (``ARGV[1]``); takes it back,
#: with the same token, when it lapsed and nobody took it since. Returns 0 when another holds it.
_RENEW = """
local held = redis.call('get', KEYS[1])
if held == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end
if not held then
  redis.call('set', KEYS[1], ARGV[1], 'px', ARGV[2])
  return 1
end
return 0
"""
#: Deletes the key only while it still holds the caller's token.
_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0
"""


def _busy(session_id: str) -> Conflict:
    return Conflict(
        f"Session '{session_id}' is busy with another message; send the next one after it is answered.",
        param="session_id",
    )


def _lost(session_id: str) -> Conflict:
    return Conflict(
        f"Session '{session_id}' lost its lock while this message ran (another gateway took the "
        "session over, or the shared store was out of reach for longer than the lease); send it again.",
        param="session_id",
    )


class SessionLocks(Protocol):
    def hold(self, session_id: str) -> AbstractAsyncContextManager[None]: ...


class LocalSessionLocks:
    def __init__(self, wait_s: float = 30.0):
        self.wait_s = wait_s
        self._locks: dict[str, asyncio.Lock] = {}
        self._users: dict[str, int] = {}

    @asynccontextmanager
    async def hold(self, session_id: str) -> AsyncIterator[None]:
        lock = self._locks.setdefault(session_id, asyncio.Lock())
        self._users[session_id] = self._users.get(session_id, 0) + 1
        try:
            if lock.locked() and self.wait_s <= 0:
                raise _busy(session_id)
            try:
                # asyncio.timeout, not wait_for: on Python 3.11 wait_for can lose a cancellation
                # that arrives as the lock is granted
                async with asyncio.timeout(max(self.wait_s, 0.001)):
                    await lock.acquire()
            except TimeoutError:
                raise _busy(session_id) from None
            try:
                yield
            finally:
                lock.release()
        finally:
            self._users[session_id] -= 1
            if self._users[session_id] == 0:  # forget idle sessions: the dict must not grow forever
                del self._users[session_id]
                self._locks.pop(session_id, None)


@dataclass
class Lease:
    """One holder's claim on a session: its fencing token, valid while the key still holds it."""

    session_id: str
    token: int
    locks: RedisSessionLocks = field(repr=False)
    #: Successful renewals so far (what a caller can wait on instead of a clock).
    renewals: int = 0
    #: Set when a renewal found the session held by someone else (or unreachable past the lease).
    lost: bool = False

    async def renew(self) -> bool:
        """Extend the lease by ``lease_s`` (take it back if it lapsed and nobody took it); False
        if another holder has the session."""
        extended = await self.locks.renew_script(
            keys=[self.locks.key(self.session_id)], args=[self.token, self.locks.lease_ms]
        )
        if extended:
            self.renewals += 1
        return bool(extended)

    async def release(self) -> bool:
        """Free the session; False (and nothing deleted) if it is no longer this holder's."""
        released = await self.locks.release_script(keys=[self.locks.key(self.session_id)], args=[self.token])
        return bool(released)


class RedisSessionLocks:
    def __init__(
        self,
        redis: Redis,
        wait_s: float = 30.0,
        lease_s: float = 10.0,
        prefix: str = "orch:lock:session:",
    ):
        self.redis = redis
        self.wait_s = wait_s
        self.lease_s = lease_s
        self.lease_ms = max(1, int(lease_s * 1000))
        self.prefix = prefix
        # one counter for every session: tokens only need to grow per session, and one key
        # does not pile up a key per session ever seen
        self.fence_key = prefix + "fence"
        self.acquire_script = redis.register_script(_ACQUIRE)
        self.renew_script = redis.register_script(_RENEW)
        self.release_script = redis.register_script(_RELEASE)

    def key(self, session_id: str) -> str:
        return self.prefix + "s:" + session_id

    async def acquire(self, session_id: str) -> Lease:
        """Take the session's lease, waiting up to ``wait_s`` (409 after), without renewing it:
        :meth:`hold` renews; a bare lease lapses after ``lease_s``."""
        deadline = time.monotonic() + self.wait_s
        delay = 0.005
        with shared_store_errors():
            while True:
                token = await self.acquire_script(
                    keys=[self.key(session_id), self.fence_key], args=[self.lease_ms]
                )
                if token:
                    return Lease(session_id, int(token), self)
                if time.monotonic() + delay > deadline:
                    raise _busy(session_id)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 0.025)

    @asynccontextmanager
    async def hold(self, session_id: str) -> AsyncIterator[None]:
        lease = await self.acquire(session_id)
        owner = asyncio.current_task()
        renewer = asyncio.create_task(self._keep(lease, owner))
        try:
            yield
        except asyncio.CancelledError:
            # cancelled by _keep because the lease was lost (not by the caller): a 409
            if lease.lost and owner is not None and owner.uncancel() == 0:
                raise _lost(session_id) from None
            raise
        finally:
            renewer.cancel()
            await self._release(lease)

    async def _keep(self, lease: Lease, owner: asyncio.Task[Any] | None) -> None:
        """Renew every ``lease_s / 3``; stop the holder's turn once the lease is lost."""
        interval = self.lease_s / 3
        taken_at = renewed_at = time.monotonic()
        while True:
            await asyncio.sleep(interval)
            try:
                if await lease.renew():
                    renewed_at = time.monotonic()
                    continue
                cause = "taken by another holder"
            except REDIS_OUTAGE:
                cause = "shared store unreachable"
                if time.monotonic() - renewed_at < self.lease_s:
                    continue  # still inside the lease: try again at the next beat
            # the key holds another token (or expired while Redis was out of reach): the turn
            # must not go on as if it still held the session
            lease.lost = True
            now = time.monotonic()
            log.warning(
                "session lock lost (%s): held %.1f s, last renewed %.1f s ago, %d renewals",
                cause,
                now - taken_at,
                now - renewed_at,
                lease.renewals,
                extra={"session_id": lease.session_id},
            )
            if owner is not None:
                owner.cancel()
            return

    async def _release(self, lease: Lease) -> None:
        try:
            if not await lease.release() and not lease.lost:
                log.warning("session lock had expired before release", extra={"session_id": lease.session_id})
        except REDIS_OUTAGE:
            # the lease lapses on its own within lease_s
            log.warning("session lock not released: shared store unreachable")
