"""Taking over the background runs of a gateway that died, so every accepted run ends.

A sweeper on every gateway:

- at start, reads the stored runs still ``queued``/``executing`` and claims those nobody holds
  (without Redis: all of them, its previous process's; with Redis: those whose holder's claim
  lapsed, e.g. after a Redis restart lost the index);
- with Redis, then every ``BACKGROUND_SWEEP_S``, claims the indexed runs whose claim lapsed
  (:meth:`gateway.coordination.background_claims.RedisClaims.take_lapsed`, ``SET NX``: one survivor each);
- without Redis, passes repeat only while the previous one was cut short by the queue's room.

A claimed run is read again after the claim (its turn may have committed meanwhile: then it is
only dropped from the index) and queued on this gateway under its own run id
(:meth:`gateway.turns.background.BackgroundRuns.adopt`). One that cannot be run again — its session
is gone, or it is older than ``BACKGROUND_TAKEOVER_MAX_AGE_S`` — is stored ``failed``, with the
reason in ``notes`` and "I could not complete the request" in the person's language as answer.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import timedelta

from gateway.coordination.quotas import RunSlot
from gateway.errors import REDIS_OUTAGE
from gateway.storage.runs import RunStore, UnfinishedRun
from gateway.turns.background import BackgroundJob, BackgroundRuns, entry_of
from shared.clock import utcnow
from shared.i18n import detect, t

log = logging.getLogger(__name__)

SESSION_GONE_REASON = (
    "Its gateway stopped before it finished and its session no longer exists: not run again."
)
TOO_OLD_REASON = (
    "Its gateway stopped before it finished and it was older than BACKGROUND_TAKEOVER_MAX_AGE_S "
    "when another gateway found it: not run again; send it again."
)


class BackgroundTakeover:
    def __init__(self, background: BackgroundRuns, store: RunStore, *, interval_s: float, max_age_s: float):
        self._background = background
        self._claims = background.claims
        self._store = store
        self.interval_s = interval_s
        self.max_age = timedelta(seconds=max_age_s)
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._sweep(), name="background-takeover")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _sweep(self) -> None:
        more = True
        while True:
            try:
                if more:  # the stored runs: at start (and, alone, while the last pass was cut short)
                    more = await self.pass_over_stored() and not self._claims.shared
                if self._claims.shared:
                    await self.pass_over_lapsed()
                elif not more:
                    return  # one gateway: nothing else can leave runs behind while it lives
            except REDIS_OUTAGE:
                log.warning("background takeover skipped: shared store unreachable")
            except Exception:
                log.exception("background takeover pass failed")
            await asyncio.sleep(self.interval_s)

    async def pass_over_stored(self) -> bool:
        """Claim stored unfinished runs nobody holds; ``True`` if the queue's room cut it short."""
        room = self._background.room()
        if room == 0:
            return True
        # the runs this process holds are among the stored unfinished ones
        limit = room + len(self._background)
        found = await self._store.unfinished_run_ids(limit)
        await self._take_over(await self._claims.take(found))
        return len(found) >= limit

    async def pass_over_lapsed(self) -> None:
        await self._take_over(await self._claims.take_lapsed(self._background.room()))

    async def _take_over(self, claimed: list[str]) -> None:
        for run_id in claimed:
            try:
                await self._take_over_one(run_id)
            except Exception:
                # given back: this gateway or another tries again at a later pass
                log.exception("background run not taken over", extra={"run_id": run_id})
                await self._claims.give_back(run_id)

    async def _take_over_one(self, run_id: str) -> None:
        """``run_id`` is claimed by this process: queue it here, fail it, or let it go."""
        run = await self._store.unfinished_run(run_id)
        if run is None:  # its turn committed (or it was never stored): nothing to do
            await self._claims.release(run_id)
            return
        too_old = run.created_at is not None and utcnow() - run.created_at > self.max_age
        if run.tenant is None or too_old:
            await self._abandon(run, SESSION_GONE_REASON if run.tenant is None else TOO_OLD_REASON)
            return
        log.warning("background run taken over from a stopped gateway", extra={"run_id": run_id})
        entry = entry_of(run.session_id, run.input_text, run.entry)
        self._background.adopt(BackgroundJob(entry, run_id, run.tenant, RunSlot(), taken_over=True))

    async def _abandon(self, run: UnfinishedRun, reason: str) -> None:
        """Store ``run`` failed: ``reason`` for the operator, the answer in the person's language."""
        log.warning("background run not taken over: %s", reason, extra={"run_id": run.run_id})
        await self._store.abandon_run(run.run_id, reason, t("run.not_completed", detect(run.input_text)))
        await self._claims.release(run.run_id)
