"""A code that starts with the letters of the examples' codes ("cn 5077" beside "CN4821") is
evidence of its entity, like a value of a table: a clear request even when the classifier alone
is unsure, and it is one word ("CN5077 cancelaram?")."""

from __future__ import annotations

import pytest

from intent.entities import GoalEntityExtractor
from shared.manifest import Goal
from tests.conftest import example


@pytest.fixture(scope="module")
def refund() -> GoalEntityExtractor:
    return GoalEntityExtractor(
        Goal.model_validate(
            {
                "goal": "REFUND_PURCHASE",
                "description": {"pt": "Reembolsar uma compra", "en": "Refund a purchase"},
                "entities_schema": {"purchase_code_text": {"type": "string", "required": True}},
                "examples": [
                    example("reembolsa a compra CN4821", purchase_code_text="CN4821"),
                    example("refund my tickets CN5310", purchase_code_text="CN5310"),
                ],
            }
        )
    )


def test_a_code_with_the_examples_letters_is_evidence_of_its_entity(refund: GoalEntityExtractor) -> None:
    found = refund.extract("estorna a cn 5077 pfv")
    assert found == {"purchase_code_text": "cn5077"}
    assert refund.evidenced(found)
    assert not refund.evidenced({"purchase_code_text": "AB5077"})  # not the examples' letters
    assert not refund.evidenced({"purchase_code_text": "gym membership"})


def test_a_code_is_one_word_and_names_the_goal_like_a_table_value(refund: GoalEntityExtractor) -> None:
    found = refund.extract("CN5077 cancelaram?")
    assert found == {"purchase_code_text": "CN5077"}
    assert refund.from_table(found)
    assert not refund.from_table({"purchase_code_text": "AB5077"})
