"""A goal's examples, tables and synonyms are read the way messages are, and a phrase's word is not
taken for another word of the language: a plan named "Pós 50GB" is found in "muda pro 50gb"; a
"chuveiro" (a shower) is no "chaveiro" (a locksmith); "put me on the family plan" changes a plan."""

from __future__ import annotations

from typing import Any

from intent.entities import GoalEntityExtractor
from shared.manifest import Goal
from tests.conftest import example

PLANS = [
    {"value": "Controle 15GB", "aliases": ["controle", "15gb"]},
    {"value": "Pós 50GB", "aliases": ["pós", "pos pago", "postpaid", "50gb"]},
    {"value": "Ilimitado Família", "aliases": ["ilimitado", "family plan", "unlimited"]},
]
CHANGE_PLAN: dict[str, Any] = {
    "goal": "CHANGE_PLAN",
    "description": {"pt": "Trocar de plano", "en": "Change plan"},
    "entities_schema": {"plan_text": {"type": "string", "required": True, "lookup": PLANS}},
    "capabilities": ["change_plan"],
    "examples": [
        # the table's name as written, glued number and all: its words are no phrasing
        example("muda meu plano pro Pós 50GB", plan_text="Pós 50GB"),
        example("quero passar pro ilimitado", plan_text="ilimitado"),
        example("switch me to the unlimited plan", plan_text="unlimited"),
        example("change my plan to postpaid", plan_text="postpaid"),
    ],
}
OPEN_REPAIR: dict[str, Any] = {
    "goal": "OPEN_REPAIR",
    "description": {"pt": "Abrir um chamado de manutenção", "en": "Open a maintenance request"},
    "entities_schema": {
        "problem_type": {
            "type": "enum",
            "required": True,
            "values": ["LOCKS", "PAINTING"],
            "synonyms": {"LOCKS": ["fechadura", "chaveiro", "locksmith"], "PAINTING": ["pintor", "pintura"]},
        },
        "unit_text": {"type": "string"},
    },
    "capabilities": ["open_repair"],
    "examples": [
        example("abre um chamado de fechadura no 1001", problem_type="fechadura", unit_text="1001"),
        example("preciso de um pintor no 204", problem_type="pintor", unit_text="204"),
        example("open a locksmith request for unit 12", problem_type="locksmith", unit_text="12"),
    ],
}


def extractor(raw: dict[str, Any]) -> GoalEntityExtractor:
    return GoalEntityExtractor(Goal.model_validate(raw))


def test_a_table_name_with_a_number_glued_to_a_unit_is_found_as_people_write_it() -> None:
    plans = extractor(CHANGE_PLAN)
    assert plans.extract("muda pro pós") == {"plan_text": "pós"}
    assert plans.extract("quero o plano pós") == {"plan_text": "pós"}
    assert plans.extract("muda pro 50gb") == {"plan_text": "50gb"}


def test_another_vowel_in_a_words_root_is_another_word_not_a_typo() -> None:
    repairs = extractor(OPEN_REPAIR)
    assert "problem_type" not in repairs.extract("o chuveiro do 302 queimou")
    # a slip of a finger, a vowel of the ending, a letter left out: still the synonym
    assert repairs.extract("chamei o chaveirp pro 302")["problem_type"] == "LOCKS"
    assert repairs.extract("quero pintar o 204")["problem_type"] == "PAINTING"
    assert repairs.extract("a fechdura do 302 quebrou")["problem_type"] == "LOCKS"


def test_putting_a_line_on_a_plan_is_changing_it_not_another_action() -> None:
    plans = extractor(CHANGE_PLAN)
    assert plans.unsupported_action("put 11 91234-5678 on the family plan") is None
    assert plans.unsupported_action("bota meu número no pós") is None
    # a verb of an action the goal does not do still is one
    assert plans.unsupported_action("cancela meu plano pós") == "cancela"
