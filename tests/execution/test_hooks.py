"""The run hooks of execution.policy: JMESPath transition overrides (checked when loaded) and a
validation_fn that gets the call's typed context."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from execution.policy import Hooks, StepContext, TransitionOverride
from execution.runner import RunController
from planner import DeterministicRunPlanner
from shared.manifest import Capability
from shared.models import DomainOutput, ExecutionIntent, Failure, IntentOutput, StepTrace
from shared.status import RunStatus
from tests.execution.runner_helpers import Scripted, catalog, intent, not_found, ok, plan, s


def failed_trace(reason: str = "symbol_not_found", **result: object) -> StepTrace:
    output = DomainOutput(status="failure", result=dict(result), failure=Failure(reason=reason))
    return StepTrace(id=1, domain="market", capability="quote", status=RunStatus.FAILED, output=output)


def rule(condition: object, when: str = "failed", goto: str = "replanning") -> TransitionOverride:
    return TransitionOverride.model_validate({"when_status": when, "if": condition, "goto": goto})


@pytest.mark.parametrize(
    ("condition", "holds"),
    [
        ("output.failure.reason == 'symbol_not_found'", True),
        ("output.failure.reason == 'market_closed'", False),
        ("contains(['symbol_not_found', 'market_closed'], output.failure.reason)", True),
        ("output.result.attempted", False),  # missing: null is false
        ("capability == 'quote' && attempts < `3`", True),
    ],
)
def test_a_condition_is_a_jmespath_expression_over_the_step(condition: str, holds: bool) -> None:
    assert rule(condition).matches(failed_trace()) is holds


def test_the_status_must_match_before_the_condition_is_read() -> None:
    completed = failed_trace().model_copy(update={"status": RunStatus.COMPLETED})
    assert not rule("output.failure.reason == 'symbol_not_found'").matches(completed)
    assert rule(None, when="completed").matches(completed)


def test_an_expression_that_does_not_parse_is_refused_when_the_rule_is_loaded() -> None:
    with pytest.raises(ValidationError) as caught:
        rule("output.failure.reason == ")
    error = caught.value.errors()[0]
    assert error["loc"] == ("if",)
    assert "invalid expression 'output.failure.reason =='" in error["msg"]


def test_a_condition_that_cannot_be_computed_on_a_step_does_not_hold() -> None:
    # abs() of a text: JMESPath refuses at run time; the run goes on as if there were no rule
    assert not rule("abs(output.failure.reason) > `0`").matches(failed_trace())


def test_a_condition_is_written_as_an_expression_only() -> None:
    with pytest.raises(ValidationError) as caught:
        rule({"path": "output.failure.reason", "equals": "symbol_not_found"})
    assert caught.value.errors()[0]["loc"] == ("if",)


async def test_a_file_style_rule_sends_a_failure_to_a_final_answer_without_a_replan() -> None:
    domain = Scripted({"quote": [not_found("Zzz")]})  # recoverable: would be replanned
    final = rule("output.failure.reason == 'symbol_not_found'", goto="failed")
    controller = RunController(
        catalog(), domain, planner=DeterministicRunPlanner(), hooks=Hooks(transition_overrides=[final])
    )
    report = await controller.run(intent(), plan=plan(s(1, symbol_text="Zzz")), context={})
    assert report.status is RunStatus.FAILED and report.replans == 0
    assert report.reason == "transition override: step 1 failed -> failed"
    assert domain.count("quote") == 1


async def test_validation_fn_gets_the_calls_typed_context() -> None:
    seen: list[StepContext] = []

    def record(context: StepContext, capability: Capability | None, output: DomainOutput) -> bool:
        seen.append(context)
        return True

    controller = RunController(catalog(), Scripted({"quote": [ok()]}), hooks=Hooks(validation_fn=record))
    report = await controller.run(
        intent(), plan=plan(s(1), s(2, deps=[1])), context={"run_id": "r7", "session_id": "s1"}
    )
    assert report.status is RunStatus.COMPLETED
    assert [(c.run_id, c.step_id, c.session_id, c.language) for c in seen] == [
        ("r7", 1, "s1", "pt"),
        ("r7", 2, "s1", "pt"),
    ]


async def test_a_post_resolve_hook_that_raises_fails_the_run_with_a_reason() -> None:
    def broken(intent: IntentOutput, resolved: ExecutionIntent) -> ExecutionIntent | None:
        raise KeyError("tenant")

    domain = Scripted()
    resolved = ExecutionIntent(domain="market", capability="quote", capabilities=["quote"])
    controller = RunController(
        catalog(), domain, planner=DeterministicRunPlanner(), hooks=Hooks(post_resolve_hook=broken)
    )
    report = await controller.run(intent(), resolved, None, context={})
    assert report.status is RunStatus.FAILED and domain.calls == []
    assert report.reason is not None and "the post_resolve_hook failed (KeyError)" in report.reason
