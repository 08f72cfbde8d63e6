"""Conditions (``when``) and selections (``${= ...}``) in plans, deterministic: no LLM involved."""

from __future__ import annotations

from typing import Any

import pytest

from execution import DagExecutor
from execution.dag import validate_plan
from execution.references import resolve
from execution.run_state import step_event
from shared.expressions import ExpressionError, compile_expression, split_text, steps_named
from shared.models import CallContext, DomainOutput, ExecutionIntent, ExecutionPlan, ExecutionStep, StepTrace
from shared.references import escape
from shared.status import RunStatus

MOVERS = DomainOutput(
    status="success",
    result={
        "movers": [
            {"symbol": "VALE3", "change_pct": 2.1},
            {"symbol": "PETR4", "change_pct": 3.4},
            {"symbol": "ITUB4", "change_pct": 1.2},
            {"symbol": "WEGE3", "change_pct": 0.4},
        ]
    },
    explanation="movers",
)


class Domains:
    """Scripted domain outputs per capability; every call recorded."""

    def __init__(self, outputs: dict[str, DomainOutput]):
        self.outputs = outputs
        self.calls: list[ExecutionIntent] = []

    async def __call__(self, intent: ExecutionIntent, step: ExecutionStep, call: CallContext) -> DomainOutput:
        self.calls.append(intent)
        if intent.capability in self.outputs:
            return self.outputs[intent.capability]
        return DomainOutput(
            status="success", result={"got": intent.parameters}, explanation=intent.capability
        )


def quote(price: float, change: float, name: str) -> DomainOutput:
    return DomainOutput(
        status="success", result={"price": price, "change_pct": change, "name": name}, explanation=name
    )


def step(id: int, capability: str, when: str | None = None, **params: Any) -> ExecutionStep:
    return ExecutionStep(id=id, domain="d", capability=capability, params=params, when=when)


async def run(plan: ExecutionPlan, domains: Domains, events: list[StepTrace] | None = None):  # type: ignore[no-untyped-def]
    async def on_event(trace: StepTrace) -> None:
        if events is not None:
            events.append(trace)

    return await DagExecutor(domains, on_event=on_event).execute(
        plan, original_query="q", confidence=1.0, context={}
    )


async def test_false_condition_skips_the_step_with_the_reason_and_the_run_completes() -> None:
    domains = Domains({"apple": quote(231.0, 0.5, "Apple")})
    plan = ExecutionPlan(
        steps=[step(1, "apple"), step(2, "microsoft", when="step1.result.price < `200`")],
        execution_mode="dag",
    )
    events: list[StepTrace] = []
    report = await run(plan, domains, events)
    assert report.status is RunStatus.COMPLETED
    assert [c.capability for c in domains.calls] == ["apple"]
    skipped = report.steps[1]
    assert skipped.status is RunStatus.SKIPPED
    assert skipped.error is None
    assert skipped.skipped_by_condition == "condition 'step1.result.price < `200`' is false (false)"
    assert report.output is not None and report.output.status == "success"
    assert report.output.explanation == "Apple"
    # the reason travels with the step's event too
    last = [e for e in events if e.id == 2][-1]
    assert step_event("run-1", last).skipped_by_condition == skipped.skipped_by_condition


async def test_true_condition_runs_the_step() -> None:
    domains = Domains({"apple": quote(180.0, -1.0, "Apple")})
    plan = ExecutionPlan(steps=[step(1, "apple"), step(2, "microsoft", when="step1.result.price < `200`")])
    report = await run(plan, domains)
    assert [c.capability for c in domains.calls] == ["apple", "microsoft"]
    assert report.steps[1].status is RunStatus.COMPLETED
    assert report.steps[1].skipped_by_condition is None


async def test_what_needs_a_switched_off_step_is_switched_off_too() -> None:
    domains = Domains({"apple": quote(231.0, 0.5, "Apple")})
    plan = ExecutionPlan(
        steps=[
            step(1, "apple"),
            step(2, "microsoft", when="step1.result.price < `200`"),
            step(3, "notify", message="${2.explanation}"),
        ],
        execution_mode="dag",
    )
    report = await run(plan, domains)
    assert report.status is RunStatus.COMPLETED
    assert [t.status for t in report.steps] == [RunStatus.COMPLETED, RunStatus.SKIPPED, RunStatus.SKIPPED]
    assert report.steps[2].skipped_by_condition == "step 2 was skipped by its condition"
    assert report.steps[2].error is None


async def test_a_condition_that_cannot_be_computed_fails_its_step() -> None:
    domains = Domains({"apple": DomainOutput(status="success", result={"price": "n/a"})})
    plan = ExecutionPlan(steps=[step(1, "apple"), step(2, "microsoft", when="step1.result.price < `200`")])
    report = await run(plan, domains)
    assert report.steps[1].status is RunStatus.FAILED
    assert report.steps[1].error is not None and report.steps[1].error.startswith("condition not evaluated")
    assert report.status is RunStatus.FAILED


async def test_selection_picks_the_item_with_the_highest_change_and_sends_it() -> None:
    """ "compare Petrobras with Vale and send the one that rose most": two quotes, one message."""
    domains = Domains({"petr": quote(37.1, 1.9, "Petrobras"), "vale": quote(61.0, 2.6, "Vale")})
    plan = ExecutionPlan(
        steps=[
            step(1, "petr"),
            step(2, "vale"),
            step(
                3,
                "send",
                message="Subiu mais: ${= max_by([step1.result, step2.result], &change_pct).name} "
                "(${= max_by([step1.result, step2.result], &change_pct).change_pct}%)",
            ),
        ],
        execution_mode="dag",
    )
    report = await run(plan, domains)
    assert report.status is RunStatus.COMPLETED
    sent = domains.calls[-1]
    assert sent.capability == "send"
    assert sent.parameters == {"message": "Subiu mais: Vale (2.6%)"}


async def test_selection_of_the_top_three_keeps_its_type() -> None:
    domains = Domains({"movers": MOVERS})
    top = "${= sort_by(step1.result.movers, &change_pct) | reverse(@) | [:3].symbol}"
    plan = ExecutionPlan(
        steps=[
            step(1, "movers"),
            step(2, "quotes", symbols=top),
            step(3, "one", symbol="${= step1.result.movers[1].symbol}"),
        ]
    )
    await run(plan, domains)
    by_capability = {c.capability: c.parameters for c in domains.calls}
    assert by_capability["quotes"] == {"symbols": ["PETR4", "VALE3", "ITUB4"]}
    assert by_capability["one"] == {"symbol": "PETR4"}


async def test_references_keep_working_next_to_selections() -> None:
    domains = Domains({"movers": MOVERS})
    plan = ExecutionPlan(
        steps=[step(1, "movers"), step(2, "say", text="${1.explanation}: ${= length(step1.result.movers)}")]
    )
    await run(plan, domains)
    assert domains.calls[-1].parameters == {"text": "movers: 4"}


def test_text_someone_typed_is_never_evaluated() -> None:
    typed = escape({"q": "${= step1.result}", "r": "see ${= `1`}"})
    assert resolve(typed, {1: MOVERS}) == {"q": "${= step1.result}", "r": "see ${= `1`}"}
    plan = ExecutionPlan(steps=[step(1, "a", **typed)])
    assert validate_plan(plan) == {1: set()}


def test_selection_steps_are_dependencies() -> None:
    plan = ExecutionPlan(
        steps=[
            step(1, "a"),
            step(2, "b"),
            step(3, "c", when="step2.status == 'success'", x="${= step1.result}"),
        ]
    )
    assert validate_plan(plan)[3] == {1, 2}


@pytest.mark.parametrize(
    ("plan_steps", "message"),
    [
        (
            [step(1, "a"), step(2, "b", when="step1.result.price <")],
            "invalid expression 'step1.result.price <'",
        ),
        (
            [step(1, "a", when="step2.status == 'success'"), step(2, "b")],
            "step 1's condition \"step2.status == 'success'\" reads step2, "
            "which is not a step listed before it",
        ),
        (
            [step(1, "a"), step(2, "b", x="${= step9.result}")],
            "step 2's selection 'step9.result' reads step9, which is not a step listed before it",
        ),
        (
            [step(1, "a"), step(2, "b", when="step2.result")],
            "step 2's condition 'step2.result' reads step2, which is not a step listed before it",
        ),
        ([step(1, "a"), step(2, "b", x="${= step1.result")], "expression not closed"),
        ([step(1, "a"), step(2, "b", x="${= }")], "invalid expression ''"),
    ],
)
def test_bad_expressions_are_refused_when_the_plan_is_built(
    plan_steps: list[ExecutionStep], message: str
) -> None:
    with pytest.raises(ExpressionError) as caught:
        validate_plan(ExecutionPlan(steps=plan_steps))
    assert message in caught.value.message


async def test_a_bad_expression_runs_nothing() -> None:
    domains = Domains({})
    with pytest.raises(ExpressionError):
        await run(ExecutionPlan(steps=[step(1, "a"), step(2, "b", when="step1.result.(")]), domains)
    assert domains.calls == []


def test_only_top_level_step_fields_name_steps() -> None:
    # a key called step2 inside step1's result is data, not step 2
    assert steps_named(compile_expression("step1.result.step2")) == {1}
    assert steps_named(compile_expression("step1.result.items[?step3 > `1`]")) == {1}
    assert steps_named(compile_expression("max_by([step1.result, step4.result], &step2)")) == {1, 4}


def test_braces_and_quotes_inside_an_expression() -> None:
    parts = split_text("a ${= {n: step1.result.name, s: '}'}} b")
    assert [p if isinstance(p, str) else p.text for p in parts] == [
        "a ",
        "{n: step1.result.name, s: '}'}",
        " b",
    ]
