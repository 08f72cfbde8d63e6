"""One conversation turn: intent -> resolve -> plan -> gate -> execute -> respond.

Each stage is its own small function so the turn maps one-to-one onto graph nodes.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

from execution.dag import DagExecutor
from gateway.runs import RunStore, SessionSnapshot
from intent import IntentAdapter
from orchestrator.orchestrator import Orchestrator
from orchestrator.registry import DomainRegistry
from planner.memory import SessionMemory
from planner.service import PlannerService
from shared.errors import PlatformError
from shared.models import (
    DomainOutput,
    EntryRequest,
    ExecutionIntent,
    ExecutionStep,
    IntentOutput,
    PendingQuestion,
    RunResult,
    StepTrace,
)
from shared.status import RunStatus

EventSink = Callable[[dict[str, Any]], Awaitable[None]]


def memory_to_dict(memory: SessionMemory) -> dict[str, Any]:
    return {
        "last_intent": memory.last_intent.model_dump(mode="json") if memory.last_intent else None,
        "last_execution_intent": (
            memory.last_execution_intent.model_dump(mode="json") if memory.last_execution_intent else None
        ),
        "last_answer": memory.last_answer,
        "last_outputs": [o.model_dump(mode="json") for o in memory.last_outputs],
    }


def memory_from_dict(data: dict[str, Any]) -> SessionMemory:
    return SessionMemory(
        last_intent=IntentOutput.model_validate(data["last_intent"]) if data.get("last_intent") else None,
        last_execution_intent=(
            ExecutionIntent.model_validate(data["last_execution_intent"])
            if data.get("last_execution_intent")
            else None
        ),
        last_answer=data.get("last_answer", ""),
        last_outputs=[DomainOutput.model_validate(o) for o in data.get("last_outputs", [])],
    )


def new_run_id() -> str:
    return f"run-{uuid.uuid4().hex}"


def now() -> datetime:
    return datetime.now(UTC)


class TurnService:
    def __init__(self, *, adapter: IntentAdapter, registry: DomainRegistry, orchestrator: Orchestrator, store: RunStore):
        self.adapter = adapter
        self.registry = registry
        self.orchestrator = orchestrator
        self.store = store
        self._planner: PlannerService | None = None
        self._planner_fingerprint = ""

    def planner(self) -> PlannerService:
        catalog = self.registry.catalog
        if self._planner is None or catalog.fingerprint != self._planner_fingerprint:
            self._planner = PlannerService(catalog)
            self._planner_fingerprint = catalog.fingerprint
        return self._planner

    async def handle(self, entry: EntryRequest, on_event: EventSink | None = None) -> RunResult:
        started = time.perf_counter()
        session = await self.store.load_session(entry.session_id)
        result = RunResult(
            run_id=new_run_id(), session_id=entry.session_id, status=RunStatus.PENDING, created_at=now()
        )
        try:
            await self._run(entry, session, result, on_event)
        except PlatformError as exc:
            result.status = RunStatus.FAILED
            result.answer = exc.message
        result.finished_at = now()
        memory = self._next_memory(session, result)
        await self.store.save_turn(
            result,
            input_text=entry.input_text,
            channel=entry.channel,
            memory=memory,
            pending_question=result.question.model_dump(mode="json") if result.question else None,
        )
        if on_event is not None:
            await on_event(
                {"type": "run", "status": result.status.value, "elapsed_ms": (time.perf_counter() - started) * 1e3}
            )
        return result

    # ------------------------------------------------------------------ stages

    async def _run(
        self, entry: EntryRequest, session: SessionSnapshot, result: RunResult, on_event: EventSink | None
    ) -> None:
        intent = await self.adapter.parse(
            entry.input_text, pinned_domain=entry.pinned_domain, context={"session_id": entry.session_id}
        )
        result.intent = intent
        memory = memory_from_dict(session.memory) if session.memory else None
        execution_intent, plan = self.planner().plan(intent, memory)
        result.execution_intent = execution_intent
        result.plan = plan
        if self.orchestrator.gate_blocks(execution_intent):
            self._ask_confirmation(result, intent, execution_intent)
            return

        async def emit(step: StepTrace) -> None:
            if on_event is not None:
                await on_event({"type": "step", "step": step.model_dump(mode="json")})

        executor = DagExecutor(self._run_step, on_event=emit)
        report = await executor.execute(
            plan,
            original_query=entry.input_text,
            confidence=execution_intent.confidence,
            context={"run_id": result.run_id, "session_id": entry.session_id, "language": intent.language},
        )
        result.status = report.status
        result.steps = report.steps
        result.output = report.output
        result.answer = self._answer(report.output, intent.language)
        if report.status == RunStatus.WAITING_INPUT and report.output is not None:
            result.question = PendingQuestion(
                kind="domain_clarification",
                text=result.answer,
                options=list(report.output.result.get("candidates", [])),
                resume={"goal": intent.goal, "domain": intent.primary_domain, "entities": intent.entities},
            )

    async def _run_step(self, intent: ExecutionIntent, step: ExecutionStep) -> DomainOutput:
        ref = self.registry.catalog.find_capability(intent.capability, intent.domain)
        if ref is not None and (ref.capability.role == "fallback" or "catalog" in ref.capability.metadata.context):
            # help and out-of-scope answers list what the platform can do: hand them the catalog
            intent.context["catalog"] = [
                {"domain": g.domain, "goal": g.goal.goal, "description": g.goal.description}
                for g in self.registry.catalog.goals()
            ]
        return await self.orchestrator.execute(intent, step)

    def _ask_confirmation(self, result: RunResult, intent: IntentOutput, ei: ExecutionIntent) -> None:
        options = [a.model_dump() for a in intent.alternatives[:3]] or [
            {"domain": ei.domain, "goal": intent.goal, "confidence": intent.confidence}
        ]
        described = []
        for option in options:
            goal = self.registry.catalog.find_goal(option["domain"], option["goal"])
            described.append(goal.description if goal else option["goal"])
        if intent.language == "en":
            text = "I'm not sure I understood. Did you mean: " + " or ".join(f"'{d}'" for d in described) + "?"
        else:
            text = "Não tenho certeza se entendi. Você quis dizer: " + " ou ".join(f"'{d}'" for d in described) + "?"
        result.status = RunStatus.WAITING_INPUT
        result.answer = text
        result.output = DomainOutput(
            status="clarification",
            explanation=text,
            confidence=intent.confidence,
            result={"options": options},
            metadata={"resolution": "confidence_gate"},
        )
        result.question = PendingQuestion(
            kind="confidence_gate",
            text=text,
            options=options,
            resume={"goal": intent.goal, "domain": intent.primary_domain, "entities": intent.entities},
        )

    @staticmethod
    def _answer(output: DomainOutput | None, language: str) -> str:
        if output is None:
            return "Não consegui processar o pedido." if language != "en" else "I could not process the request."
        return output.explanation or (
            "Pronto." if output.status == "success" and language != "en" else "Done." if output.status == "success"
            else "Não consegui concluir o pedido." if language != "en" else "I could not complete the request."
        )

    @staticmethod
    def _next_memory(session: SessionSnapshot, result: RunResult) -> dict[str, Any]:
        memory = memory_from_dict(session.memory) if session.memory else SessionMemory()
        if result.intent is not None and result.status == RunStatus.COMPLETED:
            outputs = [s.output for s in result.steps if s.output is not None]
            memory.remember(result.intent, result.execution_intent, result.answer, outputs)
        return memory_to_dict(memory)
