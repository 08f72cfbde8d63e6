from __future__ import annotations

import pytest

from planner import TaskDecomposer
from shared.catalog import Catalog
from shared.errors import PlanError
from shared.manifest import validate_manifest
from shared.models import ExecutionIntent


def _intent(
    capability: str = "get_price", capabilities: list[str] | None = None, **parameters: object
) -> ExecutionIntent:
    return ExecutionIntent(
        domain="market",
        capability=capability,
        capabilities=capabilities or [capability],
        parameters=parameters,
        confidence=0.97,
        original_query="q",
    )


def test_single_step_plan(catalog: Catalog) -> None:
    plan = TaskDecomposer(catalog).decompose(_intent(symbol_text="Nordea"))
    assert (plan.execution_mode, plan.combine_mode) == ("sequential", "last")
    [step] = plan.steps
    assert (step.id, step.domain, step.capability, step.params) == (
        1,
        "market",
        "get_price",
        {"symbol_text": "Nordea"},
    )
    assert step.depends_on == [] and step.required and step.output_key == "primary"


def test_array_param_splits_one_step_per_value(catalog: Catalog) -> None:
    plan = TaskDecomposer(catalog).decompose(
        _intent(symbol_text=["Apple", "Microsoft", "Nvidia"], market_text="US")
    )
    assert (plan.execution_mode, plan.combine_mode, plan.max_concurrency) == ("parallel", "report", 3)
    assert [s.params for s in plan.steps] == [
        {"market_text": "US", "symbol_text": "Apple"},
        {"market_text": "US", "symbol_text": "Microsoft"},
        {"market_text": "US", "symbol_text": "Nvidia"},
    ]
    assert [s.id for s in plan.steps] == [1, 2, 3]
    assert all(s.depends_on == [] and s.required for s in plan.steps)
    assert any("3 values" in note for note in plan.notes)


def test_single_value_list_is_unwrapped(catalog: Catalog) -> None:
    plan = TaskDecomposer(catalog).decompose(_intent(symbol_text=["Apple"]))
    assert [s.params for s in plan.steps] == [{"symbol_text": "Apple"}]
    assert plan.combine_mode == "last"


def test_several_capabilities_run_in_parallel_as_a_report(catalog: Catalog) -> None:
    intent = _intent("get_gainers", ["get_gainers", "get_losers"], direction="BOTH")
    plan = TaskDecomposer(catalog).decompose(intent)
    assert [s.capability for s in plan.steps] == ["get_gainers", "get_losers"]
    assert (plan.execution_mode, plan.combine_mode) == ("parallel", "report")
    assert all(s.params == {"direction": "BOTH"} for s in plan.steps)


def test_composition_adds_an_optional_followup(catalog: Catalog) -> None:
    plan = TaskDecomposer(catalog).decompose(_intent(symbol_text="Vale", notify=True, channel_text="phone"))
    assert plan.execution_mode == "dag" and plan.combine_mode == "report"
    primary, followup = plan.steps
    assert primary.params == {"symbol_text": "Vale", "channel_text": "phone"}  # trigger not forwarded
    assert (followup.id, followup.domain, followup.capability) == (2, "messenger", "send_message")
    assert followup.params == {"message": "${1.explanation}", "payload": "${1.result}", "channel": "phone"}
    assert followup.depends_on == [1] and followup.required is False


def test_composition_after_a_split_joins_every_explanation(catalog: Catalog) -> None:
    plan = TaskDecomposer(catalog).decompose(_intent(symbol_text=["Vale", "Itaú"], notify=True))
    followup = plan.steps[-1]
    assert followup.depends_on == [1, 2]
    assert followup.params["message"] == "${1.explanation}\n${2.explanation}"
    assert followup.params["payload"] == ["${1.result}", "${2.result}"]


@pytest.mark.parametrize("notify", [False, None])
def test_composition_off_when_enabled_if_does_not_hold(catalog: Catalog, notify: bool | None) -> None:
    params = {"symbol_text": "Vale"} if notify is None else {"symbol_text": "Vale", "notify": notify}
    plan = TaskDecomposer(catalog).decompose(_intent(**params))
    assert [s.capability for s in plan.steps] == ["get_price"]
    assert plan.steps[0].params == {"symbol_text": "Vale"}


def test_composition_without_a_notifier_is_noted_not_fatal(market_only: Catalog) -> None:
    plan = TaskDecomposer(market_only).decompose(_intent(symbol_text="Vale", notify=True))
    assert len(plan.steps) == 1
    assert any("no registered capability has role notifier" in n for n in plan.notes)


def test_user_values_are_escaped_so_they_are_never_expanded(catalog: Catalog) -> None:
    plan = TaskDecomposer(catalog).decompose(
        _intent(symbol_text="${1.explanation}", notify=True, channel_text="${1.status}")
    )
    assert plan.steps[0].params["symbol_text"] == "$${1.explanation}"
    assert plan.steps[1].params["channel"] == "$${1.status}"


def test_unknown_capability_is_a_plan_error(catalog: Catalog) -> None:
    with pytest.raises(PlanError, match="capability 'brew'"):
        TaskDecomposer(catalog).decompose(_intent("brew"))


def test_fan_out_is_bounded(catalog: Catalog) -> None:
    with pytest.raises(PlanError, match="more than 64 steps"):
        TaskDecomposer(catalog).decompose(_intent(symbol_text=[f"s{i}" for i in range(65)]))


def test_works_for_an_invented_manifest() -> None:
    """Nothing in the decomposer knows any domain: a made-up one gets split and composed too."""
    garden = validate_manifest(
        {
            "domain": "garden",
            "version": "0.1",
            "description": "plants",
            "capabilities": [
                {
                    "name": "water_plant",
                    "description": "water one plant",
                    "metadata": {
                        "decomposition": {
                            "array_params": [
                                {"param_name": "plants", "single_param_name": "plant", "max_concurrency": 2}
                            ]
                        },
                        "composition": {
                            "followup_roles": ["logbook"],
                            "enabled_if": {"path": "parameters.log_it", "equals": "yes"},
                            "param_map": {"entry": {"from_parameters": ["_step_explanation"]}},
                        },
                    },
                },
                {"name": "write_log", "description": "log", "role": "logbook"},
            ],
        }
    )
    intent = ExecutionIntent(
        domain="garden",
        capability="water_plant",
        parameters={"plants": ["rose", "fern", "ivy"], "log_it": "yes"},
    )
    plan = TaskDecomposer(Catalog([garden])).decompose(intent)
    assert [(s.capability, s.params) for s in plan.steps] == [
        ("water_plant", {"plant": "rose"}),
        ("water_plant", {"plant": "fern"}),
        ("water_plant", {"plant": "ivy"}),
        ("write_log", {"entry": "${1.explanation}\n${2.explanation}\n${3.explanation}"}),
    ]
    assert plan.max_concurrency == 2 and plan.steps[3].depends_on == [1, 2, 3]
