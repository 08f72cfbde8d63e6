"""Orchestrator.dispatch under RunController: circuit breaker, fast failure, per-domain timeout,
idempotency keys across retries and duplicate runs (the SDK replays, the action happens once)."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest
import uvicorn

from execution.runner import RunController
from orchestrator import DomainClient, DomainRegistry, Orchestrator
from orchestrator.breaker import CircuitOpen, DomainBreakers
from sdk.service import DomainService
from shared.errors import DomainUnavailable
from shared.models import DomainOutput, ExecutionIntent, ExecutionPlan, ExecutionStep, IntentOutput
from shared.status import RunStatus
from tests.conftest import free_port
from tests.orchestrator.conftest import Hosts


def outbox() -> DomainService:
    """A notifier-like domain: sending is NOT idempotent."""
    svc = DomainService("outbox", "1", "Sends messages", confidence_gate=False)

    @svc.capability(
        "send",
        "Send a message",
        role="notifier",
        metadata={"policy": {"idempotent": False, "attempts": 3, "backoff_s": 0.0, "timeout_s": 2.0}},
    )
    def send(intent: ExecutionIntent) -> DomainOutput:
        return DomainOutput(status="success", explanation=f"sent: {intent.parameters.get('message', '')}")

    @svc.capability("peek", "Look (safe to repeat)", metadata={"policy": {"attempts": 3, "backoff_s": 0.0}})
    def peek(intent: ExecutionIntent) -> DomainOutput:
        return DomainOutput(status="success", explanation="nothing new")

    return svc


class LosesFirstResponse(Hosts):
    """Delivers the first /execute to the domain, then loses its answer (a read error)."""

    def __init__(self) -> None:
        super().__init__()
        self.lost = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await super().handle_async_request(request)
        if request.url.path == "/execute" and self.lost == 0:
            self.lost += 1
            raise httpx.ReadError("connection reset after the request was sent", request=request)
        return response


def step(capability: str, id: int = 1, required: bool = True, **params: Any) -> ExecutionStep:
    return ExecutionStep(id=id, domain="outbox", capability=capability, params=params, required=required)


def one(*steps: ExecutionStep) -> ExecutionPlan:
    return ExecutionPlan(steps=list(steps), combine_mode="report" if len(steps) > 1 else "last")


INTENT = IntentOutput(
    primary_domain="outbox", goal=None, original_query="send hi", language="en", confidence=1.0
)


async def _stack(hosts: Hosts, **kwargs: Any) -> tuple[DomainService, Orchestrator, DomainRegistry]:
    http = httpx.AsyncClient(transport=hosts)
    client = DomainClient(http)
    registry = DomainRegistry(client, env={})
    svc = outbox()
    await registry.register("outbox", hosts.serve("outbox.test", svc.app()))
    return svc, Orchestrator(registry, client, **kwargs), registry


async def test_non_idempotent_send_runs_once_when_its_answer_is_lost(
    caplog: pytest.LogCaptureFixture,
) -> None:
    hosts = LosesFirstResponse()
    svc, orch, registry = await _stack(hosts)
    rc = RunController(lambda: registry.catalog, orch.dispatch)
    report = await rc.run(INTENT, plan=one(step("send", message="hi")), context={"run_id": "run-1"})
    assert svc.executions == {"send": 1}
    assert report.status is RunStatus.FAILED and report.steps[0].attempts == 1  # never retried blindly
    # the person reads a plain sentence; the transport detail goes to the log
    assert report.steps[0].error == "The outbox service is not reachable right now."
    assert "connection to http://outbox.test/execute failed (ReadError)" in caplog.text


async def test_idempotent_step_retries_with_the_same_key_and_the_sdk_replays_the_first_result() -> None:
    hosts = LosesFirstResponse()
    svc, orch, registry = await _stack(hosts)
    rc = RunController(lambda: registry.catalog, orch.dispatch)
    report = await rc.run(INTENT, plan=one(step("peek")), context={"run_id": "run-2"})
    assert report.status is RunStatus.COMPLETED and report.steps[0].attempts == 2
    assert svc.executions == {"peek": 1}
    assert report.steps[0].output is not None and report.steps[0].output.metadata["idempotent_replay"] is True
    keys = [r.headers["idempotency-key"] for r in hosts.requests if r.url.path == "/execute"]
    assert keys == ["run-2:1", "run-2:1"]


async def test_a_duplicate_run_of_the_same_send_is_replayed_not_resent() -> None:
    hosts = Hosts()
    svc, orch, registry = await _stack(hosts)
    rc = RunController(lambda: registry.catalog, orch.dispatch)
    first = await rc.run(INTENT, plan=one(step("send", message="hi")), context={"run_id": "run-3"})
    again = await rc.run(INTENT, plan=one(step("send", message="hi")), context={"run_id": "run-3"})
    assert first.answer == again.answer == "sent: hi"
    assert svc.executions == {"send": 1}


async def test_circuit_opens_after_consecutive_failures_and_then_fails_fast_without_network() -> None:
    hosts = Hosts()
    _, orch, registry = await _stack(hosts, breakers=DomainBreakers(threshold=2, ttl_s=60))
    del hosts.apps["outbox.test"]  # the domain goes away: connection refused
    intent = ExecutionIntent(domain="outbox", capability="peek", context={"run_id": "r", "language": "en"})
    for _ in range(2):
        with pytest.raises(DomainUnavailable) as refused:
            await orch.dispatch(intent)
        assert refused.value.details["delivered"] is False
    sent = len(hosts.requests)
    with pytest.raises(CircuitOpen):
        await orch.dispatch(intent)
    assert len(hosts.requests) == sent
    assert orch.breakers.state("outbox") == "opened"
    assert orch.unavailable_reason("outbox") == "circuit open (2 consecutive failures)"

    rc = RunController(lambda: registry.catalog, orch.dispatch, availability=orch.unavailable_reason)
    report = await rc.run(
        INTENT, plan=one(step("peek"), step("send", id=2, required=False)), context={"language": "en"}
    )
    assert [t.status for t in report.steps] == [RunStatus.FAILED, RunStatus.SKIPPED]
    assert report.steps[0].error == "The outbox service is not reachable right now."
    assert len(hosts.requests) == sent


async def test_domain_answers_do_not_trip_the_breaker() -> None:
    hosts = Hosts()
    _, orch, _ = await _stack(hosts, breakers=DomainBreakers(threshold=1, ttl_s=60))
    bad = ExecutionIntent(domain="outbox", capability="nope", context={"run_id": "r"})
    output = await orch.dispatch(bad)
    assert output.status == "failure" and orch.breakers.state("outbox") == "closed"


async def test_per_domain_timeout_over_real_http(caplog: pytest.LogCaptureFixture) -> None:
    svc = DomainService("sleepy", "1", "Slow")

    @svc.capability("nap", "Sleep", metadata={"policy": {"timeout_s": 5.0, "attempts": 1}})
    async def nap(intent: ExecutionIntent) -> DomainOutput:
        await asyncio.sleep(0.3)
        return DomainOutput(status="success", explanation="rested")

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(svc.app(), host="127.0.0.1", port=port, log_level="warning"))
    serving = asyncio.create_task(server.serve())
    try:
        while not server.started:
            assert not serving.done(), "uvicorn did not start"
            await asyncio.sleep(0.01)
        async with httpx.AsyncClient() as http:
            client = DomainClient(http)
            registry = DomainRegistry(client, env={})
            await registry.register("sleepy", f"http://127.0.0.1:{port}")
            orch = Orchestrator(registry, client, domain_timeouts={"sleepy": 0.05})
            rc = RunController(lambda: registry.catalog, orch.dispatch)
            plan = ExecutionPlan(steps=[ExecutionStep(id=1, domain="sleepy", capability="nap")])
            report = await rc.run(INTENT, plan=plan, context={"language": "en"})
            assert report.status is RunStatus.FAILED
            assert report.steps[0].error == "The sleepy service is not reachable right now."
            assert "did not answer in time (ReadTimeout)" in caplog.text
    finally:
        server.should_exit = True
        await serving
