"""How an MCP server's tools and results map onto the domain protocol (orchestrator.mcp_domain);
the same adapter against a real MCP server process is in tests/integration/test_mcp.py."""

from __future__ import annotations

from typing import Any

import pytest
from mcp.types import CallToolResult, TextContent, Tool, ToolAnnotations

from orchestrator.mcp_domain import (
    MESSAGES,
    McpRegistration,
    coerce_arguments,
    endpoint_url,
    is_mcp_url,
    manifest_from_tools,
    mcp_base_url,
    output_from_result,
    tool_policy,
)
from shared.manifest import Goal, ManifestInvalid, ManifestLimits


def tool(name: str, hints: ToolAnnotations | None = None, **schema: Any) -> Tool:
    return Tool(
        name=name,
        description=f"What {name} does.\nMore details.",
        input_schema={"type": "object", **schema},
        annotations=hints,
    )


def test_the_scheme_says_how_a_base_url_is_called() -> None:
    assert mcp_base_url("http://tools:9000/mcp") == "mcp+http://tools:9000/mcp"
    assert mcp_base_url("mcp+https://tools/mcp") == "mcp+https://tools/mcp"
    assert is_mcp_url("mcp+https://tools/mcp") and not is_mcp_url("http://tools/mcp")
    assert not is_mcp_url("mcp+ftp://tools/mcp")
    assert endpoint_url("mcp+http://tools:9000/mcp") == "http://tools:9000/mcp"
    assert endpoint_url("http://finance:8001") == "http://finance:8001"


@pytest.mark.parametrize(
    ("hints", "policy"),
    [
        (None, {"attempts": 1, "idempotent": False, "confirm": False}),
        (ToolAnnotations(idempotent_hint=True), {"attempts": 2, "idempotent": True, "confirm": False}),
        (ToolAnnotations(read_only_hint=True), {"attempts": 2, "idempotent": True, "confirm": False}),
        (ToolAnnotations(destructive_hint=True), {"attempts": 1, "idempotent": False, "confirm": True}),
        # read-only wins: destructiveHint means nothing for a tool that changes nothing
        (
            ToolAnnotations(read_only_hint=True, destructive_hint=True),
            {"attempts": 2, "idempotent": True, "confirm": False},
        ),
    ],
)
def test_annotations_set_the_execution_policy(hints: ToolAnnotations | None, policy: dict[str, Any]) -> None:
    assert tool_policy(tool("t", hints)) == policy


def test_entities_come_from_the_parameters_a_person_can_name() -> None:
    schema: dict[str, Any] = {
        "properties": {
            "city": {"type": "string", "description": "The city"},
            "days": {"type": "integer"},
            "unit": {"type": "string", "enum": ["C", "F"]},
            "alerts": {"type": "boolean"},
            "tags": {"type": "array", "items": {"type": "string"}},
            "raw": {"type": "object"},
        },
        "required": ["city", "raw"],
    }
    manifest = manifest_from_tools("weather", [tool("forecast", **schema)], version="1", description="W")
    goal = manifest.goals[0]
    assert goal.goal == "WEATHER_FORECAST" and goal.description == "What forecast does."
    specs = goal.entities_schema
    assert sorted(specs) == ["alerts", "city", "days", "tags", "unit"]  # an object cannot come from text
    assert (specs["city"].type, specs["city"].required, specs["city"].description) == (
        "string",
        True,
        "The city",
    )
    assert specs["unit"].values == ["C", "F"] and specs["alerts"].type == "boolean"
    assert specs["tags"].multiple and specs["days"].type == "string"


def test_given_goals_replace_the_generated_ones_and_are_checked() -> None:
    given = Goal.model_validate(
        {
            "goal": "FORECAST",
            "description": "Previsão do tempo",
            "capabilities": ["forecast"],
            "examples": ["tempo"],
        }
    )
    manifest = manifest_from_tools(
        "weather",
        [tool("forecast")],
        version="1",
        description="from the server",
        registration=McpRegistration(description="Weather", goals=[given]),
    )
    assert [g.goal for g in manifest.goals] == ["FORECAST"] and manifest.description == "Weather"
    wrong = given.model_copy(update={"capabilities": ["no_such_tool"]})
    with pytest.raises(ManifestInvalid, match="no_such_tool"):
        manifest_from_tools(
            "weather",
            [tool("forecast")],
            version="1",
            description="",
            registration=McpRegistration(goals=[wrong]),
        )


def test_a_server_with_too_many_tools_is_refused_like_a_large_manifest() -> None:
    tools = [tool(f"t{i}") for i in range(5)]
    with pytest.raises(ManifestInvalid, match="more than 4 entries"):
        manifest_from_tools(
            "many", tools, version="1", description="", limits=ManifestLimits(max_capabilities=4)
        )


def test_results_become_domain_outputs() -> None:
    structured = CallToolResult(
        content=[TextContent(text='{\n  "city": "Oslo",\n  "temp": -3\n}')],
        structured_content={"city": "Oslo", "temp": -3},
    )
    output = output_from_result(structured)
    assert output.status == "success" and output.result == {"city": "Oslo", "temp": -3}
    assert output.explanation == "city: Oslo, temp: -3"  # not the JSON document

    text = output_from_result(CallToolResult(content=[TextContent(text="Sunny in Oslo.")]))
    assert (text.result, text.explanation) == ({"text": "Sunny in Oslo."}, "Sunny in Oslo.")

    failed = output_from_result(CallToolResult(content=[TextContent(text="no such city")], is_error=True))
    assert failed.status == "failure" and failed.explanation == "no such city"
    assert failed.failure is not None and (failed.failure.reason, failed.failure.recoverable) == (
        "tool_error",
        False,
    )

    silent = output_from_result(CallToolResult(content=[], is_error=True), "forecast", "en")
    assert silent.explanation == "The 'forecast' tool failed without saying why."


def test_the_adapter_texts_exist_in_every_language() -> None:
    assert MESSAGES.untranslated() == [] and MESSAGES.mismatched_parameters() == []


def test_text_values_become_the_types_the_tool_declares() -> None:
    schema = {
        "properties": {
            "n": {"type": "integer"},
            "x": {"type": "number"},
            "b": {"type": "boolean"},
            "s": {"type": "string"},
        }
    }
    given = {"n": " 3 ", "x": "2,5", "b": "True", "s": "7", "extra": "1"}
    assert coerce_arguments(given, schema) == {"n": 3, "x": 2.5, "b": True, "s": "7", "extra": "1"}
    # what does not convert goes as it is, for the tool to refuse in its own words
    assert coerce_arguments({"n": "three"}, schema) == {"n": "three"}
