"""A step runner that waits for an unreachable domain itself (execution.retry.WaitingStepRunner,
a background run's durable step) gets that much more room under the capability's timeout."""

from __future__ import annotations

from execution.retry import WaitingStepRunner
from execution.runner import RunController
from planner.run_planner import DeterministicRunPlanner
from shared.models import CallContext, DomainOutput, ExecutionIntent, ExecutionStep
from shared.status import RunStatus
from tests.execution.runner_helpers import Scripted, catalog, intent, plan, s


class Waiting:
    """``domain``, declaring the window it may wait for its domain (as DurableSteps does)."""

    def __init__(self, domain: Scripted, wait_s: float):
        self.domain = domain
        self.wait_s = wait_s

    async def __call__(self, intent: ExecutionIntent, step: ExecutionStep, call: CallContext) -> DomainOutput:
        return await self.domain(intent, step, call)

    def undelivered_wait_s(self) -> float:
        return self.wait_s


def controller(run_step: Scripted | Waiting) -> RunController:
    slow = {"slow": {"timeout_s": 0.02, "attempts": 1}}
    return RunController(catalog(**slow), run_step, planner=DeterministicRunPlanner())


async def test_the_waiting_window_is_added_to_the_step_timeout() -> None:
    waiting = Waiting(Scripted(delay=0.1), wait_s=30.0)
    assert isinstance(waiting, WaitingStepRunner)
    report = await controller(waiting).run(intent(), plan=plan(s(1, "slow")), context={})
    assert report.status is RunStatus.COMPLETED


async def test_a_runner_without_a_window_times_out_as_before() -> None:
    domain = Scripted(delay=0.1)
    assert not isinstance(domain, WaitingStepRunner)
    report = await controller(domain).run(intent(), plan=plan(s(1, "slow")), context={})
    assert report.status is RunStatus.FAILED
    assert report.steps[0].error == "'market' did not answer slow within 0.02 s"


async def test_no_window_now_means_no_extra_room() -> None:
    report = await controller(Waiting(Scripted(delay=0.1), wait_s=0.0)).run(
        intent(), plan=plan(s(1, "slow")), context={}
    )
    assert report.status is RunStatus.FAILED
