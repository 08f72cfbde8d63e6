"""One conversation turn: the session's graph (:mod:`dialogue.graph`) resumed with the new
message, under the session's lock, and the turn's trace stored as a run.

Every turn is a tenant's: under the session's lock, before the graph is touched, the session must
be the tenant's own or a new id it claims (:meth:`gateway.storage.runs.RunStore.claim_session`, one
atomic insert-if-absent of the session row), so no channel can continue or read another tenant's
conversation, and of two tenants starting one new id at once the loser is refused before it runs.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Awaitable, Callable
from datetime import datetime
from functools import partial
from typing import NamedTuple

from opentelemetry.trace import Span
from sqlalchemy.exc import DBAPIError

from dialogue.approval_turn import ApprovalTurn
from dialogue.graph import ConversationGraph, TurnDeps
from dialogue.state import TurnState
from execution.runner import RunController
from gateway.coordination.locks import LocalSessionLocks, SessionLocks
from gateway.errors import storage_unavailable
from gateway.storage.runs import RunStore, no_session
from gateway.telemetry import (
    ACTIVE_SESSIONS,
    REPLANS,
    TURNS,
    domain_wait_ms,
    log_turn,
    note_domain_wait,
    record_turn,
)
from gateway.turns.approvals import ApprovalLedger, OutsideDecision
from gateway.turns.events import RunEventHub
from gateway.turns.idempotency import replayable
from gateway.turns.reservation import ReservedDomains
from graph import (
    Checkpointer,
    ExtraWrite,
    GraphEngine,
    GraphResult,
    GraphRuntimeError,
    OnCommit,
    SessionNotFoundError,
)
from intent import IntentAdapter
from orchestrator.registry import DomainRegistry
from shared.clock import utcnow
from shared.events import RunFinished, RunStatusEvent, StepEvent
from shared.models import EntryRequest, RunResult
from shared.status import RunStatus
from shared.telemetry.tracing import CONVERSATION, OPERATION, start_span


class TracedTurn(NamedTuple):
    run: RunResult
    #: ``run.model_dump_json()``: the stored trace, and the native REST response body
    trace_json: str


#: A stored run still on its way: a retry under its id runs its turn (again) rather than replaying it.
UNFINISHED_RUN = frozenset({RunStatus.QUEUED, RunStatus.EXECUTING})


def new_run_id() -> str:
    return f"run-{uuid.uuid4().hex}"


#: Live runs whose tenant is remembered at most (the event hub keeps a finished run a while).
_LIVE_OWNERS_MAX = 10_000


class TurnService:
    def __init__(
        self,
        *,
        adapter: IntentAdapter,
        registry: DomainRegistry,
        domains: ReservedDomains,
        store: RunStore,
        checkpointer: Checkpointer,
        locks: SessionLocks | None = None,
        controller: RunController,
        before_turn: Callable[[], Awaitable[None]] | None = None,
        events: RunEventHub | None = None,
        metrics: bool = True,
        approvals: ApprovalLedger | None = None,
    ):
        #: record the turn, step and intent metrics (``METRICS_ENABLED``)
        self.metrics = metrics
        self.registry = registry
        self.before_turn = before_turn
        self.events = events or RunEventHub()
        self.store = store
        #: approvals asked and settled by turns are stored with them (none stored without one)
        self.approvals = approvals or ApprovalLedger(None)
        self.locks = locks or LocalSessionLocks()
        #: run id -> tenant, for runs whose events are followed live (:meth:`run_tenant`)
        self._run_tenants: dict[str, str] = {}
        #: a run's first domain call waits until the run is stored (nothing acts unrecorded)
        self.domains = domains
        self.graph = ConversationGraph(
            adapter=adapter,
            catalog=lambda: registry.catalog,
            orchestrator=self.domains,
            controller=controller,
        )
        # "exit": a turn's intermediate states stay in memory; the pause that ends every turn is
        # always stored before the answer goes out, so a waiting session is never lost.
        self.engine: GraphEngine[TurnState] = GraphEngine(
            self.graph.definition(), checkpointer, durability="exit"
        )

    async def check_access(self, session_id: str, tenant: str) -> None:
        """``NotFound`` (as for a missing session) unless ``tenant`` may write to ``session_id``:
        its own session or a new id. Every turn calls it under the session's lock; a channel
        that answers before the turn runs (a stream, a background run) calls it first too, so
        the refusal is a 404 rather than an error after a 200 or a 202."""
        if not await self.store.claimable(session_id, tenant):
            raise no_session(session_id)

    def open_run(self, run_id: str, tenant: str) -> None:
        """Make ``run_id``'s live events followable by ``tenant`` (before the turn starts)."""
        self.events.open(run_id)
        if run_id not in self._run_tenants and len(self._run_tenants) >= _LIVE_OWNERS_MAX:
            self._run_tenants.pop(next(iter(self._run_tenants)))
        self._run_tenants[run_id] = tenant

    def run_tenant(self, run_id: str) -> str | None:
        """The tenant of a run whose events this process holds, if it does."""
        return self._run_tenants.get(run_id) if self.events.has(run_id) else None

    async def handle(
        self,
        entry: EntryRequest,
        run_id: str | None = None,
        *,
        tenant: str,
        replay_stored: bool = False,
        outside: OutsideDecision | None = None,
    ) -> RunResult:
        """Run one turn for ``tenant``. ``run_id`` may be chosen by the caller beforehand, so a
        client can follow ``/v1/runs/{run_id}/events`` while it runs."""
        traced = await self.handle_traced(
            entry, run_id, tenant=tenant, replay_stored=replay_stored, outside=outside
        )
        return traced.run

    async def handle_traced(
        self,
        entry: EntryRequest,
        run_id: str | None = None,
        *,
        tenant: str,
        replay_stored: bool = False,
        outside: OutsideDecision | None = None,
    ) -> TracedTurn:
        """:meth:`handle`, with the run's JSON as it was stored (a response body, ready made).

        ``tenant`` is the caller's (a ``/v1`` request's principal, or the owner a turn runs as);
        an empty one is refused: no turn runs as nobody's. ``replay_stored`` (a run id named by
        an ``Idempotency-Key``): when ``run_id`` is already stored once the session's lock is
        held (a twin request finished first), that run is the answer; no turn runs. ``outside``:
        the turn carries out a decision on its session's pending approval made outside the chat
        (an approver, a deadline, a reminder; gateway/turns/approval_decisions.py)."""
        owner = tenant
        run_id = run_id or new_run_id()
        self.open_run(run_id, owner or "")
        started = time.perf_counter()
        since = utcnow()
        if self.metrics:
            ACTIVE_SESSIONS.inc()
        span_attributes = {OPERATION: "invoke_workflow", CONVERSATION: entry.session_id, "run.id": run_id}
        try:
            if not owner:
                raise RuntimeError("a turn needs a tenant")
            with start_span("invoke_workflow", span_attributes) as span:
                if self.before_turn is not None:
                    await self.before_turn()
                turn, ran = await self._locked(entry, run_id, owner, replay_stored, outside)
                if ran:  # inside the span: the log line names its trace
                    self._measured(turn.run, span, started, since)
            return turn
        except DBAPIError as exc:
            # the database refused a read or a write: a 503 to retry, never a 500
            await self._failed(run_id, storage_unavailable())
            raise storage_unavailable() from exc
        except Exception as exc:
            await self._failed(run_id, exc)
            raise
        finally:
            if self.metrics:
                ACTIVE_SESSIONS.dec()

    async def _locked(
        self,
        entry: EntryRequest,
        run_id: str,
        tenant: str,
        replay_stored: bool,
        outside: OutsideDecision | None,
    ) -> tuple[TracedTurn, bool]:
        """The turn under the session's lock, once ``tenant`` may write to the session; True: it
        ran (False: ``run_id`` was stored finished already, and that run is the answer)."""
        async with self.locks.hold(entry.session_id):
            # the decision itself, atomic where the session row is made: of two tenants
            # starting one new id at once, the loser is refused before anything runs
            claim = await self.store.claim_session(entry.session_id, tenant, channel=entry.channel)
            if not claim.owned:
                raise no_session(entry.session_id)
            stored = await self.store.owned_run(run_id, tenant) if replay_stored else None
            if stored is not None and stored.status not in UNFINISHED_RUN:
                return TracedTurn(replayable(stored), stored.model_dump_json()), False
            # an unfinished one (its gateway died mid-turn) runs again under its run id:
            # the domains answer the steps it already sent from their idempotency keys
            return await self._turn(entry, run_id, tenant, outside), True

    def _measured(self, run: RunResult, span: Span | None, started: float, since: datetime) -> None:
        """The turn's status on its span, its time waiting on domains, its metrics and log line."""
        if span is not None:
            span.set_attribute("run.status", run.status.value)
        wait_ms = domain_wait_ms(run, since)
        note_domain_wait(wait_ms / 1000.0)
        took_s = time.perf_counter() - started
        if self.metrics:
            record_turn(run, took_s, wait_ms / 1000.0)
        log_turn(run, took_s, wait_ms / 1000.0)

    async def _failed(self, run_id: str, exc: Exception) -> None:
        if self.metrics:
            TURNS.labels("error").inc()
        # followers must not wait forever for a run that died (a 409, a storage error...)
        await self.events.publish(
            RunFinished(
                run_id=run_id, status=RunStatus.FAILED, error=getattr(exc, "message", "internal error")
            )
        )

    async def _turn(
        self, entry: EntryRequest, run_id: str, tenant: str, outside: OutsideDecision | None
    ) -> TracedTurn:
        created = utcnow()
        stored: list[TracedTurn] = []
        approvals = self.approvals.begin(
            entry.session_id, run_id, tenant=tenant, channel=entry.channel, outside=outside
        )

        def record_turn(result: GraphResult[TurnState]) -> list[ExtraWrite]:
            # the run trace is committed in the same transaction as the graph's pause
            run = result.state.run_result(created_at=created, finished_at=utcnow())
            turn = TracedTurn(run, run.model_dump_json())
            stored.append(turn)
            return [
                self.store.turn_write(
                    run,
                    turn.trace_json,
                    input_text=entry.input_text,
                    channel=entry.channel,
                    tenant=tenant,
                    events=2,
                ),
                *self.approvals.writes(approvals, result.state),
            ]

        await self.events.publish(
            RunStatusEvent(run_id=run_id, session_id=entry.session_id, status=RunStatus.EXECUTING)
        )
        reserve = partial(self._reserve, entry, run_id, created)
        recorded = self.store.recorded_before_turn(run_id)  # a background run's row exists already
        try:
            # a background run (recorded before its turn) may be cancelled from any gateway
            cancelled = partial(self._cancelled, run_id) if recorded else None
            with self.domains.expect(run_id, _nothing if recorded else reserve, cancelled) as reservation:
                await self._advance(entry, run_id, record_turn, approvals.current)
        finally:
            if not recorded:
                self.store.forget_queued(run_id)
        if reservation.failed is not None:
            raise storage_unavailable() from reservation.failed
        turn = stored[-1]  # every turn ends in a pause (idle or a question), which stored it
        await self.approvals.stored(approvals)  # an approval it asked gets its reminder and expiry
        run = turn.run
        await self.events.publish(
            RunFinished(
                run_id=run_id,
                session_id=entry.session_id,
                status=run.status,
                answer=run.answer,
                event_id=run.event_id,
            )
        )
        return turn

    async def _publish_step(self, event: RunStatusEvent | StepEvent) -> None:
        """A graph event of the run: its steps are published; its own status is published by
        :meth:`_turn`, around the graph."""
        if not isinstance(event, StepEvent):
            return
        if self.metrics and event.decision == "replanning":
            REPLANS.inc()
        await self.events.publish(event)

    async def _reserve(self, entry: EntryRequest, run_id: str, created: datetime) -> None:
        """The run's row, before the turn does anything (an interactive run has none yet)."""
        reserved = RunResult(
            run_id=run_id, session_id=entry.session_id, status=RunStatus.EXECUTING, created_at=created
        )
        # on the connection that will store the turn's pause (SQLite: one hand-off to its thread)
        checkpointer = self.engine.checkpointer
        await self.store.reserve_run(reserved, input_text=entry.input_text, through=checkpointer)

    async def _cancelled(self, run_id: str) -> bool:
        return await self.store.run_status(run_id) is RunStatus.CANCELLED

    async def _advance(
        self, entry: EntryRequest, run_id: str, on_commit: OnCommit[TurnState], approval: ApprovalTurn
    ) -> GraphResult[TurnState]:
        """Resume the session's graph with the message (and ``approval``: what the turn is handed
        of approvals), or start it (first message, or after a reset / a broken session). The
        turn's step events reach its followers through the turn's own :class:`TurnDeps`."""
        session_id = entry.session_id
        deps = TurnDeps(on_event=self._publish_step)
        try:
            return await self.engine.resume(
                session_id, self.graph.message(entry, run_id, approval), on_commit=on_commit, deps=deps
            )
        except SessionNotFoundError:
            pass
        except GraphRuntimeError:
            # not resumable (failed or finished): start over; the runs already stored stay
            await self.engine.delete(session_id)
        # event ids go on from where the session was (a reset keeps its numbering)
        session = await self.store.load_session(session_id)
        first = self.graph.first_state(entry, run_id, event_count=session.event_count, approval=approval)
        return await self.engine.run(first, session_id=session_id, on_commit=on_commit, deps=deps)


async def _nothing() -> None:
    """The reservation of a run whose row was stored before its turn."""
