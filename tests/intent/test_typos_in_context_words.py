"""The words the examples put around an entity are recognised with a typo in a long word, as the
goal's phrasing is: "*tranfere* 40 pro bruno" says an amount where "transfere 200 pra Ana" did."""

from __future__ import annotations

from intent.entities import GoalEntityExtractor
from shared.manifest import Goal
from tests.conftest import example

GOAL = Goal.model_validate(
    {
        "goal": "TRANSFER_MONEY",
        "description": {"pt": "Transferir dinheiro", "en": "Send money"},
        "entities_schema": {
            "amount": {"type": "money", "required": True},
            "recipient_text": {"type": "string", "required": True},
            # a count beside the amount: a bare number is not the amount for being the only one
            "installments": {"type": "number"},
        },
        "examples": [
            example("transfere 200 pra Ana", amount="200", recipient_text="Ana"),
            example("transfere 50 pro Carlos", amount="50", recipient_text="Carlos"),
        ],
    }
)


def test_an_amount_beside_a_typo_of_its_context_word() -> None:
    extractor = GoalEntityExtractor(GOAL)
    assert extractor.extract("tranfere 40").get("amount") == {"amount": 40, "currency": None}


def test_a_short_word_is_no_typo_of_a_context_word() -> None:
    extractor = GoalEntityExtractor(GOAL)
    assert "amount" not in extractor.extract("tranf 40")


VERSIONS = Goal.model_validate(
    {
        "goal": "COMPARE_VERSIONS",
        "description": {"pt": "Comparar as versões da hipótese", "en": "Compare hypothesis versions"},
        "entities_schema": {"versions_text": {"type": "string"}},
        "examples": [
            example("comparar v1 e v2 da hipótese", versions_text="v1 e v2"),
            example("listar versões da hipótese"),
        ],
    }
)


def test_a_phrase_after_another_form_of_its_cue() -> None:
    extractor = GoalEntityExtractor(VERSIONS)
    assert extractor.extract("compara a v1 com a v3").get("versions_text") == "a v1 com a v3"
