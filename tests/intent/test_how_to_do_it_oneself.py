"""A question that asks how to do something oneself ("como eu faço a barra de uma calça em
casa?", "how do I hem pants without a sewing machine?") is no price nor order of a tailor's: no
goal tells how. A how-to question about the goal's own action ("how do I book a tour?") asks for
that action; of a goal that has something done, the doing itself asked how ("como eu limpo a
piscina sozinho?" of a cleaning visit's booking) is doing it oneself, and the asking for it ("how
do I book a court?") that goal."""

from __future__ import annotations

import pytest

from intent.embedded import EmbeddedIntentAdapter

CONTEXT = {"now": "2026-03-10T09:00:00-03:00", "time_zone": "America/Sao_Paulo"}


@pytest.mark.parametrize(
    "text",
    ["como eu faço a barra de uma calça em casa?", "how do I hem pants without a sewing machine?"],
)
def test_how_to_hem_oneself_is_out_of_scope(round15_beside_shipped: EmbeddedIntentAdapter, text: str) -> None:
    out = round15_beside_shipped.parse_sync(text, context=CONTEXT)
    assert out.goal is None, out.notes
    assert any("asks how to" in note for note in out.notes), out.notes


@pytest.mark.parametrize(
    ("text", "goal"),
    [
        ("how do I book a tour?", "BOOK_TOUR"),
        ("como cancelo minha aula AE5101?", "CANCEL_LESSON"),
        ("quanto custa fazer a barra de uma calça?", "ALTERATION_PRICE"),
    ],
)
def test_the_goals_own_action_asked_how_is_that_goal(
    round15_beside_shipped: EmbeddedIntentAdapter, text: str, goal: str
) -> None:
    assert round15_beside_shipped.parse_sync(text, context=CONTEXT).goal == goal


@pytest.mark.parametrize("text", ["como eu limpo a piscina sozinho?", "how do I clean my pool by myself?"])
def test_the_service_done_oneself_is_out_of_scope(
    round21_beside_shipped: EmbeddedIntentAdapter, text: str
) -> None:
    out = round21_beside_shipped.parse_sync(text, context=CONTEXT)
    assert out.goal is None, out.notes
    assert any("asks how to" in note for note in out.notes), out.notes


@pytest.mark.parametrize(
    ("text", "goal"),
    [
        ("como faço pra agendar uma limpeza de piscina?", "BOOK_POOL_CLEANING"),
        ("how do I book a court?", "BOOK_COURT"),
    ],
)
def test_asking_how_to_ask_for_the_service_is_that_goal(
    round21_beside_shipped: EmbeddedIntentAdapter, text: str, goal: str
) -> None:
    assert round21_beside_shipped.parse_sync(text, context=CONTEXT).goal == goal
