"""Background health refresh of the registry, so a domain that was down (at start or later) is
routed again as soon as it answers, without anyone re-registering it.

Every ``interval_s`` every domain is re-checked (manifest and health: a changed manifest rebuilds
the catalog); in between, the domains that are down are re-checked every ``down_interval_s``,
because for those the wait is the outage the person sees. A check of a domain that is up costs a
manifest fetch, so healthy ones are left alone between full rounds. Every domain is checked on its
own, within the registry's per-domain deadline: one slow domain delays no other's.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from orchestrator.registry import DomainRegistry

log = logging.getLogger(__name__)

#: How often the domains that are down are re-checked between full rounds.
DOWN_INTERVAL_S = 1.0


class HealthRefresh:
    """Runs :meth:`DomainRegistry.refresh` in the background between :meth:`start` and :meth:`stop`."""

    def __init__(
        self, registry: DomainRegistry, *, interval_s: float, down_interval_s: float = DOWN_INTERVAL_S
    ) -> None:
        self.registry = registry
        self.interval_s = interval_s
        self.down_interval_s = min(down_interval_s, interval_s)
        self._task: asyncio.Task[None] | None = None

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def start(self) -> None:
        if not self.running:
            self._task = asyncio.create_task(self.run(), name="registry-health-refresh")

    async def stop(self) -> None:
        """Cancel the loop and wait for it, so nothing touches the registry after shutdown."""
        task, self._task = self._task, None
        if task is None:
            return
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task

    async def run(self) -> None:
        """Refresh until cancelled. Each domain is re-checked in a task of its own, so a slow one
        (bounded by the registry's per-domain deadline) never delays another's check; a domain
        whose check is still running is not checked twice at once."""
        loop = asyncio.get_running_loop()
        last_full = loop.time()
        checking: dict[str, asyncio.Task[None]] = {}
        try:
            while True:
                await asyncio.sleep(self.down_interval_s)
                full = loop.time() - last_full >= self.interval_s
                if full:
                    last_full = loop.time()
                for name in self.registry.names() if full else self.registry.down():
                    running = checking.get(name)
                    if running is None or running.done():
                        checking[name] = asyncio.create_task(self._check(name), name=f"refresh-{name}")
                for name in [n for n, task in checking.items() if task.done()]:
                    del checking[name]
        finally:
            for task in checking.values():
                task.cancel()
            await asyncio.gather(*checking.values(), return_exceptions=True)

    async def _check(self, name: str) -> None:
        try:
            await self.registry.refresh([name])
        except Exception:  # keep the loop alive: one bad check must not end the refresh
            log.exception("health refresh of domain %s failed", name)
