"""A goal that starts something is not started on the classifier's unsure word alone: a message
that says none of its values and no word of its phrasing is out of scope ("me lembra de tomar
remédio às 20h" is no research idea). A goal that only reads is still answered, and an idea in
the research examples' words is still research."""

from __future__ import annotations

import pytest

from intent.embedded import EmbeddedIntentAdapter

CONTEXT = {"now": "2026-03-10T09:00:00-03:00", "time_zone": "America/Sao_Paulo"}


@pytest.mark.parametrize(
    "text",
    ["me lembra de tomar remédio às 20h", "me lembra de tomar remédio às 22h"],
)
def test_a_reminder_is_no_research_idea(round14_beside_shipped: EmbeddedIntentAdapter, text: str) -> None:
    out = round14_beside_shipped.parse_sync(text, context=CONTEXT)
    assert out.goal is None, out.notes
    assert any("nothing of RESEARCH_HYPOTHESIS is said" in note for note in out.notes), out.notes


@pytest.mark.parametrize(
    "text",
    [
        "privação de sono piora a memória de trabalho em idosos",
        "observei que alunos dormem mais nas aulas de manhã",
        "I think dogs make people happier",
    ],
)
def test_an_idea_in_the_research_words_is_research(
    round14_beside_shipped: EmbeddedIntentAdapter, text: str
) -> None:
    assert round14_beside_shipped.parse_sync(text, context=CONTEXT).goal == "RESEARCH_HYPOTHESIS"
