"""Keeping a process's Redis leases alive: the loop behind run slots (:mod:`gateway.coordination.quotas`).

Every third of the lease, the held items are renewed in batches of one Lua script call each; an
item the script reports not renewed is handed to ``lost``. Redis out of reach: logged, and tried
again at the next beat (an item's lease lapses on its own after ``lease_s``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Generic, TypeVar

from gateway.errors import REDIS_OUTAGE

log = logging.getLogger(__name__)

Item = TypeVar("Item")
#: Items renewed (or, for claims, tried) per script call: a bound on one call's work inside Redis.
BATCH = 500


class LeaseKeeper(Generic[Item]):
    def __init__(
        self,
        *,
        lease_s: float,
        held: Callable[[], list[Item]],
        renew: Callable[[list[Item]], Awaitable[Sequence[int]]],
        lost: Callable[[Item], None],
        name: str,
        unreachable: str,
    ):
        self.lease_s = lease_s
        self._held = held
        self._renew = renew
        self._lost = lost
        self._name = name
        self._unreachable = unreachable
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._keep(), name=self._name)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _keep(self) -> None:
        while True:
            await asyncio.sleep(self.lease_s / 3)
            held = self._held()
            for start in range(0, len(held), BATCH):
                batch = held[start : start + BATCH]
                try:
                    kept = await self._renew(batch)
                except REDIS_OUTAGE:
                    log.warning(self._unreachable)
                    break
                for item, renewed in zip(batch, kept, strict=True):
                    if not renewed:
                        self._lost(item)
