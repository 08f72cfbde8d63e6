"""A goal that changes something is not started by one of its values alone: "baixa o pdf do dom
casmurro" names a book a renewal knows and asks something else of it. A word of the goal's own
phrasing, or required values that outweigh the words it does not know, keep the goal."""

from __future__ import annotations

import pytest

from bench.understanding.round4.domains import cinema, library
from intent.embedded import EmbeddedIntentAdapter
from shared.catalog import Catalog

CONTEXT = {"now": "2026-03-10T10:00:00-03:00"}


@pytest.fixture(scope="module")
def adapter() -> EmbeddedIntentAdapter:
    manifests = [library.service.manifest_with_lookups(), cinema.service.manifest_with_lookups()]
    return EmbeddedIntentAdapter(Catalog(manifests), use_embeddings=False)


@pytest.mark.parametrize(
    "text",
    [
        "baixa o pdf do dom casmurro pra mim",
        "qual o resumo de dom casmurro?",
        "download the pdf of dom casmurro",
    ],
)
def test_another_action_on_a_value_is_no_such_goal(adapter: EmbeddedIntentAdapter, text: str) -> None:
    read = adapter.parse_sync(text, context=CONTEXT)
    assert read.goal is None, (read.goal, read.entities, read.notes)


@pytest.mark.parametrize(
    ("text", "goal"),
    [
        ("renova o dom casmurro", "RENEW_LOAN"),  # the goal's verb
        ("renew dom casmurro please", "RENEW_LOAN"),
        # four required values outweigh the one word no example uses
        ("garante 2 pro duna amanhã 19h", "BUY_TICKETS"),
    ],
)
def test_the_goals_words_or_its_values_keep_it(adapter: EmbeddedIntentAdapter, text: str, goal: str) -> None:
    read = adapter.parse_sync(text, context=CONTEXT)
    assert read.goal == goal, read.notes
