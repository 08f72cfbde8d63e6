from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
import uvicorn

from execution import DagExecutor
from execution.runner import RunController
from orchestrator import DomainClient, DomainRegistry, Orchestrator
from planner import PlannerService
from sdk.service import DomainService
from shared.errors import DomainUnavailable
from shared.models import (
    Clarification,
    DomainOutput,
    ExecutionIntent,
    ExecutionPlan,
    ExecutionStep,
    Failure,
    IntentOutput,
)
from shared.status import RunStatus
from tests.conftest import free_port


async def _registry_with(
    hosts: Any, registry: DomainRegistry, make: dict[str, Any], *names: str
) -> dict[str, Any]:
    services = {}
    for name in names:
        services[name] = make[name]()
        await registry.register(name, hosts.serve(f"{name}.test", services[name].app()))
    return services


def _intent(
    capability: str, domain: str = "bakery", confidence: float = 0.99, **context: Any
) -> ExecutionIntent:
    return ExecutionIntent(
        domain=domain,
        capability=capability,
        parameters={"kind_text": "rye"},
        confidence=confidence,
        context={"run_id": "run-7", "step_id": 2, **context},
    )


async def test_a_fallback_capability_is_handed_the_catalog_and_others_are_not(
    hosts: Any, registry: DomainRegistry, client: DomainClient, make: dict[str, Any]
) -> None:
    await _registry_with(hosts, registry, make, "bakery", "lounge")
    orchestrator = Orchestrator(registry, client)
    chat = _intent("chat", domain="lounge")
    await orchestrator.dispatch(chat)
    await orchestrator.dispatch(_intent("bake_bread"))
    bodies = [json.loads(r.content) for r in hosts.requests if r.url.path == "/execute"]
    # the wire format domains/general reads: one {domain, goal, description} per registered goal
    assert bodies[0]["context"]["catalog"] == [
        {"domain": "bakery", "goal": "BAKE", "description": "bake bread"}
    ]
    assert "catalog" not in bodies[1]["context"]
    assert "catalog" not in chat.context  # the caller's intent is left as it was


async def test_routes_by_capability_and_sends_the_idempotency_key(
    hosts: Any, registry: DomainRegistry, client: DomainClient, make: dict[str, Any]
) -> None:
    services = await _registry_with(hosts, registry, make, "bakery", "lounge")
    output = await Orchestrator(registry, client).dispatch(_intent("bake_bread", domain="lounge"))
    assert output.explanation == "Baked a rye loaf"  # the capability's owner, not the intent's domain
    assert services["bakery"].executions == {"bake_bread": 1}
    execute = [r for r in hosts.requests if r.url.path == "/execute"]
    assert [(r.url.host, r.headers["Idempotency-Key"]) for r in execute] == [("bakery.test", "run-7:2")]


async def test_unknown_capability_falls_back_to_the_intent_domain(
    hosts: Any, registry: DomainRegistry, client: DomainClient, make: dict[str, Any]
) -> None:
    await _registry_with(hosts, registry, make, "bakery")
    output = await Orchestrator(registry, client).dispatch(_intent("make_pizza"))
    assert output.status == "failure" and output.failure is not None
    assert output.failure.reason == "unknown_capability"
    assert "has no capability 'make_pizza'" in output.explanation  # the domain itself answered


async def test_no_route_is_a_typed_failure_output(registry: DomainRegistry, client: DomainClient) -> None:
    output = await Orchestrator(registry, client).dispatch(
        _intent("make_pizza", domain="kitchen", language="en")
    )
    assert output.status == "failure"
    assert output.failure == Failure(reason="unknown_capability", recoverable=False)
    assert not output.recoverable and output.metadata == {}
    assert output.explanation == "No registered domain offers 'make_pizza'."


async def test_confidence_gate_blocks_without_calling_the_domain(
    hosts: Any, registry: DomainRegistry, client: DomainClient, make: dict[str, Any]
) -> None:
    services = await _registry_with(hosts, registry, make, "bakery", "lounge")
    orchestrator = Orchestrator(registry, client, threshold=0.94)
    low = _intent("bake_bread", confidence=0.6)
    assert orchestrator.gate_blocks(low)
    output = await orchestrator.dispatch(low)
    assert output.status == "clarification"
    assert output.clarification == Clarification(question=output.explanation)
    assert "60%" in output.clarification.question  # the intent's confidence, said to the person
    assert output.result["capability"] == "bake_bread"
    assert services["bakery"].executions == {}
    assert not orchestrator.gate_blocks(_intent("bake_bread", confidence=0.94))


async def test_confidence_gate_does_not_apply_to_exempt_domains(
    hosts: Any, registry: DomainRegistry, client: DomainClient, make: dict[str, Any]
) -> None:
    services = await _registry_with(hosts, registry, make, "lounge")
    orchestrator = Orchestrator(registry, client)
    intent = _intent("chat", domain="lounge", confidence=0.1)
    assert not orchestrator.gate_blocks(intent)
    output = await orchestrator.dispatch(intent)
    assert output.status == "success" and services["lounge"].executions == {"chat": 1}


async def test_dispatch_raises_a_plain_error_when_the_domain_is_unreachable(
    hosts: Any, registry: DomainRegistry, client: DomainClient, make: dict[str, Any]
) -> None:
    await _registry_with(hosts, registry, make, "bakery")
    del hosts.apps["bakery.test"]  # the process died after registering
    with pytest.raises(DomainUnavailable) as refused:
        await Orchestrator(registry, client).dispatch(_intent("bake_bread", language="en"))
    # no URL in what a person reads: the detail stays in the error's details (and the log)
    assert refused.value.message == "The bakery service is not reachable right now."
    assert refused.value.details == {
        "delivered": False,
        "domain": "bakery",
        "detail": "could not connect to http://bakery.test/execute",
    }
    execute = [r for r in hosts.requests if r.url.path == "/execute"]
    assert len(execute) == 1  # one call: retrying is execution.retry's job


async def test_the_run_loop_retries_dispatch_with_the_same_key_up_to_the_policy(
    hosts: Any, registry: DomainRegistry, client: DomainClient, make: dict[str, Any]
) -> None:
    await _registry_with(hosts, registry, make, "bakery")
    del hosts.apps["bakery.test"]
    orchestrator = Orchestrator(registry, client)
    report = await RunController(lambda: registry.catalog, orchestrator.dispatch).run(
        IntentOutput(primary_domain="bakery", original_query="bake", language="en", confidence=0.99),
        plan=ExecutionPlan(steps=[ExecutionStep(id=2, domain="bakery", capability="bake_bread")]),
        context={"run_id": "run-7", "language": "en"},
    )
    assert report.status is RunStatus.FAILED and report.steps[0].attempts == 3  # bake_bread's policy
    assert report.steps[0].error == "The bakery service is not reachable right now."
    execute = [r for r in hosts.requests if r.url.path == "/execute"]
    assert {r.headers["Idempotency-Key"] for r in execute} == {"run-7:2"} and len(execute) == 3


async def test_a_never_seen_domain_registered_at_runtime_is_routable_end_to_end(
    hosts: Any, registry: DomainRegistry, client: DomainClient
) -> None:
    """Zero core changes: planner, executor and orchestrator only read the new manifest."""
    svc = DomainService("observatory", "0.0.1", "Looks at the sky")

    @svc.capability(
        "count_stars",
        "Count the stars in a constellation",
        metadata={
            "decomposition": {
                "array_params": [{"param_name": "constellations", "single_param_name": "constellation"}]
            }
        },
    )
    def count(intent: ExecutionIntent) -> DomainOutput:
        name = intent.parameters["constellation"]
        return DomainOutput(
            status="success", result={"stars": len(name)}, explanation=f"{name}: {len(name)} stars"
        )

    svc.add_goal({"goal": "COUNT_STARS", "description": "count stars", "capabilities": ["count_stars"]})
    await registry.register("observatory", hosts.serve("observatory.test", svc.app()))

    intent = IntentOutput(
        primary_domain="observatory",
        goal="COUNT_STARS",
        entities={"constellations": ["Orion", "Lyra"]},
        confidence=0.99,
        original_query="how many stars in Orion and Lyra?",
    )
    execution_intent, plan = PlannerService(registry.catalog).plan(intent)
    orchestrator = Orchestrator(registry, client)
    report = await DagExecutor(orchestrator.dispatch).execute(
        plan,
        original_query=intent.original_query,
        confidence=execution_intent.confidence,
        context={"run_id": "r"},
    )
    assert report.status is RunStatus.COMPLETED
    assert report.output is not None and report.output.explanation == "Orion: 5 stars\nLyra: 4 stars"
    assert svc.executions == {"count_stars": 2}


async def test_over_real_http_with_uvicorn(make: dict[str, Any]) -> None:
    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(make["bakery"]().app(), host="127.0.0.1", port=port, log_level="warning")
    )
    serving = asyncio.create_task(server.serve())
    try:
        while not server.started:  # uvicorn.Server exposes a flag, not an event
            assert not serving.done(), "uvicorn did not start"
            await asyncio.sleep(0.01)
        async with httpx.AsyncClient(timeout=5) as http:
            client = DomainClient(http)
            registry = DomainRegistry(client, env={})
            await registry.register("bakery", f"http://127.0.0.1:{port}")
            orchestrator = Orchestrator(registry, client)
            output = await orchestrator.dispatch(_intent("bake_bread"))
            assert output.explanation == "Baked a rye loaf"
            server.should_exit = True
            await serving
            with pytest.raises(DomainUnavailable) as down:
                await orchestrator.dispatch(_intent("bake_bread", language="en"))
            assert down.value.message == "The bakery service is not reachable right now."
            assert down.value.details["detail"] == f"could not connect to http://127.0.0.1:{port}/execute"
    finally:
        server.should_exit = True
        await serving
