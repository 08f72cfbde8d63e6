"""One conversation turn: the session's graph (:mod:`dialogue.graph`) resumed with the new
message, under the session's lock, and the turn's trace stored as a run.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Awaitable, Callable
from typing import Any, NamedTuple

from dialogue.graph import ConversationGraph
from dialogue.state import TurnState
from execution.dag import StepRunner
from execution.graph import (
    Checkpointer,
    ExtraWrite,
    GraphEngine,
    GraphResult,
    GraphRuntimeError,
    OnCommit,
    SessionNotFoundError,
)
from execution.runner import RunController
from gateway.events import TERMINAL_EVENT, RunEventHub
from gateway.locks import LocalSessionLocks, SessionLocks
from gateway.runs import RunStore
from gateway.telemetry import ACTIVE_SESSIONS, REPLANS, TURNS, domain_wait_ms, note_domain_wait, record_turn
from intent import IntentAdapter
from orchestrator.orchestrator import Orchestrator
from orchestrator.registry import DomainRegistry
from shared.clock import utcnow
from shared.models import EntryRequest, RunResult
from shared.status import RunStatus
from shared.telemetry.tracing import CONVERSATION, OPERATION, start_span


class TracedTurn(NamedTuple):
    run: RunResult
    #: ``run.model_dump_json()``: the stored trace, and the native REST response body
    trace_json: str


def new_run_id() -> str:
    return f"run-{uuid.uuid4().hex}"


class TurnService:
    def __init__(
        self,
        *,
        adapter: IntentAdapter,
        registry: DomainRegistry,
        orchestrator: Orchestrator,
        store: RunStore,
        checkpointer: Checkpointer,
        locks: SessionLocks | None = None,
        controller: Callable[[StepRunner], RunController] | None = None,
        before_turn: Callable[[], Awaitable[None]] | None = None,
        events: RunEventHub | None = None,
        metrics: bool = True,
    ):
        #: record the turn, step and intent metrics (``METRICS_ENABLED``)
        self.metrics = metrics
        self.registry = registry
        self.before_turn = before_turn
        self.events = events or RunEventHub()
        self.store = store
        self.locks = locks or LocalSessionLocks()
        self.graph = ConversationGraph(
            adapter=adapter,
            catalog=lambda: registry.catalog,
            orchestrator=orchestrator,
            controller=controller,
        )
        # "exit": a turn's intermediate states stay in memory; the pause that ends every turn is
        # always stored before the answer goes out, so a waiting session is never lost.
        self.engine: GraphEngine[TurnState] = GraphEngine(
            self.graph.definition(), checkpointer, durability="exit"
        )

    async def handle(self, entry: EntryRequest, run_id: str | None = None) -> RunResult:
        """Run one turn. ``run_id`` may be chosen by the caller beforehand, so a client can follow
        ``/v1/runs/{run_id}/events`` while it runs."""
        return (await self.handle_traced(entry, run_id)).run

    async def handle_traced(self, entry: EntryRequest, run_id: str | None = None) -> TracedTurn:
        """:meth:`handle`, with the run's JSON as it was stored (a response body, ready made)."""
        run_id = run_id or new_run_id()
        self.events.open(run_id)
        started = time.perf_counter()
        since = utcnow()
        if self.metrics:
            ACTIVE_SESSIONS.inc()
        span_attributes = {OPERATION: "invoke_workflow", CONVERSATION: entry.session_id, "run.id": run_id}
        try:
            with start_span("invoke_workflow", span_attributes) as span:
                if self.before_turn is not None:
                    await self.before_turn()
                async with self.locks.hold(entry.session_id):
                    turn = await self._turn(entry, run_id)
                if span is not None:
                    span.set_attribute("run.status", turn.run.status.value)
                wait_ms = domain_wait_ms(turn.run, since)
                note_domain_wait(wait_ms / 1000.0)
                if self.metrics:  # inside the span: the log lines name its trace
                    record_turn(turn.run, time.perf_counter() - started, wait_ms / 1000.0)
            return turn
        except Exception as exc:
            if self.metrics:
                TURNS.labels("error").inc()
            # followers must not wait forever for a run that died (a 409, a storage error...)
            await self.events.publish(
                run_id,
                {
                    "type": TERMINAL_EVENT,
                    "run_id": run_id,
                    "status": RunStatus.FAILED.value,
                    "error": getattr(exc, "message", "internal error"),
                },
            )
            raise
        finally:
            if self.metrics:
                ACTIVE_SESSIONS.dec()

    async def _turn(self, entry: EntryRequest, run_id: str) -> TracedTurn:
        created = utcnow()

        async def run_event(event: dict[str, Any]) -> None:
            if event.get("type") != "step":
                return  # the run's own status is published here, around the graph
            if self.metrics and event.get("decision") == "replanning":
                REPLANS.inc()
            await self.events.publish(
                run_id,
                {
                    "type": "step",
                    "run_id": run_id,
                    "step_id": event.get("step"),
                    "capability": event.get("capability"),
                    "domain": event.get("domain"),
                    "status": event.get("status"),
                    "attempts": event.get("attempts"),
                    "error": event.get("error"),
                },
            )

        stored: list[TracedTurn] = []

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
                    events=2,
                )
            ]

        self.graph.listeners[run_id] = run_event
        await self.events.publish(
            run_id,
            {
                "type": "run.status",
                "run_id": run_id,
                "session_id": entry.session_id,
                "status": RunStatus.EXECUTING.value,
            },
        )
        try:
            await self._advance(entry, run_id, record_turn)
        finally:
            self.graph.listeners.pop(run_id, None)
        turn = stored[-1]  # every turn ends in a pause (idle or a question), which stored it
        run = turn.run
        await self.events.publish(
            run_id,
            {
                "type": TERMINAL_EVENT,
                "run_id": run_id,
                "session_id": entry.session_id,
                "status": run.status.value,
                "answer": run.answer,
                "event_id": run.event_id,
            },
        )
        return turn

    async def _advance(self, entry: EntryRequest, run_id: str, on_commit: OnCommit) -> GraphResult[TurnState]:
        """Resume the session's graph with the message, or start it (first message, or after a
        reset / a broken session)."""
        session_id = entry.session_id
        try:
            return await self.engine.resume(
                session_id, self.graph.message(entry, run_id), on_commit=on_commit
            )
        except SessionNotFoundError:
            pass
        except GraphRuntimeError:
            # not resumable (failed or finished): start over; the runs already stored stay
            await self.engine.delete(session_id)
        # event ids go on from where the session was (a reset keeps its numbering)
        session = await self.store.load_session(session_id)
        first = self.graph.first_state(entry, run_id, event_count=session.event_count)
        return await self.engine.run(first, session_id=session_id, on_commit=on_commit)
