"""Per-session locks: two messages to one session never run their turns at the same time.

With ``REDIS_URL`` the lock lives in Redis (redis-py's ``Lock``: SET NX PX + a token-checked
release), so it holds across gateway processes; without it, an in-process ``asyncio.Lock`` does.
A turn waits up to ``wait_s`` for the lock, then the request is refused with 409.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Protocol

from redis.asyncio import Redis
from redis.exceptions import LockError

from shared.errors import Conflict


def _busy(session_id: str) -> Conflict:
    return Conflict(
        f"Session '{session_id}' is busy with another message; send the next one after it is answered.",
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
                await asyncio.wait_for(lock.acquire(), max(self.wait_s, 0.001))
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


class RedisSessionLocks:
    def __init__(
        self, redis: Redis, wait_s: float = 30.0, ttl_s: float = 120.0, prefix: str = "orch:lock:session:"
    ):
        self.redis = redis
        self.wait_s = wait_s
        self.ttl_s = ttl_s  # a crashed holder frees the session after this long
        self.prefix = prefix

    @asynccontextmanager
    async def hold(self, session_id: str) -> AsyncIterator[None]:
        lock = self.redis.lock(
            self.prefix + session_id, timeout=self.ttl_s, blocking_timeout=self.wait_s, sleep=0.01
        )
        if not await lock.acquire():
            raise _busy(session_id)
        try:
            yield
        finally:
            with contextlib.suppress(LockError):  # expired while we held it: nothing left to release
                await lock.release()
