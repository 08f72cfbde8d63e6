"""A composition's ``enabled_if``: the JMESPath form (``{"if": ...}``) beside the first one
(``{"path", "equals"}``), both read over the execution intent by the task decomposer."""

from __future__ import annotations

from typing import Any

import pytest

from planner.task_decomposer import TaskDecomposer
from shared.catalog import Catalog
from shared.manifest import EnabledIf, ManifestInvalid, validate_manifest
from shared.models import ExecutionIntent


def garden(enabled_if: dict[str, Any]) -> Catalog:
    manifest = validate_manifest(
        {
            "domain": "garden",
            "version": "0.1",
            "description": "plants",
            "capabilities": [
                {
                    "name": "water_plant",
                    "description": "water one plant",
                    "metadata": {
                        "composition": {
                            "followup_roles": ["logbook"],
                            "enabled_if": enabled_if,
                            "param_map": {"entry": {"from_parameters": ["_step_explanation"]}},
                        }
                    },
                },
                {"name": "write_log", "description": "log", "role": "logbook"},
            ],
        }
    )
    return Catalog([manifest])


def steps(enabled_if: dict[str, Any], **parameters: Any) -> list[tuple[str, dict[str, Any]]]:
    intent = ExecutionIntent(domain="garden", capability="water_plant", parameters=parameters)
    plan = TaskDecomposer(garden(enabled_if)).decompose(intent)
    return [(s.capability, s.params) for s in plan.steps]


@pytest.mark.parametrize(
    ("enabled_if", "parameters", "composed"),
    [
        ({"if": "parameters.log_it"}, {"log_it": True}, True),
        ({"if": "parameters.log_it"}, {"log_it": False}, False),
        ({"if": "parameters.log_it"}, {}, False),
        ({"if": "parameters.log_it == 'yes'"}, {"log_it": "yes"}, True),
        ({"if": "parameters.log_it == 'yes'"}, {"log_it": "no"}, False),
        ({"if": "length(parameters.plant) > `3`"}, {"plant": "ivy"}, False),
        ({"if": "length(parameters.plant) > `3`"}, {"plant": "rose"}, True),
        ({"path": "parameters.log_it", "equals": "yes"}, {"log_it": "yes"}, True),
        ({"path": "parameters.log_it", "equals": "yes"}, {"log_it": True}, False),
        ({"path": "parameters.log_it"}, {"log_it": True}, True),
    ],
)
def test_both_forms_switch_the_follow_up(
    enabled_if: dict[str, Any], parameters: dict[str, Any], composed: bool
) -> None:
    planned = steps(enabled_if, **{"plant": "rose", **parameters})
    assert [c for c, _ in planned] == (["water_plant", "write_log"] if composed else ["water_plant"])


@pytest.mark.parametrize(
    ("enabled_if", "trigger"),
    [
        ({"if": "parameters.log_it"}, "log_it"),
        ({"if": "`true` == parameters.log_it"}, "log_it"),
        ({"if": "parameters.log_it != 'no'"}, "log_it"),
        ({"if": "parameters.log_it && parameters.plant"}, None),
        ({"if": "goal == 'X'"}, None),
        ({"path": "parameters.log_it", "equals": "yes"}, "log_it"),
        ({"path": "parameters.a.b"}, None),
    ],
)
def test_the_trigger_parameter_is_not_passed_to_the_primary_step(
    enabled_if: dict[str, Any], trigger: str | None
) -> None:
    assert EnabledIf.model_validate(enabled_if).trigger_param() == trigger
    primary = steps(enabled_if, plant="rose", log_it="yes")[0][1]
    assert "log_it" not in primary if trigger == "log_it" else primary["log_it"] == "yes"


def test_an_expression_that_cannot_be_computed_does_not_hold() -> None:
    assert steps({"if": "length(parameters.log_it) > `1`"}, log_it=5) == [("water_plant", {"log_it": 5})]


@pytest.mark.parametrize(
    ("enabled_if", "words"),
    [
        ({}, "either 'if'"),
        ({"if": "parameters.a", "path": "parameters.a"}, "either 'if'"),
        ({"if": "parameters.a =="}, "invalid expression"),
        ({"if": "parameters.a", "equals": False}, "'equals' goes with 'path'"),
    ],
)
def test_a_malformed_enabled_if_is_refused_at_registration(enabled_if: dict[str, Any], words: str) -> None:
    with pytest.raises(ManifestInvalid, match=words):
        garden(enabled_if)


@pytest.mark.parametrize("enabled_if", [{"if": "parameters.log_it == 'yes'"}, {"path": "parameters.log_it"}])
def test_a_dump_reads_back_as_written(enabled_if: dict[str, Any]) -> None:
    """A domain's GET /manifest dumps its manifest; the gateway validates that dump again."""
    catalog = garden(enabled_if)
    dumped = catalog.manifests()[0].model_dump(mode="json", exclude_none=True)
    composition = dumped["capabilities"][0]["metadata"]["composition"]
    assert composition["enabled_if"] == {"equals": True, **enabled_if} if "path" in enabled_if else enabled_if
    assert validate_manifest(dumped) == catalog.manifests()[0]
