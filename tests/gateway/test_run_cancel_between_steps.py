"""A cancelled run starts no further step (gateway/turns/reservation.py), with the real run loop,
orchestrator and an SDK domain served in process: the step in flight when the cancel comes
finishes, the next one never reaches the domain. And a run whose reservation cannot be stored
reaches no domain at all."""

from __future__ import annotations

import asyncio

import httpx

from execution.runner import RunController
from gateway.turns.reservation import ReservedDomains
from orchestrator import DomainClient, DomainRegistry, Orchestrator
from sdk.service import DomainService
from shared.models import DomainOutput, ExecutionIntent, ExecutionPlan, ExecutionStep, IntentOutput
from shared.status import RunStatus
from tests.orchestrator.conftest import Hosts

INTENT = IntentOutput(primary_domain="mill", goal=None, original_query="grind", language="en", confidence=1.0)
PLAN = ExecutionPlan(
    steps=[
        ExecutionStep(id=1, domain="mill", capability="grind"),
        ExecutionStep(id=2, domain="mill", capability="grind", depends_on=[1]),
    ],
    combine_mode="report",
)


def mill(started: asyncio.Event, release: asyncio.Event) -> DomainService:
    svc = DomainService("mill", "1", "Grinds grain", confidence_gate=False)

    @svc.capability("grind", "Grind a sack", metadata={"policy": {"attempts": 1, "timeout_s": 10.0}})
    async def grind(intent: ExecutionIntent) -> DomainOutput:
        started.set()
        await release.wait()
        return DomainOutput(status="success", explanation="ground")

    return svc


async def _stack(svc: DomainService) -> tuple[ReservedDomains, DomainRegistry]:
    hosts = Hosts()
    client = DomainClient(httpx.AsyncClient(transport=hosts))
    registry = DomainRegistry(client, env={})
    await registry.register("mill", hosts.serve("mill.test", svc.app()))
    return ReservedDomains(Orchestrator(registry, client)), registry


async def _reserved() -> None:
    return None


async def test_a_cancel_during_a_step_lets_it_finish_and_starts_no_next_step() -> None:
    started, release = asyncio.Event(), asyncio.Event()
    svc = mill(started, release)
    domains, registry = await _stack(svc)
    cancelled = False

    async def is_cancelled() -> bool:
        return cancelled

    controller = RunController(lambda: registry.catalog, domains.dispatch)
    with domains.expect("run-c", _reserved, is_cancelled):
        running = asyncio.create_task(controller.run(INTENT, plan=PLAN, context={"run_id": "run-c"}))
        await asyncio.wait_for(started.wait(), 10)
        cancelled = True  # as a cancel stored by any gateway reads
        release.set()
        report = await asyncio.wait_for(running, 10)
    assert svc.executions == {"grind": 1}
    assert report.status is RunStatus.CANCELLED
    assert report.steps[0].status is RunStatus.COMPLETED


async def test_a_run_that_cannot_be_recorded_reaches_no_domain() -> None:
    started, release = asyncio.Event(), asyncio.Event()
    release.set()
    svc = mill(started, release)
    domains, registry = await _stack(svc)

    async def database_refuses() -> None:
        raise OSError("database or disk is full")

    controller = RunController(lambda: registry.catalog, domains.dispatch)
    with domains.expect("run-r", database_refuses) as reservation:
        report = await controller.run(INTENT, plan=PLAN, context={"run_id": "run-r"})
    assert svc.executions == {}
    assert report.status is RunStatus.FAILED and isinstance(reservation.failed, OSError)
