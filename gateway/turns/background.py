"""Background runs (``POST /v1/runs`` with ``background: true``): a bounded queue in front of a
fixed number of workers, so a burst of them waits its turn instead of starving the server.

- Admission is decided before anything runs: a place is counted with no ``await`` between the
  check and the count, so a burst cannot overfill the queue; a full queue is a 503 with
  ``Retry-After`` (an estimate from how long recent runs took) and nothing recorded.
- An admitted run is recorded (``queued``) before the 202, so ``GET /v1/runs/{id}`` finds it from
  then on; a worker moves it to ``executing`` and runs its turn, whose trace then replaces the row.
- A run that ends without a stored turn (its session busy past ``SESSION_LOCK_WAIT_S``, a store out
  of reach, the gateway stopping) is recorded ``failed``, with the reason in its ``notes``.

- Every run this process holds (queued or running) is claimed (:mod:`gateway.coordination.background_claims`)
  from before it is stored until its row is final; a gateway killed outright (SIGKILL) lets go of
  its runs when their claims lapse, and :mod:`gateway.turns.background_takeover` on a survivor (or on
  the restarted gateway) runs them again here, under the same run id (:meth:`BackgroundRuns.adopt`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass
from typing import Any

from gateway.coordination.background_claims import BackgroundClaims, LocalClaims
from gateway.coordination.quotas import RunSlot
from gateway.errors import RetryLater
from gateway.storage.runs import RunStore
from gateway.turns.idempotency import HEADER as IDEMPOTENCY_HEADER
from gateway.turns.turn import TurnService
from shared.clock import utcnow
from shared.errors import Conflict, PlatformError
from shared.events import RunFinished, RunStatusEvent
from shared.models import EntryRequest, RunResult
from shared.status import RunStatus

log = logging.getLogger(__name__)

#: The bounds of the ``Retry-After`` of a full queue, in seconds.
_RETRY_AFTER_MIN_S = 1.0
_RETRY_AFTER_MAX_S = 60.0
#: How much one run's duration moves the running estimate (an exponential moving average).
_DURATION_WEIGHT = 0.2
STOPPED_REASON = "The gateway stopped before this run finished; send it again."


class BackgroundQueueFull(RetryLater):
    """Every worker is busy and the queue is full: nothing was recorded, retry later."""

    status_code = 503
    code = "background_queue_full"
    error_type = "server_error"


@dataclass
class BackgroundJob:
    entry: EntryRequest
    run_id: str
    tenant: str
    #: The run's place in its key's concurrent-run quota, given back when the run ends.
    slot: RunSlot
    #: Taken over from a gateway that stopped (its row is read again before its turn starts).
    taken_over: bool = False


class BackgroundRuns:
    def __init__(
        self,
        turns: TurnService,
        store: RunStore,
        *,
        workers: int,
        queue_max: int,
        claims: BackgroundClaims | None = None,
    ):
        self.workers = workers
        self.queue_max = queue_max
        self._turns = turns
        self._store = store
        self.claims: BackgroundClaims = claims if claims is not None else LocalClaims()
        self._queue: asyncio.Queue[BackgroundJob] = asyncio.Queue()  # bounded by _waiting
        #: runs admitted and not yet taken by a worker (recording ones included); with the running
        #: ones, never more than ``workers + queue_max``
        self._waiting = 0
        self._running: dict[str, BackgroundJob] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._closing = False
        self._mean_s = 1.0

    def __len__(self) -> int:
        """Runs accepted and not finished (the ``orchestrator_background_queue_depth`` gauge)."""
        return self._waiting + len(self._running)

    def start(self) -> None:
        self._tasks = [asyncio.create_task(self._work(), name=f"background-{i}") for i in range(self.workers)]

    async def stop(self) -> None:
        """Stop the workers; what was queued or running is recorded ``failed`` (retry it)."""
        self._closing = True
        unfinished = list(self._running)
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        while not self._queue.empty():
            job = self._queue.get_nowait()
            unfinished.append(job.run_id)
            self._store.forget_queued(job.run_id)
            await job.slot.release()
        try:
            await asyncio.wait_for(self._store.fail_runs(unfinished, STOPPED_REASON), 5.0)
        except Exception:  # stopping anyway: the runs stay as they were recorded (to be taken over)
            log.warning("unfinished background runs not recorded as failed at stop")
            return
        for run_id in unfinished:
            await self.claims.release(run_id)

    def room(self) -> int:
        """Places left (runs this process can still accept or take over)."""
        return 0 if self._closing else max(0, self.workers + self.queue_max - len(self))

    def check_room(self) -> None:
        """:class:`BackgroundQueueFull` if every place is taken (a refusal that costs nothing)."""
        if self._closing or len(self) >= self.workers + self.queue_max:
            raise BackgroundQueueFull(
                "Too many background runs are waiting; send this one again later.",
                retry_after_s=self._retry_after_s(),
            )

    async def submit(self, job: BackgroundJob) -> RunResult:
        """Admit ``job``, record it ``queued`` and queue it; :class:`BackgroundQueueFull` (before
        anything is recorded) when every place is taken."""
        self.check_room()
        self._waiting += 1  # counted before the first await: admission is decided here
        created = utcnow()
        queued = RunResult(
            run_id=job.run_id, session_id=job.entry.session_id, status=RunStatus.QUEUED, created_at=created
        )
        claimed = False
        try:
            # claimed before it is stored: no survivor ever sees it stored and unclaimed while we live
            claimed = await self.claims.claim(job.run_id, int(created.timestamp() * 1000))
            if not claimed:  # its Idempotency-Key's twin was accepted meanwhile
                raise Conflict(
                    f"The request with this {IDEMPOTENCY_HEADER} is still running (run '{job.run_id}'); "
                    "ask again once it has finished.",
                    param=IDEMPOTENCY_HEADER,
                )
            await self._store.queue_run(
                queued,
                input_text=job.entry.input_text,
                channel=job.entry.channel,
                tenant=job.tenant,
                entry=_entry_extras(job.entry),
            )
        except BaseException:
            self._waiting -= 1
            if claimed:
                await self.claims.release(job.run_id)
            raise
        self._turns.open_run(job.run_id, job.tenant)
        await self._turns.events.publish(
            RunStatusEvent(run_id=job.run_id, session_id=job.entry.session_id, status=RunStatus.QUEUED)
        )
        self._queue.put_nowait(job)
        return queued

    async def retry(self, job: BackgroundJob, note: str) -> RunResult:
        """Queue a failed run again under its own run id, so its domains see the same per-step
        idempotency keys: the steps that succeeded answer from what they did, the rest run.
        :class:`Conflict` unless it is ``failed``; :class:`BackgroundQueueFull` when every place
        is taken."""
        self.check_room()
        self._waiting += 1  # counted before the first await: admission is decided here
        claimed = False
        try:
            claimed = await self.claims.claim(job.run_id, int(utcnow().timestamp() * 1000))
            stored = await self._store.requeue_failed(job.run_id, note) if claimed else None
            if stored is None:
                raise Conflict(
                    f"Run '{job.run_id}' has not failed: only a failed run is retried.", param="run_id"
                )
        except BaseException:
            self._waiting -= 1
            if claimed:
                await self.claims.release(job.run_id)
            raise
        self._store.adopt_queued(job.run_id)  # its turn updates its row
        self._turns.open_run(job.run_id, job.tenant)
        await self._turns.events.publish(
            RunStatusEvent(run_id=job.run_id, session_id=job.entry.session_id, status=RunStatus.QUEUED)
        )
        self._queue.put_nowait(job)
        return RunResult(
            run_id=job.run_id,
            session_id=job.entry.session_id,
            status=RunStatus.QUEUED,
            created_at=stored.created_at,
        )

    def adopt(self, job: BackgroundJob) -> None:
        """Queue a stored run taken over from a gateway that died (claimed by the caller): it runs
        here under its own run id, so the domains see the same idempotency keys."""
        self._waiting += 1
        self._store.adopt_queued(job.run_id)
        self._turns.open_run(job.run_id, job.tenant)
        self._queue.put_nowait(job)

    def _retry_after_s(self) -> float:
        """When a place is likely free: a run ends about every mean run time / workers."""
        estimate = self._mean_s / self.workers
        return min(max(estimate, _RETRY_AFTER_MIN_S), _RETRY_AFTER_MAX_S)

    async def _work(self) -> None:
        while True:
            job = await self._queue.get()
            self._waiting -= 1
            if not self.claims.holds(job.run_id):
                # another gateway took it over while it waited here (this one was out of reach)
                self._store.forget_queued(job.run_id)
                await job.slot.release()
                continue
            self._running[job.run_id] = job
            try:
                await self._run(job)
            finally:
                self._running.pop(job.run_id, None)

    async def _run(self, job: BackgroundJob) -> None:
        started = time.monotonic()
        turn_started = False
        recorded = True  # its row is final at the end (else it stays claimable for a takeover)
        try:
            if await self._store.unfinished_run(job.run_id) is None:
                return  # cancelled while queued, or (taken over) finished by its first holder
            await self._store.mark_running(job.run_id)
            turn_started = True
            await self._turns.handle(job.entry, run_id=job.run_id, tenant=job.tenant)
        except Exception as exc:
            if isinstance(exc, PlatformError):
                reason = exc.message
                log.warning("background run failed: %s", reason, extra={"run_id": job.run_id})
            else:
                reason = "The server had an error while processing this run."
                log.exception("background run failed", extra={"run_id": job.run_id})
            if not turn_started:  # the turn publishes its own end; followers must not wait forever
                await self._turns.events.publish(
                    RunFinished(run_id=job.run_id, status=RunStatus.FAILED, error=reason)
                )
            try:
                await self._store.fail_runs([job.run_id], reason)
            except Exception:
                recorded = False
                log.warning("background run's failure not recorded", extra={"run_id": job.run_id})
        finally:
            self._store.forget_queued(job.run_id)
            await job.slot.release()
            if recorded:
                await self.claims.release(job.run_id)
            else:  # still unfinished in the database: another pass (or gateway) ends it
                await self.claims.give_back(job.run_id)
            took = time.monotonic() - started
            self._mean_s += _DURATION_WEIGHT * (took - self._mean_s)


def _entry_extras(entry: EntryRequest) -> dict[str, Any]:
    """What a run's turn needs besides its session and text, stored with the queued run."""
    return {"channel": entry.channel, "metadata": entry.metadata, "pinned_domain": entry.pinned_domain}


def entry_of(session_id: str, input_text: str, extras: dict[str, Any]) -> EntryRequest:
    """The request of a stored run, as its turn takes it (``extras`` from :func:`_entry_extras`)."""
    return EntryRequest(
        session_id=session_id,
        input_text=input_text,
        channel=extras.get("channel", "rest"),
        metadata=extras.get("metadata") or {},
        pinned_domain=extras.get("pinned_domain"),
    )
