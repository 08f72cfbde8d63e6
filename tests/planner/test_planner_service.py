from __future__ import annotations

from planner import PlannerService, SessionMemory
from shared.catalog import Catalog
from shared.entities import EntityValue
from shared.models import IntentOutput


def _intent(goal: str | None, **entities: EntityValue) -> IntentOutput:
    return IntentOutput(
        primary_domain="market" if goal else None,
        goal=goal,
        entities=entities,
        confidence=0.96,
        original_query="q",
    )


def test_plan_resolves_then_decomposes(catalog: Catalog) -> None:
    execution_intent, plan = PlannerService(catalog).plan(
        _intent("GET_QUOTE", symbol_text=["Apple", "Nvidia"])
    )
    assert execution_intent.capability == "get_price"
    assert [s.params["symbol_text"] for s in plan.steps] == ["Apple", "Nvidia"]
    assert any(n.startswith("decomposition:") for n in plan.notes)


def test_memory_fills_a_missing_required_entity_of_the_same_goal(catalog: Catalog) -> None:
    memory = SessionMemory()
    memory.remember(_intent("GET_QUOTE", symbol_text="Vale"), answer="Vale: 60")
    execution_intent, plan = PlannerService(catalog).plan(_intent("GET_QUOTE", notify=True), memory)
    assert execution_intent.parameters["symbol_text"] == "Vale"
    assert plan.steps[0].params == {"symbol_text": "Vale"}
    assert any("memory: symbol_text='Vale'" in n for n in plan.notes)


def test_memory_is_not_used_across_goals_or_when_the_entity_is_present(catalog: Catalog) -> None:
    memory = SessionMemory()
    memory.remember(_intent("TOP_MOVERS", direction="LOSERS"))
    execution_intent, plan = PlannerService(catalog).plan(_intent("GET_QUOTE"), memory)
    assert "symbol_text" not in execution_intent.parameters
    assert not any(n.startswith("memory") for n in plan.notes)

    memory.remember(_intent("GET_QUOTE", symbol_text="Vale"))
    execution_intent, _ = PlannerService(catalog).plan(_intent("GET_QUOTE", symbol_text="Itaú"), memory)
    assert execution_intent.parameters["symbol_text"] == "Itaú"


def test_out_of_scope_is_noted(catalog: Catalog) -> None:
    execution_intent, plan = PlannerService(catalog).plan(_intent(None))
    assert execution_intent.capability == "answer_anything"
    assert any("out of scope" in n for n in plan.notes)


def test_update_catalog_swaps_what_the_planner_sees(catalog: Catalog, market_only: Catalog) -> None:
    service = PlannerService(market_only)
    _, plan = service.plan(_intent("GET_QUOTE", symbol_text="Vale", notify=True))
    assert len(plan.steps) == 1
    service.update_catalog(catalog)
    _, plan = service.plan(_intent("GET_QUOTE", symbol_text="Vale", notify=True))
    assert [s.capability for s in plan.steps] == ["get_price", "send_message"]
