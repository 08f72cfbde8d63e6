"""A process that takes a session's Redis lock and holds it (renewing) until it is killed.

``python tests/security/lock_holder.py REDIS_URL PREFIX SESSION LEASE_S``: prints ``held`` once
the lock is taken, then waits forever; the test SIGKILLs it, as a gateway dies mid-turn.
"""

from __future__ import annotations

import asyncio
import sys

from redis.asyncio import Redis

from gateway.coordination.locks import RedisSessionLocks


async def main(url: str, prefix: str, session_id: str, lease_s: float) -> None:
    redis = Redis.from_url(url)
    locks = RedisSessionLocks(redis, wait_s=0, lease_s=lease_s, prefix=prefix)
    async with locks.hold(session_id):
        print("held", flush=True)
        await asyncio.Event().wait()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])))
