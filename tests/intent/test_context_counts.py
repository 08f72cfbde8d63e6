"""The words the examples put beside an entity are counted with a typo's tolerance through a
vocabulary kept beside the counts (one rapidfuzz call, not a loop over every word), with the
answers of comparing each word with ``fuzzy_equal``."""

from __future__ import annotations

from collections import Counter

import pytest

from intent.entities import GoalEntityExtractor, _StringContext, fuzzy_equal
from shared.manifest import Goal
from tests.conftest import example

GOAL = Goal.model_validate(
    {
        "goal": "TRANSFER_MONEY",
        "description": {"pt": "Transferir dinheiro", "en": "Send money"},
        "entities_schema": {"recipient_text": {"type": "string", "required": True}},
        "examples": [
            example("transfere 200 pra Ana amanhã", recipient_text="Ana"),
            example("transferir 50 para o Carlos hoje", recipient_text="Carlos"),
            example("manda dinheiro pra Beatriz", recipient_text="Beatriz"),
            example("send money to Bruno", recipient_text="Bruno"),
        ],
    }
)


def by_loop(seen: Counter[str], word: str) -> int:
    return seen[word] or sum(n for w, n in seen.items() if fuzzy_equal(w, word))


@pytest.mark.parametrize("word", ["pra", "pro", "para", "parra", "amanha", "amanah", "to", "tu", "", "zzz"])
def test_the_counts_are_those_of_comparing_every_word(word: str) -> None:
    context = GoalEntityExtractor(GOAL)._contexts["recipient_text"]
    assert context.count_left(word) == by_loop(context.left, word)
    assert context.count_right(word) == by_loop(context.right, word)


def test_a_word_learnt_after_a_count_is_counted() -> None:
    context = _StringContext()
    context.left["transfere"] += 1
    assert context.count_left("tranfere") == 1
    context.left["transferir"] += 2
    assert context.count_left("tranferir") == by_loop(context.left, "tranferir") > 1
