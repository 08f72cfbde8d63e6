from __future__ import annotations

import pytest

from execution import DagExecutor
from shared.models import (
    CallContext,
    CombineMode,
    DomainOutput,
    ExecutionIntent,
    ExecutionPlan,
    ExecutionStep,
)
from shared.status import RunStatus

OUTPUTS = {
    "a": DomainOutput(
        status="success", result={"x": 1, "shared": "a"}, explanation="A says hi", confidence=0.8
    ),
    "b": DomainOutput(status="success", result={"y": 2, "shared": "b"}, explanation="B says hi"),
    "bad": DomainOutput(status="failure", explanation="C could not"),
}


async def runner(intent: ExecutionIntent, step: ExecutionStep, call: CallContext) -> DomainOutput:
    return OUTPUTS[intent.capability]


async def _run(mode: CombineMode, *caps: str, optional: tuple[str, ...] = ()):  # type: ignore[no-untyped-def]
    steps = [
        ExecutionStep(id=i, domain="d", capability=c, required=c not in optional)
        for i, c in enumerate(caps, 1)
    ]
    plan = ExecutionPlan(execution_mode="parallel", combine_mode=mode, steps=steps)
    return await DagExecutor(runner).execute(plan, original_query="q", confidence=1.0, context={})


async def test_last_is_the_last_successful_step_in_plan_order() -> None:
    report = await _run("last", "a", "b", "bad", optional=("bad",))
    assert report.output == OUTPUTS["b"]
    assert report.status is RunStatus.COMPLETED


async def test_report_lists_every_explanation_and_result() -> None:
    report = await _run("report", "a", "bad", "b")
    assert report.output is not None
    assert report.output.status == "success"  # some required step succeeded
    assert report.output.explanation == "A says hi\nC could not\nB says hi"
    assert [(s["id"], s["status"], s["result"]) for s in report.output.result["steps"]] == [
        (1, "completed", {"x": 1, "shared": "a"}),
        (2, "failed", {}),
        (3, "completed", {"y": 2, "shared": "b"}),
    ]
    assert report.output.confidence == 0.8
    assert report.status is RunStatus.COMPLETED


async def test_report_fails_when_no_required_step_succeeded() -> None:
    report = await _run("report", "bad", "a", optional=("a",))
    assert report.output is not None and report.output.status == "failure"
    assert report.status is RunStatus.FAILED


async def test_merge_dict_merges_results_later_steps_win() -> None:
    report = await _run("merge", "a", "b")
    assert report.output is not None
    assert report.output.result == {"x": 1, "y": 2, "shared": "b"}
    assert report.output.explanation == "A says hi\nB says hi"


@pytest.mark.parametrize("mode", ["last", "merge"])
async def test_a_required_failure_is_the_answer(mode: CombineMode) -> None:
    report = await _run(mode, "a", "bad")
    assert report.output == OUTPUTS["bad"]
    assert report.status is RunStatus.FAILED
