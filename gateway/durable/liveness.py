"""Which gateways are alive, and the takeover of a dead one's unfinished workflows.

DBOS resumes a process's own unfinished workflows when it starts again under the same executor
id; across hosts it leaves finding dead executors to the application (its docs: a recovery
service or Conductor). This is that piece, kept small: **one lease per gateway process** (not per
run), a row of ``gateway_liveness`` in the gateway's database, renewed every third of
``DURABLE_LIVENESS_LEASE_S``. Every ``DURABLE_RECOVERY_INTERVAL_S`` (and at start) each gateway
looks for lapsed leases; one survivor wins each (an ``UPDATE`` that moves the lapsed lease to it),
lists the dead executor's ``PENDING`` workflows (``DBOS.list_workflows_async``) and resumes them
(``DBOS.resume_workflow_async``, back on the queue they came from), then deletes the row. A
survivor that dies midway leaves the row to lapse again, and another one finishes the job.

The leases are in the database, not Redis: a Redis restarted empty does not make live gateways
look dead. A process that finds its own lease taken (it stalled longer than the lease) logs it:
its workflows may then run twice, and their steps' idempotency keys keep the domains from acting
twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

from dbos import DBOS
from sqlalchemy import delete, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncEngine

from gateway.storage.liveness import gateway_liveness

log = logging.getLogger(__name__)

_table = gateway_liveness


def now_ms() -> int:
    return int(time.time() * 1000)


class Liveness:
    def __init__(
        self,
        engine: AsyncEngine,
        executor_id: str,
        application_version: str,
        *,
        lease_s: float,
        interval_s: float,
    ):
        self.executor_id = executor_id
        self.application_version = application_version
        self.lease_ms = int(lease_s * 1000)
        self.interval_s = interval_s
        self._engine = engine
        self._task: asyncio.Task[None] | None = None
        #: gateways whose lease was live at the last renewal (this one included)
        self.live_gateways = 1
        #: workflows this process resumed for dead gateways, and when the last takeover ended
        self.resumed = 0
        self.last_takeover_s: float | None = None
        #: dead gateways' workflows are taken over (once the app is ready to run them: :meth:`recover_now`)
        self.recovering = False
        self._wake = asyncio.Event()

    async def take(self) -> None:
        """Hold this process's lease (a row of its own, new or renewed). A lease of the same
        executor id that a survivor is taking over (a gateway restarted under a fixed id after its
        lease lapsed) is waited out first: the engine's own recovery at launch must not resume the
        workflows the survivor is resuming."""
        deadline = time.monotonic() + 2 * self.lease_ms / 1000
        while True:
            now = now_ms()
            async with self._engine.begin() as conn:
                renewed = await conn.execute(
                    update(_table)
                    .where(
                        _table.c.executor_id == self.executor_id,
                        or_(_table.c.recovered_by.is_(None), _table.c.expires_at_ms <= now),
                    )
                    .values(
                        expires_at_ms=now + self.lease_ms,
                        application_version=self.application_version,
                        recovered_by=None,
                    )
                )
                if renewed.rowcount == 1:
                    return
                mine = select(_table.c.recovered_by).where(_table.c.executor_id == self.executor_id)
                held = (await conn.execute(mine)).first()
                if held is None:
                    await conn.execute(
                        _table.insert().values(
                            executor_id=self.executor_id,
                            application_version=self.application_version,
                            expires_at_ms=now + self.lease_ms,
                            recovered_by=None,
                        )
                    )
                    return
            if time.monotonic() > deadline:
                raise RuntimeError(f"executor id {self.executor_id!r} is being taken over; try again shortly")
            await asyncio.sleep(0.2)

    def recover_now(self) -> None:
        """Take over dead gateways' workflows from now on, starting with a pass at once."""
        self.recovering = True
        self._wake.set()

    def start(self) -> None:
        self._task = asyncio.create_task(self._keep(), name="durable-liveness")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            # waits for it without raising its cancellation (a cancellation of ours still is)
            await asyncio.wait([self._task])

    async def give_up(self) -> None:
        """Let the lease lapse now (a graceful stop): another gateway resumes what is left."""
        try:
            async with self._engine.begin() as conn:
                await conn.execute(
                    update(_table)
                    .where(_table.c.executor_id == self.executor_id, _table.c.recovered_by.is_(None))
                    .values(expires_at_ms=0)
                )
        except Exception:
            log.warning("liveness lease not given up: it lapses at its term")

    async def _keep(self) -> None:
        renew_every = self.lease_ms / 3000
        next_recovery = 0.0
        while True:
            try:
                await self.renew()
                if self.recovering and time.monotonic() >= next_recovery:
                    next_recovery = time.monotonic() + self.interval_s
                    await self.recover()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("liveness pass failed (tried again at the next)")
            # asyncio.timeout, not wait_for: on Python 3.11 wait_for returns normally when it is
            # cancelled just as the event is set (a stop right after recover_now), and the
            # keeper would renew on after its stop
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(min(renew_every, self.interval_s)):
                    await self._wake.wait()
            self._wake.clear()

    async def renew(self) -> None:
        now = now_ms()
        async with self._engine.begin() as conn:
            renewed = await conn.execute(
                update(_table)
                .where(_table.c.executor_id == self.executor_id, _table.c.recovered_by.is_(None))
                .values(expires_at_ms=now + self.lease_ms)
            )
            live = await conn.execute(select(func.count()).where(_table.c.expires_at_ms > now))
            self.live_gateways = max(1, int(live.scalar_one()))
        if renewed.rowcount == 0:
            # taken for dead (stalled past the lease): its workflows are being resumed elsewhere;
            # the lease is its own again once that takeover has ended
            log.error(
                "this gateway's liveness lease was taken over; taking it again",
                extra={"executor_id": self.executor_id},
            )
            await self.take()

    async def recover(self) -> int:
        """Resume the unfinished workflows of every gateway whose lease lapsed; how many."""
        now = now_ms()
        async with self._engine.connect() as conn:
            lapsed = (
                (
                    await conn.execute(
                        select(_table.c.executor_id).where(
                            _table.c.expires_at_ms <= now, _table.c.executor_id != self.executor_id
                        )
                    )
                )
                .scalars()
                .all()
            )
        resumed = 0
        for dead in lapsed:
            if await self._claim(dead, now):
                resumed += await self._take_over(dead)
        return resumed

    async def _claim(self, dead: str, now: int) -> bool:
        """Move ``dead``'s lapsed lease to this process: one survivor wins it."""
        async with self._engine.begin() as conn:
            claimed = await conn.execute(
                update(_table)
                .where(_table.c.executor_id == dead, _table.c.expires_at_ms <= now)
                .values(expires_at_ms=now_ms() + self.lease_ms, recovered_by=self.executor_id)
            )
        return claimed.rowcount == 1

    async def _take_over(self, dead: str) -> int:
        started = time.monotonic()
        pending = await DBOS.list_workflows_async(
            status="PENDING", executor_id=dead, load_input=False, load_output=False
        )
        for workflow in pending:
            # back on the queue it ran from (its concurrency limits hold); none: DBOS's own
            await DBOS.resume_workflow_async(workflow.workflow_id, queue_name=workflow.queue_name)
        async with self._engine.begin() as conn:
            await conn.execute(
                delete(_table).where(_table.c.executor_id == dead, _table.c.recovered_by == self.executor_id)
            )
        self.resumed += len(pending)
        self.last_takeover_s = time.monotonic() - started
        if pending:
            log.warning(
                "resumed %d unfinished workflow(s) of a gateway that stopped",
                len(pending),
                extra={"executor_id": dead},
            )
        return len(pending)
