"""Replanner moves and the run loop's planner, on the planner test catalog."""

from __future__ import annotations

from planner.replanner import Replanner, suggestions
from planner.run_planner import DeterministicRunPlanner
from shared.catalog import Catalog
from shared.models import DomainOutput, ExecutionIntent, ExecutionPlan, ExecutionStep, Failure
from shared.planning import ReplanContext, RunPlanner


def _intent(**parameters: object) -> ExecutionIntent:
    return ExecutionIntent(
        domain="market", capability="get_price", capabilities=["get_price"], parameters=parameters
    )


FAILED = DomainOutput(
    status="failure",
    failure=Failure(reason="symbol_not_found", recoverable=True, suggestions=[{"symbol": "VALE3.SA"}]),
)
PLAN = ExecutionPlan(
    combine_mode="report",
    steps=[
        ExecutionStep(id=1, domain="market", capability="get_price", params={"symbol_text": "Vali"}),
        ExecutionStep(id=2, domain="market", capability="get_price", params={"symbol_text": "Itaú"}),
        ExecutionStep(id=3, domain="n", capability="send", depends_on=[1, 2], required=False),
    ],
)


def test_suggestions_are_parameter_patches_and_are_escaped() -> None:
    assert suggestions(FAILED) == [{"symbol": "VALE3.SA"}]
    odd = DomainOutput(status="failure", failure=Failure(reason="x", suggestions=[{"symbol": "${1.result}"}]))
    replan = Replanner().replan(PLAN, ReplanContext(PLAN.steps[0], odd, 1))
    assert replan is not None and replan.plan.steps[0].params["symbol"] == "$${1.result}"


def test_reissue_patches_the_failed_step_and_reruns_its_dependents() -> None:
    replan = Replanner().replan(PLAN, ReplanContext(PLAN.steps[0], FAILED, 1))
    assert replan is not None and replan.action == "reissue"
    assert replan.plan.steps[0].params == {"symbol_text": "Vali", "symbol": "VALE3.SA"}
    assert replan.rerun == {1, 3} and PLAN.steps[0].params == {"symbol_text": "Vali"}  # original untouched


def test_a_tried_suggestion_is_not_tried_again_then_the_branch_is_dropped() -> None:
    ctx = ReplanContext(PLAN.steps[0], FAILED, 2, tried=[{"symbol": "VALE3.SA"}])
    replan = Replanner().replan(PLAN, ctx)
    assert replan is not None and replan.action == "drop_branch"
    assert [s.required for s in replan.plan.steps] == [False, True, False]


def test_gives_up_on_a_lone_required_step_without_suggestions() -> None:
    lone = ExecutionPlan(steps=[PLAN.steps[0]])
    assert Replanner().replan(lone, ReplanContext(lone.steps[0], DomainOutput(status="failure"), 1)) is None


def test_legacy_metadata_suggestions_are_heard_through_the_typed_failure() -> None:
    """A domain written before the typed protocol: the model lifts its keys, the replanner reads
    only ``failure``."""
    legacy = DomainOutput.model_validate(
        {
            "status": "failure",
            "metadata": {"error": "symbol_not_found", "suggestions": ["VALE3.SA"], "choice_param": "symbol"},
        }
    )
    assert suggestions(legacy) == [{"symbol": "VALE3.SA"}]
    assert suggestions(DomainOutput(status="failure", metadata={"suggestions": [{"symbol": "X"}]})) == []


def test_run_planner_makes_one_step_for_one_call_and_fans_out_a_list(catalog: Catalog) -> None:
    planner: RunPlanner = DeterministicRunPlanner()
    single = planner.plan(_intent(symbol_text="Vale"), catalog)
    assert [(s.capability, s.params) for s in single.steps] == [("get_price", {"symbol_text": "Vale"})]
    fanned = planner.plan(_intent(symbol_text=["Vale", "Itaú"]), catalog)
    assert fanned is not None and [s.params for s in fanned.steps] == [
        {"symbol_text": "Vale"},
        {"symbol_text": "Itaú"},
    ]


async def test_run_planner_replans_with_its_replanner() -> None:
    replan = await DeterministicRunPlanner().replan(PLAN, ReplanContext(PLAN.steps[0], FAILED, 1))
    assert replan is not None and replan.action == "reissue" and replan.patch == {"symbol": "VALE3.SA"}
