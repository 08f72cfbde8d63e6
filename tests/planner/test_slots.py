"""check_slots: what a plan lacks before any domain is called, tied to the goal entity that fills it."""

from __future__ import annotations

from typing import Any

from planner.service import PlannerService
from planner.slots import SlotProblem, check_slots, schema_problems
from shared.catalog import Catalog
from shared.json_schema import validators
from shared.manifest import validate_manifest
from shared.models import IntentOutput

TICKETS: dict[str, Any] = {
    "domain": "tickets",
    "version": "1",
    "description": "bus tickets",
    "capabilities": [
        {
            "name": "book",
            "description": "book a seat",
            "parameters": {
                "type": "object",
                "properties": {
                    "city_text": {"type": "string", "minLength": 2},
                    "seat": {"type": "string", "pattern": "^[0-9]+[A-D]$"},
                    "passenger_id": {"type": "string"},
                },
                "anyOf": [{"required": ["city_text"]}, {"required": ["seat"]}],
                "required": ["passenger_id"],
            },
        }
    ],
    "goals": [
        {
            "goal": "BOOK",
            "description": "reservar passagem (book a ticket)",
            "capabilities": ["book"],
            "entities_schema": {
                "city_text": {"type": "string", "required": True},
                "seat": {"type": "string"},
                "class": {
                    "type": "enum",
                    "values": ["ECONOMY", "FIRST"],
                    "required": True,
                    "default": "ECONOMY",
                },
            },
        }
    ],
}


def problems(entities: dict[str, Any], catalog: Catalog | None = None) -> list[SlotProblem]:
    catalog = catalog or Catalog([validate_manifest(TICKETS)])
    intent = IntentOutput(primary_domain="tickets", goal="BOOK", entities=entities, confidence=0.9)
    execution_intent, plan = PlannerService(catalog).plan(intent)
    return check_slots(intent, execution_intent, plan, catalog)


def test_a_missing_required_entity_is_asked_for_and_a_parameter_no_entity_gives_is_named() -> None:
    found = problems({})
    assert [(p.param, p.problem, p.entity) for p in found] == [
        ("city_text", "missing", "city_text"),
        ("passenger_id", "missing", None),
    ]


def test_an_invalid_value_is_tied_to_its_entity() -> None:
    found = problems({"city_text": "Recife", "seat": "window", "passenger_id": "p1"})
    assert [(p.param, p.problem, p.entity) for p in found] == [("seat", "invalid", "seat")]
    assert "does not match" in found[0].detail


def test_nothing_to_ask_when_the_schema_is_satisfied() -> None:
    assert problems({"city_text": "Recife", "passenger_id": "p1"}) == []


def test_out_of_scope_and_composition_steps_are_not_checked(catalog: Catalog) -> None:
    intent = IntentOutput(goal=None, original_query="hello")
    execution_intent, plan = PlannerService(catalog).plan(intent)
    assert check_slots(intent, execution_intent, plan, catalog) == []
    quote = IntentOutput(
        primary_domain="market", goal="GET_QUOTE", entities={"symbol_text": "Vale", "notify": True}
    )
    execution_intent, plan = PlannerService(catalog).plan(quote)
    assert len(plan.steps) == 2  # the quote and its notifier follow-up
    assert check_slots(quote, execution_intent, plan, catalog) == []


def test_a_value_an_earlier_step_gives_counts_as_present() -> None:
    """An LLM plan's parameter bound at run time (``${N.field}``, ``${= ...}``) is there, only not
    known yet: it is neither missing nor checked against the schema before the run."""
    goal = Catalog([validate_manifest(TICKETS)]).find_goal("tickets", "BOOK")
    assert goal is not None
    schema = validators(TICKETS["capabilities"][0]["parameters"])
    late = {"passenger_id": "${1.result.id}", "seat": "${= step1.result.seats[0]}"}
    assert schema_problems(schema, late, goal) == []
    # what is known is still checked, and what is absent still missing
    problems = schema_problems(schema, {"passenger_id": "${1.result.id}", "seat": "99Z"}, goal)
    assert [(p.param, p.problem) for p in problems] == [("seat", "invalid")]
    assert [p.param for p in schema_problems(schema, {"seat": "${= step1.result.seat}"}, goal)] == [
        "passenger_id"
    ]


def test_an_llm_plan_is_asked_only_for_what_its_steps_lack() -> None:
    catalog = Catalog([validate_manifest(TICKETS)])
    intent = IntentOutput(primary_domain="tickets", goal="BOOK", entities={}, language="pt")
    execution_intent, plan = PlannerService(catalog).plan(intent)
    assert [p.entity for p in check_slots(intent, execution_intent, plan, catalog)][:1] == ["city_text"]
    # the same goal planned by the LLM: the seat comes from an earlier step, the city is not needed
    step = plan.steps[0].model_copy(
        update={"params": {"seat": "${= step0.result.seat}", "passenger_id": "p1"}}
    )
    llm_plan = plan.model_copy(update={"planner": "llm", "steps": [step]})
    assert check_slots(intent, execution_intent, llm_plan, catalog) == []
    # a parameter its steps lack is still asked for
    lacking = llm_plan.model_copy(update={"steps": [step.model_copy(update={"params": {"seat": "1A"}})]})
    assert [(p.param, p.problem) for p in check_slots(intent, execution_intent, lacking, catalog)] == [
        ("passenger_id", "missing")
    ]


def test_an_llm_plan_step_lacking_a_whole_required_one_of_group_is_asked_for_it() -> None:
    """``required_one_of`` guards an LLM plan's steps as an ``anyOf`` in ``parameters`` would:
    a step passing neither alternative is asked for the group, one passing either is not."""
    manifest: dict[str, Any] = {
        "domain": "bills",
        "version": "1",
        "description": "bills",
        "capabilities": [{"name": "pay_bill", "description": "pay a bill"}],
        "goals": [
            {
                "goal": "PAY_BILL",
                "description": "pagar uma conta (pay a bill)",
                "capabilities": ["pay_bill"],
                "entities_schema": {
                    "biller_text": {"type": "string"},
                    "barcode_text": {"type": "string"},
                    "amount": {"type": "number"},
                },
                "required_one_of": [["biller_text", "barcode_text"]],
            }
        ],
    }
    catalog = Catalog([validate_manifest(manifest)])
    intent = IntentOutput(primary_domain="bills", goal="PAY_BILL", entities={"amount": 50}, language="pt")
    execution_intent, plan = PlannerService(catalog).plan(intent)
    step = plan.steps[0]
    paid_by_barcode = step.model_copy(update={"params": {"barcode_text": "2379"}})
    unnamed = step.model_copy(update={"id": 2, "params": {"amount": 50}})
    llm_plan = plan.model_copy(update={"planner": "llm", "steps": [paid_by_barcode, unnamed]})
    found = check_slots(intent, execution_intent, llm_plan, catalog)
    assert [(p.param, p.problem, p.entity) for p in found] == [("biller_text", "missing", "biller_text")]
    named = llm_plan.model_copy(
        update={"steps": [paid_by_barcode, paid_by_barcode.model_copy(update={"id": 2})]}
    )
    assert check_slots(intent, execution_intent, named, catalog) == []
