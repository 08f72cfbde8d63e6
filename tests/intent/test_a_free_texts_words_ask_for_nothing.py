"""The words of a free-text value (a problem, a message) are the request's payload, not words
that ask for a goal: "open a ticket: the scanner jams on every page" is read as its frame, "open a
ticket", when the whole message is unsure, and the problem is the goal's value."""

from __future__ import annotations

import pytest

from bench.intent_eval import shipped_manifests
from bench.understanding.round2.domains import helpdesk, payments, restaurant
from intent.embedded import EmbeddedIntentAdapter
from shared.catalog import Catalog


@pytest.fixture(scope="module")
def adapter() -> EmbeddedIntentAdapter:
    # the sentence encoder, as the gateway reads: the problem's words pull the whole message away
    manifests = [m.service.manifest_with_lookups() for m in (helpdesk, payments, restaurant)]
    return EmbeddedIntentAdapter(Catalog([*shipped_manifests(), *manifests]))


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("open a ticket: the scanner jams on every page", "the scanner jams on every page"),
        ("abre um chamado: o monitor pisca o tempo todo", "o monitor pisca o tempo todo"),
    ],
)
def test_the_frame_of_a_free_text_asks_for_the_goal(
    adapter: EmbeddedIntentAdapter, text: str, problem: str
) -> None:
    read = adapter.parse_sync(text)
    assert (read.goal, read.entities) == ("OPEN_TICKET", {"problem_text": problem}), read.notes


@pytest.mark.parametrize(
    "text", ["the scanner jams on every page", "qual a previsão do tempo: chove amanhã?"]
)
def test_without_the_goals_frame_nothing_is_read(adapter: EmbeddedIntentAdapter, text: str) -> None:
    assert adapter.parse_sync(text).goal is None
