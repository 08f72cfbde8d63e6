"""Portuguese as typed in chat: "pro João" is the cue "pra Ana" of the examples (both contract
"para"), and "30 conto", "50 pila" are amounts in reais."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from intent.entities import GoalEntityExtractor, context_word
from intent.typed import RECOGNIZER
from shared.manifest import Goal
from tests.conftest import example

GOAL = Goal.model_validate(
    {
        "goal": "TRANSFER_MONEY",
        "description": {"pt": "Transferir dinheiro", "en": "Send money"},
        "entities_schema": {
            "amount": {"type": "money", "required": True},
            "recipient_text": {"type": "string", "required": True},
        },
        "examples": [
            example("transfere 200 reais pra Ana", amount="200 reais", recipient_text="Ana"),
            example("faz um pix de R$ 50 pra Carla Mendes", amount="R$ 50", recipient_text="Carla Mendes"),
        ],
    }
)


@pytest.mark.parametrize("word", ["pra", "pro", "pras", "pros", "para"])
def test_the_contractions_of_para_are_one_cue(word: str) -> None:
    assert context_word(word) == "para"


def test_a_name_in_lower_case_after_pro_is_the_recipient() -> None:
    extractor = GoalEntityExtractor(GOAL)
    assert extractor.extract("transfere 30 reais pro joão") == {
        "amount": {"amount": 30, "currency": "BRL"},
        "recipient_text": "joão",
    }


def money(text: str) -> list[object]:
    now = datetime(2026, 3, 10, 9, tzinfo=UTC)
    return [s.value for s in RECOGNIZER.spans(text, "pt", time_zone="UTC", now=now) if s.type == "money"]


@pytest.mark.parametrize(
    ("text", "amount"), [("pix de 30 conto", 30), ("manda 50 pila", 50), ("2 contos", 2)]
)
def test_the_reals_slang_after_an_amount_is_money(text: str, amount: int) -> None:
    assert money(text) == [{"amount": amount, "currency": "BRL"}]


def test_the_slang_alone_is_no_amount() -> None:
    assert money("li um conto de machado") == []


@pytest.mark.parametrize("pronoun", ["dele", "dela", "deles", "nela", "lhe"])
def test_a_pronoun_joined_to_a_preposition_is_no_object(pronoun: str) -> None:
    # "e qual o status *dele*?": what was talked of, nothing the goal has to know
    assert GoalEntityExtractor(GOAL).unexplained_words(f"e o valor {pronoun}?", {}) == ["valor"]
