from __future__ import annotations

import pytest

from planner import GoalResolver
from shared.catalog import Catalog
from shared.errors import PlanError
from shared.models import IntentOutput


def _intent(goal: str | None, entities: dict | None = None, domain: str | None = "market") -> IntentOutput:
    return IntentOutput(
        primary_domain=domain if goal else None,
        goal=goal,
        entities=entities or {},
        confidence=0.95,
        original_query="the words the person typed",
        language="en",
    )


def test_goal_without_capability_map_uses_goal_capabilities(catalog: Catalog) -> None:
    resolved = GoalResolver(catalog).resolve(_intent("GET_QUOTE", {"symbol_text": "Nordea"}))
    assert (resolved.domain, resolved.capability, resolved.capabilities) == (
        "market",
        "get_price",
        ["get_price"],
    )
    assert resolved.parameters == {"symbol_text": "Nordea"}
    assert resolved.confidence == 0.95
    assert resolved.original_query == "the words the person typed"
    assert resolved.goal == "GET_QUOTE"


@pytest.mark.parametrize(
    ("direction", "expected"),
    [
        ("GAINERS", ["get_gainers"]),
        ("LOSERS", ["get_losers"]),
        ("BOTH", ["get_gainers", "get_losers"]),
        (None, ["get_gainers"]),  # absent -> the map's first capability, not the entity's default
    ],
)
def test_capability_map_decides(catalog: Catalog, direction: str | None, expected: list[str]) -> None:
    entities = (
        {"market_text": "Brasil"} if direction is None else {"direction": direction, "market_text": "Brasil"}
    )
    resolved = GoalResolver(catalog).resolve(_intent("TOP_MOVERS", entities))
    assert resolved.capability == expected[0]
    assert resolved.capabilities == expected
    assert resolved.parameters.get("direction") == direction
    assert resolved.parameters["market_text"] == "Brasil"


def test_defaults_fill_entities_that_do_not_pick_a_capability(catalog: Catalog) -> None:
    resolved = GoalResolver(catalog).resolve(_intent("TOP_MOVERS", {"direction": "LOSERS"}))
    assert resolved.parameters == {"direction": "LOSERS", "market_text": "any"}


def test_out_of_scope_goes_to_first_fallback_capability(catalog: Catalog) -> None:
    resolved = GoalResolver(catalog).resolve(_intent(None, {}))
    assert (resolved.domain, resolved.capability, resolved.goal) == ("helpdesk", "answer_anything", None)
    assert resolved.parameters == {"query": "the words the person typed"}


def test_out_of_scope_without_fallback_is_a_plan_error(market_only: Catalog) -> None:
    with pytest.raises(PlanError, match="fallback"):
        GoalResolver(market_only).resolve(_intent(None))


def test_unknown_goal_is_a_plan_error(catalog: Catalog) -> None:
    with pytest.raises(PlanError, match="no goal 'MAKE_COFFEE'") as err:
        GoalResolver(catalog).resolve(_intent("MAKE_COFFEE"))
    assert err.value.param == "goal"


def test_unknown_domain_is_a_plan_error(catalog: Catalog) -> None:
    with pytest.raises(PlanError, match="unknown domain 'kitchen'"):
        GoalResolver(catalog).resolve(_intent("GET_QUOTE", domain="kitchen"))


def test_enum_value_outside_the_schema_is_a_plan_error(catalog: Catalog) -> None:
    with pytest.raises(PlanError) as err:
        GoalResolver(catalog).resolve(_intent("TOP_MOVERS", {"direction": "SIDEWAYS"}))
    assert err.value.param == "entities.direction"


def test_missing_domain_is_found_from_the_goal(catalog: Catalog) -> None:
    intent = _intent("GET_QUOTE", {"symbol_text": "x"}).model_copy(update={"primary_domain": None})
    assert GoalResolver(catalog).resolve(intent).domain == "market"
