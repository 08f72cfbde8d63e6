from __future__ import annotations

import asyncio
from typing import Any

import pytest

from execution import DagExecutor
from shared.errors import DomainUnavailable, PlanError
from shared.models import CallContext, DomainOutput, ExecutionIntent, ExecutionPlan, ExecutionStep, StepTrace
from shared.references import escape
from shared.status import RunStatus


class FakeDomains:
    """A scripted StepRunner: capability -> output; records calls and concurrency."""

    def __init__(self, outputs: dict[str, DomainOutput | Exception] | None = None, delay: float = 0.0):
        self.outputs = outputs or {}
        self.delay = delay
        self.calls: list[ExecutionIntent] = []
        self.in_flight = 0
        self.max_in_flight = 0

    async def __call__(self, intent: ExecutionIntent, step: ExecutionStep, call: CallContext) -> DomainOutput:
        self.calls.append(intent)
        self.in_flight += 1
        self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            await asyncio.sleep(self.delay)
        finally:
            self.in_flight -= 1
        out = self.outputs.get(intent.capability)
        if isinstance(out, Exception):
            raise out
        if out is not None:
            return out
        return DomainOutput(
            status="success", result={"echo": intent.parameters}, explanation=f"did {intent.capability}"
        )


def step(
    id: int,
    capability: str | None = None,
    deps: list[int] | None = None,
    required: bool = True,
    **params: Any,
) -> ExecutionStep:
    return ExecutionStep(
        id=id,
        domain="d",
        capability=capability or f"c{id}",
        params=params,
        depends_on=deps or [],
        required=required,
    )


async def run(plan: ExecutionPlan, domains: FakeDomains, events: list[StepTrace] | None = None):  # type: ignore[no-untyped-def]
    async def on_event(trace: StepTrace) -> None:
        if events is not None:
            events.append(trace)

    executor = DagExecutor(domains, on_event=on_event)
    return await executor.execute(plan, original_query="the query", confidence=0.97, context={"run_id": "r1"})


async def test_dependency_order_and_step_intents() -> None:
    domains = FakeDomains()
    plan = ExecutionPlan(
        execution_mode="dag",
        steps=[step(3, deps=[1, 2]), step(1), step(2, deps=[1], text="${1.explanation}!")],
    )
    report = await run(plan, domains)
    assert [c.capability for c in domains.calls] == ["c1", "c2", "c3"]
    assert report.status is RunStatus.COMPLETED
    second = domains.calls[1]
    assert second.parameters == {"text": "did c1!"}
    assert (second.domain, second.confidence, second.original_query) == ("d", 0.97, "the query")
    assert second.context == {"run_id": "r1", "step_id": 2}
    assert report.output is not None and report.output.explanation == "did c3"  # "last" = topological order
    assert [t.id for t in report.steps] == [3, 1, 2]


async def test_references_are_implicit_dependencies() -> None:
    domains = FakeDomains()
    plan = ExecutionPlan(steps=[step(1, x="${2.result.echo}"), step(2, y=5)])
    await run(plan, domains)
    assert [c.capability for c in domains.calls] == ["c2", "c1"]
    assert domains.calls[1].parameters == {"x": {"y": 5}}


@pytest.mark.parametrize("max_concurrency", [4, 16, 32])
async def test_independent_steps_run_concurrently_up_to_the_limit(max_concurrency: int) -> None:
    domains = FakeDomains(delay=0.1)
    plan = ExecutionPlan(
        execution_mode="parallel",
        combine_mode="report",
        max_concurrency=max_concurrency,
        steps=[step(i) for i in range(1, 17)],
    )
    report = await run(plan, domains)
    assert domains.max_in_flight == min(16, max_concurrency)
    assert report.status is RunStatus.COMPLETED and len(domains.calls) == 16


async def test_sequential_mode_runs_one_step_at_a_time_in_plan_order() -> None:
    domains = FakeDomains(delay=0.01)
    plan = ExecutionPlan(execution_mode="sequential", max_concurrency=8, steps=[step(i) for i in (3, 1, 2)])
    await run(plan, domains)
    assert domains.max_in_flight == 1
    assert [c.capability for c in domains.calls] == ["c3", "c1", "c2"]


async def test_step_traces_and_events() -> None:
    events: list[StepTrace] = []
    report = await run(ExecutionPlan(steps=[step(1, a="b")]), FakeDomains(), events)
    assert [(e.id, e.status) for e in events] == [(1, RunStatus.EXECUTING), (1, RunStatus.COMPLETED)]
    trace = report.steps[0]
    assert (
        trace.started_at is not None
        and trace.finished_at is not None
        and trace.started_at <= trace.finished_at
    )
    assert trace.duration_ms is not None and trace.duration_ms >= 0
    assert trace.output is not None and trace.attempts == 1 and trace.error is None


async def test_optional_failure_does_not_fail_the_plan() -> None:
    domains = FakeDomains({"notify": DomainOutput(status="failure", explanation="telegram is down")})
    plan = ExecutionPlan(
        execution_mode="dag",
        combine_mode="report",
        steps=[step(1, "quote"), step(2, "notify", deps=[1], required=False, message="${1.explanation}")],
    )
    report = await run(plan, domains)
    assert report.status is RunStatus.COMPLETED
    assert [t.status for t in report.steps] == [RunStatus.COMPLETED, RunStatus.FAILED]
    assert report.steps[1].error == "telegram is down"
    assert report.output is not None and report.output.explanation == "did quote\ntelegram is down"


async def test_required_failure_fails_the_run_and_skips_dependents() -> None:
    domains = FakeDomains({"c1": DomainUnavailable("domain d is unreachable")})
    events: list[StepTrace] = []
    plan = ExecutionPlan(steps=[step(1), step(2, deps=[1]), step(3, m="${2.explanation}"), step(4)])
    report = await run(plan, domains, events)
    assert report.status is RunStatus.FAILED
    assert [t.status for t in report.steps] == [
        RunStatus.FAILED,
        RunStatus.SKIPPED,
        RunStatus.SKIPPED,
        RunStatus.COMPLETED,
    ]
    assert report.steps[0].error == "domain d is unreachable"
    assert report.steps[1].error == "step 1 did not succeed"
    assert [c.capability for c in domains.calls] == ["c1", "c4"]
    assert report.output is not None and report.output.status == "failure"
    assert report.output.explanation == "domain d is unreachable"
    assert (2, RunStatus.SKIPPED) in [(e.id, e.status) for e in events]


async def test_skips_cascade_whatever_the_plan_order() -> None:
    domains = FakeDomains({"c1": DomainOutput(status="failure", explanation="nope")})
    plan = ExecutionPlan(steps=[step(4, deps=[3]), step(3, deps=[2]), step(2, deps=[1]), step(1)])
    report = await run(plan, domains)
    assert [(t.id, t.status) for t in report.steps] == [
        (4, RunStatus.SKIPPED),
        (3, RunStatus.SKIPPED),
        (2, RunStatus.SKIPPED),
        (1, RunStatus.FAILED),
    ]


async def test_required_step_fails_when_its_optional_dependency_failed() -> None:
    domains = FakeDomains({"c1": DomainOutput(status="failure", explanation="nope")})
    plan = ExecutionPlan(
        steps=[step(1, required=False), step(2, x="${1.explanation}"), step(3, deps=[1], required=False)]
    )
    report = await run(plan, domains)
    assert [t.status for t in report.steps] == [RunStatus.FAILED, RunStatus.FAILED, RunStatus.SKIPPED]
    assert report.status is RunStatus.FAILED


async def test_bad_reference_path_fails_only_that_step() -> None:
    plan = ExecutionPlan(
        combine_mode="report",
        steps=[step(1), step(2, required=False, price="${1.result.price}")],
    )
    report = await run(plan, FakeDomains())
    assert report.steps[1].status is RunStatus.FAILED
    assert report.steps[1].error is not None and "has no 'price'" in report.steps[1].error
    assert report.status is RunStatus.COMPLETED


async def test_clarification_puts_the_run_in_waiting_input() -> None:
    question = DomainOutput(status="clarification", result={"candidates": ["A", "B"]}, explanation="A or B?")
    domains = FakeDomains({"c1": question})
    report = await run(ExecutionPlan(steps=[step(1), step(2, deps=[1]), step(3)]), domains)
    assert report.status is RunStatus.WAITING_INPUT
    assert [t.status for t in report.steps] == [
        RunStatus.WAITING_INPUT,
        RunStatus.PENDING,
        RunStatus.COMPLETED,
    ]
    assert report.output == question


async def test_unexpected_exception_becomes_a_plain_step_error() -> None:
    report = await run(ExecutionPlan(steps=[step(1)]), FakeDomains({"c1": RuntimeError("boom")}))
    assert report.steps[0].status is RunStatus.FAILED
    assert report.steps[0].error == "RuntimeError: boom"


@pytest.mark.parametrize(
    ("steps", "message"),
    [
        ([step(1, deps=[9])], "step 1 depends on unknown step 9"),
        ([step(1, x="${4.status}")], "step 1 references unknown step 4"),
        ([step(1, deps=[2]), step(2, deps=[3]), step(3, deps=[1])], "cycle: 1 -> 2 -> 3 -> 1"),
        ([step(1, deps=[1])], "cycle"),
        ([step(1), step(1)], "duplicate step ids"),
        ([], "no steps"),
    ],
)
async def test_invalid_plans_are_rejected_before_running(steps: list[ExecutionStep], message: str) -> None:
    domains = FakeDomains()
    with pytest.raises(PlanError, match=message):
        await run(ExecutionPlan(steps=steps), domains)
    assert domains.calls == []


async def test_text_the_person_typed_reaches_the_domain_unexpanded() -> None:
    """The planner escapes user values; the executor hands them over literally."""
    domains = FakeDomains()
    typed = "quote of ${1.explanation} please"
    plan = ExecutionPlan(steps=[step(1), step(2, deps=[1], q=escape(typed), m="${1.explanation}")])
    await run(plan, domains)
    assert domains.calls[1].parameters == {"q": typed, "m": "did c1"}


async def test_an_executor_makes_its_steps_with_a_step_runner_or_a_guarded_call_exactly_one() -> None:
    domains = FakeDomains()

    async def guarded(
        intent: ExecutionIntent, plan_step: ExecutionStep, call: CallContext, trace: StepTrace
    ) -> DomainOutput:
        trace.attempts += 2  # as a retry guard counts its tries
        return await domains(intent, plan_step, call)

    report = await DagExecutor(call=guarded).execute(
        ExecutionPlan(steps=[step(1)]), original_query="q", confidence=1.0, context={}
    )
    assert report.steps[0].attempts == 2 and [i.capability for i in domains.calls] == ["c1"]
    with pytest.raises(TypeError):
        DagExecutor()
    with pytest.raises(TypeError):
        DagExecutor(domains, call=guarded)
