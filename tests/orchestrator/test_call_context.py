"""The call context (shared.models.CallContext) goes from the step runner to the orchestrator
beside the intent, and reaches the domain only as the ``Idempotency-Key``: the ``/execute`` body carries
what docs/domains.md says (run, session and step ids, the language), never the run loop's control
keys. Real SDK domain, reached through httpx's ASGI transport (tests/orchestrator/conftest.py)."""

from __future__ import annotations

import json

from execution import DagExecutor
from orchestrator import DomainClient, DomainRegistry, Orchestrator
from shared.models import IDEMPOTENCY_SUFFIX, CallContext, ExecutionIntent, ExecutionPlan, ExecutionStep
from tests.orchestrator.conftest import Hosts, bakery


def _step(step_id: int) -> ExecutionStep:
    return ExecutionStep(id=step_id, domain="bakery", capability="bake_bread", params={"kind_text": "rye"})


async def test_a_replanned_round_sends_its_suffix_in_the_key_and_not_in_the_body(
    hosts: Hosts, client: DomainClient, registry: DomainRegistry
) -> None:
    await registry.register("bakery", hosts.serve("bakery.test", bakery().app()))
    orchestrator = Orchestrator(registry, client)
    executor = DagExecutor(orchestrator.dispatch)
    # the run loop marks a replanned round this way (execution.runner); the DAG turns it into
    # each call's CallContext
    context = {"run_id": "r9", "session_id": "s-1", "language": "en", IDEMPOTENCY_SUFFIX: "r1"}
    report = await executor.execute(
        ExecutionPlan(steps=[_step(1), _step(2)]), original_query="rye", confidence=0.99, context=context
    )
    assert [t.output.explanation for t in report.steps if t.output] == ["Baked a rye loaf"] * 2
    calls = [r for r in hosts.requests if r.url.path == "/execute"]
    assert sorted(r.headers["idempotency-key"] for r in calls) == ["r9:1:r1", "r9:2:r1"]
    for request in calls:
        body = json.loads(request.content)
        assert "call" not in body
        assert IDEMPOTENCY_SUFFIX not in body["context"]
        assert {k: body["context"][k] for k in ("run_id", "session_id", "language")} == {
            "run_id": "r9",
            "session_id": "s-1",
            "language": "en",
        }


async def test_a_direct_dispatch_keys_the_call_by_the_ids_its_context_names(
    hosts: Hosts, client: DomainClient, registry: DomainRegistry
) -> None:
    await registry.register("bakery", hosts.serve("bakery.test", bakery().app()))
    intent = ExecutionIntent(
        domain="bakery", capability="bake_bread", parameters={"kind_text": "rye"}, context={"run_id": "r2"}
    )
    await Orchestrator(registry, client).dispatch(intent, _step(3))
    assert CallContext.of(intent, _step(3)).idempotency_key == "r2:3"
    assert [r.headers["idempotency-key"] for r in hosts.requests if r.url.path == "/execute"] == ["r2:3"]


def test_an_intent_without_ids_is_a_one_off_call() -> None:
    intent = ExecutionIntent(domain="d", capability="c")
    first, second = CallContext.of(intent), CallContext.of(intent)
    assert first.run_id.startswith("adhoc-") and first.run_id != second.run_id
    assert CallContext.of(intent, _step(4)).step_id == 4
