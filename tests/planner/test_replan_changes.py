"""What a re-issue changes, as the replanner reports it (the run loop tells or asks the person)."""

from __future__ import annotations

from planner.replanner import Replanner
from shared.models import DomainOutput, ExecutionPlan, ExecutionStep, Failure
from shared.planning import ParamChange, ReplanContext


def failed_with(*patches: dict[str, object]) -> DomainOutput:
    return DomainOutput(
        status="failure",
        failure=Failure(reason="outside_hours", recoverable=True, suggestions=list(patches)),
    )


STEP = ExecutionStep(id=1, domain="home", capability="schedule_visit", params={"time": "21:00"})
PLAN = ExecutionPlan(steps=[STEP])


def test_a_reissue_names_each_value_it_changes_and_the_one_before() -> None:
    replan = Replanner().replan(PLAN, ReplanContext(STEP, failed_with({"time": "10:00", "day": "sexta"}), 1))
    assert replan is not None and replan.action == "reissue"
    assert replan.changes == [ParamChange(1, "time", "21:00", "10:00"), ParamChange(1, "day", None, "sexta")]


def test_a_suggestion_the_step_already_carries_is_passed_over() -> None:
    """A yes to a suggestion runs the step with it; the same suggestion again is no way forward."""
    ran = ExecutionStep(id=1, domain="home", capability="schedule_visit", params={"time": "10:00"})
    plan = ExecutionPlan(steps=[ran])
    assert Replanner().replan(plan, ReplanContext(ran, failed_with({"time": "10:00"}), 1)) is None
    replan = Replanner().replan(
        plan, ReplanContext(ran, failed_with({"time": "10:00"}, {"time": "11:00"}), 1)
    )
    assert replan is not None and replan.patch == {"time": "11:00"}
