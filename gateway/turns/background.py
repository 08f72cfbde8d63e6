"""Background runs (``POST /v1/runs`` with ``background: true``) as durable workflows of the
engine (:mod:`gateway.durable`, DBOS Transact).

- A run is recorded ``queued`` before its 202 (findable by id from then on), then put on the
  engine's queue of background runs as the workflow ``bg:<run id>:<attempt>``. The queue is one
  for all gateways, stored in the database; each gateway runs at most ``BACKGROUND_WORKERS`` of
  its runs at once. Admission is decided before anything is recorded: when the unfinished runs
  reach ``BACKGROUND_WORKERS`` per live gateway plus ``BACKGROUND_QUEUE_MAX``, the request is a
  503 with ``Retry-After`` (an estimate from how long recent runs took). The count and the enqueue
  happen under one admission lock (in Redis when ``REDIS_URL`` is set, so gateways sharing a queue
  take turns; else in this process), so concurrent requests never admit past the bound.
- A worker's workflow moves the run to ``executing`` and runs its turn, whose trace then replaces
  the row; each plan step's domain call is a checkpointed step (:mod:`gateway.durable.steps`), so
  a run resumed after its gateway died (by the restarted gateway, or another one:
  :mod:`gateway.durable.liveness`) does not run its completed steps again.
- A run that ends without a stored turn (its session busy past ``SESSION_LOCK_WAIT_S``, a store
  out of reach) is recorded ``failed``, with the reason in its ``notes``; ``POST
  /v1/runs/{id}/retry`` queues it again (a new attempt of the same run id). ``POST
  /v1/runs/{id}/cancel`` cancels its workflow: a queued run never starts, a running one finishes
  its step in flight and starts no other.
- A gateway that stops stops its running workflows where they are (still unfinished in the
  engine) and lets its liveness lease lapse at once: another gateway, or this one restarted,
  resumes them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

from dbos import DBOS, Queue
from sqlalchemy.exc import IntegrityError

from gateway.coordination.locks import SessionLocks
from gateway.coordination.quotas import RunSlot
from gateway.durable.engine import DurableEngine, current_engine
from gateway.errors import RetryLater, storage_unavailable
from gateway.storage.runs import RunStore
from gateway.turns.idempotency import HEADER as IDEMPOTENCY_HEADER
from gateway.turns.turn import TurnService
from shared.clock import utcnow
from shared.errors import Conflict, PlatformError
from shared.events import RunFinished, RunStatusEvent
from shared.models import Channel, EntryRequest, RunResult
from shared.status import RunStatus

log = logging.getLogger(__name__)

#: The engine's queue of background runs (one for every gateway of the deployment).
QUEUE_NAME = "background-runs"
#: The bounds of the ``Retry-After`` of a full queue, in seconds.
_RETRY_AFTER_MIN_S = 1.0
_RETRY_AFTER_MAX_S = 60.0
#: How much one run's duration moves the running estimate (an exponential moving average).
_DURATION_WEIGHT = 0.2
#: How often the quota slots of runs accepted here but run elsewhere are checked for their end.
_SLOT_CHECK_S = 1.0
_UNFINISHED_WORKFLOW = ["ENQUEUED", "PENDING"]
_FINAL_WORKFLOW = frozenset({"SUCCESS", "ERROR", "CANCELLED", "MAX_RECOVERY_ATTEMPTS_EXCEEDED"})
#: The one key of the admission lock (its own lock store: never a session's key).
_ADMISSION = "background-runs"


class BackgroundQueueFull(RetryLater):
    """Every worker is busy and the queue is full: nothing was recorded, retry later."""

    status_code = 503
    code = "background_queue_full"
    error_type = "server_error"


def workflow_id(run_id: str, attempt: str = "0") -> str:
    """The workflow of one attempt of a run (a retry is a new attempt under the same run id)."""
    return f"bg:{run_id}:{attempt}"


@dataclass(frozen=True)
class BackgroundRequest:
    """What a background run's workflow is started with (stored by the engine as its input)."""

    run_id: str
    tenant: str
    session_id: str
    input_text: str
    channel: Channel = "rest"
    metadata: dict[str, Any] = field(default_factory=dict)
    pinned_domain: str | None = None

    @classmethod
    def of(cls, run_id: str, tenant: str, entry: EntryRequest) -> BackgroundRequest:
        return cls(
            run_id=run_id,
            tenant=tenant,
            session_id=entry.session_id,
            input_text=entry.input_text,
            channel=entry.channel,
            metadata=dict(entry.metadata),
            pinned_domain=entry.pinned_domain,
        )

    def entry(self) -> EntryRequest:
        return EntryRequest(
            session_id=self.session_id,
            input_text=self.input_text,
            channel=self.channel,
            metadata=self.metadata,
            pinned_domain=self.pinned_domain,
        )


@dataclass
class BackgroundJob:
    entry: EntryRequest
    run_id: str
    tenant: str
    #: The run's place in its key's concurrent-run quota, given back when the run ends.
    slot: RunSlot


@DBOS.workflow(name="gateway.background_run")
async def background_run(request: BackgroundRequest) -> None:
    """One background run, on whichever gateway's worker took it from the queue."""
    runs = await current_engine().get(BackgroundRuns)
    await runs.execute(request)


class BackgroundRuns:
    def __init__(
        self,
        turns: TurnService,
        store: RunStore,
        engine: DurableEngine,
        admission: SessionLocks,
        *,
        workers: int,
        queue_max: int,
        poll_s: float,
    ):
        self.workers = workers
        self.queue_max = queue_max
        self._poll_s = poll_s
        self._turns = turns
        self._store = store
        self._engine = engine
        self._queue: Queue | None = None
        #: runs executing on this gateway (their workflow's task)
        self._running: dict[str, asyncio.Task[Any]] = {}
        #: runs accepted here and not finished: their quota slot, given back when they end
        self._slots: dict[str, tuple[str, RunSlot]] = {}
        #: held from the room check until the run is on the queue (or refused)
        self._admission = admission
        #: admitted here, not yet on the queue (the queue-depth gauge counts them)
        self._admitting = 0
        self._slot_task: asyncio.Task[None] | None = None
        self._closing = False
        self._mean_s = 1.0

    def __len__(self) -> int:
        """Runs accepted here or running here, not finished (the queue-depth gauge)."""
        return len(self._running.keys() | self._slots.keys()) + self._admitting

    async def start(self) -> None:
        self._queue = await self._engine.queue(
            QUEUE_NAME, worker_concurrency=self.workers, polling_interval_s=self._poll_s
        )
        self._engine.provide(BackgroundRuns, self)
        self._slot_task = asyncio.create_task(self._release_slots(), name="background-slots")

    async def stop(self) -> None:
        """Stop the runs in flight where they are: still unfinished in the engine, they are
        resumed by another gateway (or this one restarted) from their last completed step."""
        self._closing = True
        if self._slot_task is not None:
            self._slot_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._slot_task
        running = list(self._running.values())
        for task in running:
            task.cancel()
        await asyncio.gather(*running, return_exceptions=True)
        for _, slot in self._slots.values():
            await slot.release()
        self._slots.clear()

    def capacity(self) -> int:
        """Unfinished runs the deployment takes: a worker's worth per live gateway, and the queue."""
        return self.workers * self._engine.liveness.live_gateways + self.queue_max

    async def _check_room(self) -> None:
        """:class:`BackgroundQueueFull` if every place is taken (a refusal that records nothing)."""
        capacity = self.capacity()
        unfinished = await DBOS.list_workflows_async(
            status=_UNFINISHED_WORKFLOW,
            queue_name=QUEUE_NAME,
            load_input=False,
            load_output=False,
            limit=capacity,
        )
        if self._closing or len(unfinished) >= capacity:
            raise self._full()

    def _full(self) -> BackgroundQueueFull:
        return BackgroundQueueFull(
            "Too many background runs are waiting; send this one again later.",
            retry_after_s=self._retry_after_s(),
        )

    @contextlib.asynccontextmanager
    async def _admit(self) -> AsyncIterator[None]:
        """Take a place and hold the admission lock until the block has put the run on the queue
        (the next request's count then sees it), or :class:`BackgroundQueueFull`."""
        async with contextlib.AsyncExitStack() as held:
            try:
                await held.enter_async_context(self._admission.hold(_ADMISSION))
            except Conflict:  # the lock stayed taken past its wait: as busy as a full queue
                raise self._full() from None
            await self._check_room()
            self._admitting += 1
            try:
                yield
            finally:
                self._admitting -= 1

    async def submit(self, job: BackgroundJob) -> RunResult:
        """Admit ``job``, record it ``queued`` and put it on the queue; :class:`BackgroundQueueFull`
        (before anything is recorded) when every place is taken."""
        async with self._admit():
            queued = RunResult(
                run_id=job.run_id,
                session_id=job.entry.session_id,
                status=RunStatus.QUEUED,
                created_at=utcnow(),
            )
            try:
                await self._store.queue_run(
                    queued,
                    input_text=job.entry.input_text,
                    channel=job.entry.channel,
                    tenant=job.tenant,
                    entry=_entry_extras(job.entry),
                )
            except IntegrityError:  # its Idempotency-Key's twin was accepted meanwhile
                raise Conflict(
                    f"The request with this {IDEMPOTENCY_HEADER} is still running (run '{job.run_id}'); "
                    "ask again once it has finished.",
                    param=IDEMPOTENCY_HEADER,
                ) from None
            self._turns.open_run(job.run_id, job.tenant)
            await self._turns.events.publish(
                RunStatusEvent(run_id=job.run_id, session_id=job.entry.session_id, status=RunStatus.QUEUED)
            )
            await self._enqueue(job, workflow_id(job.run_id))
        return queued

    async def retry(self, job: BackgroundJob, note: str) -> RunResult:
        """Queue a failed run again under its own run id (a new attempt), so its domains see the
        same per-step idempotency keys: the steps that succeeded answer from what they did, the
        rest run. :class:`Conflict` unless it is ``failed``; :class:`BackgroundQueueFull` when
        every place is taken."""
        async with self._admit():
            stored = await self._store.requeue_retryable(job.run_id, note)
            if stored is None:
                raise Conflict(
                    f"Run '{job.run_id}' has not failed: only a failed run is retried.", param="run_id"
                )
            self._turns.open_run(job.run_id, job.tenant)
            await self._turns.events.publish(
                RunStatusEvent(run_id=job.run_id, session_id=job.entry.session_id, status=RunStatus.QUEUED)
            )
            await self._enqueue(job, workflow_id(job.run_id, str(int(time.time() * 1000))))
        return RunResult(
            run_id=job.run_id,
            session_id=job.entry.session_id,
            status=RunStatus.QUEUED,
            created_at=stored.created_at,
        )

    async def _enqueue(self, job: BackgroundJob, workflow: str) -> None:
        assert self._queue is not None, "BackgroundRuns.start() first"
        request = BackgroundRequest.of(job.run_id, job.tenant, job.entry)
        self._slots[job.run_id] = (workflow, job.slot)  # before a worker can take it
        try:
            await self._engine.enqueue(self._queue, background_run, workflow, request)
        except Exception as exc:
            self._slots.pop(job.run_id, None)
            log.exception("background run not queued", extra={"run_id": job.run_id})
            with contextlib.suppress(Exception):
                await self._store.fail_runs([job.run_id], "The run could not be queued; send it again.")
            raise storage_unavailable() from exc

    async def cancel(self, run_id: str) -> None:
        """Cancel the run's unfinished workflows: a queued one never starts; a running one
        finishes its step in flight and starts no other."""
        unfinished = await DBOS.list_workflows_async(
            workflow_id_prefix=workflow_id(run_id, ""),
            status=_UNFINISHED_WORKFLOW,
            load_input=False,
            load_output=False,
        )
        for workflow in unfinished:
            await DBOS.cancel_workflow_async(workflow.workflow_id)

    def _retry_after_s(self) -> float:
        """When a place is likely free: a run ends about every mean run time / workers."""
        estimate = self._mean_s / self.workers
        return min(max(estimate, _RETRY_AFTER_MIN_S), _RETRY_AFTER_MAX_S)

    async def execute(self, request: BackgroundRequest) -> None:
        """The workflow's body: run the turn of a queued run (again, if resumed)."""
        if self._closing:  # stopping: left unfinished in the engine, for another gateway
            raise asyncio.CancelledError
        run_id = request.run_id
        task = asyncio.current_task()
        if task is not None:
            self._running[run_id] = task
        started = time.monotonic()
        turn_started = False
        try:
            if await self._store.unfinished_run(run_id) is None:
                return  # cancelled while queued, or finished by an earlier execution
            self._store.adopt_queued(run_id)  # its row exists: the turn updates it
            self._turns.open_run(run_id, request.tenant)
            await self._store.mark_running(run_id)
            turn_started = True
            await self._turns.handle(request.entry(), run_id=run_id, tenant=request.tenant)
        except Exception as exc:
            if isinstance(exc, PlatformError):
                reason = exc.message
                log.warning("background run failed: %s", reason, extra={"run_id": run_id})
            else:
                reason = "The server had an error while processing this run."
                log.exception("background run failed", extra={"run_id": run_id})
            if not turn_started:  # the turn publishes its own end; followers must not wait forever
                await self._turns.events.publish(
                    RunFinished(run_id=run_id, status=RunStatus.FAILED, error=reason)
                )
            # not recorded: the workflow fails with it, and the engine keeps the error
            await self._store.fail_runs([run_id], reason)
        finally:
            self._running.pop(run_id, None)
            self._store.forget_queued(run_id)
            accepted_here = self._slots.pop(run_id, None)
            if accepted_here is not None:
                await accepted_here[1].release()
            took = time.monotonic() - started
            self._mean_s += _DURATION_WEIGHT * (took - self._mean_s)

    async def _release_slots(self) -> None:
        """Give back the quota slots of runs accepted here that another gateway ran."""
        while True:
            await asyncio.sleep(_SLOT_CHECK_S)
            elsewhere = {wf: run_id for run_id, (wf, _) in self._slots.items() if run_id not in self._running}
            if not elsewhere:
                continue
            try:
                statuses = await DBOS.list_workflows_async(
                    workflow_ids=list(elsewhere), load_input=False, load_output=False
                )
            except Exception:
                log.warning("background runs' ends not checked (tried again shortly)")
                continue
            for status in statuses:
                if status.status in _FINAL_WORKFLOW:
                    held = self._slots.pop(elsewhere[status.workflow_id], None)
                    if held is not None:
                        await held[1].release()


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
