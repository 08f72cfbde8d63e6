"""A question with a day any question carries, about things neither the domain's booking nor its
readers know ("o campeonato de boliche passa na tv amanhã?"), is no question for a reader: no list of
opening hours or prices answers it. A question about the reader's own thing is still its."""

from __future__ import annotations

import pytest

from intent.embedded import EmbeddedIntentAdapter

CONTEXT = {"now": "2026-03-10T09:00:00-03:00", "time_zone": "America/Sao_Paulo"}  # a Tuesday


@pytest.mark.parametrize(
    "text",
    ["vai passar a final do torneio de boliche na tv sábado?", "o campeonato de boliche passa na tv amanhã?"],
)
def test_a_day_asked_of_other_things_reads_nothing(
    round20_beside_shipped: EmbeddedIntentAdapter, text: str
) -> None:
    out = round20_beside_shipped.parse_sync(text, context=CONTEXT)
    assert out.goal not in ("BOWLING_HOURS", "BOWLING_PRICE"), out.notes


@pytest.mark.parametrize("text", ["is the bowling alley open on saturday?", "o boliche abre sábado?"])
def test_a_day_asked_of_its_hours_reads_them(
    round20_beside_shipped: EmbeddedIntentAdapter, text: str
) -> None:
    out = round20_beside_shipped.parse_sync(text, context=CONTEXT)
    assert out.goal == "BOWLING_HOURS", out.notes


def test_a_question_with_a_value_of_its_own_stays_the_readers(
    round20_beside_shipped: EmbeddedIntentAdapter,
) -> None:
    """A value only the domain knows (a plan's frequency) is no day any question carries: the
    price answers, whatever other words the question says."""
    out = round20_beside_shipped.parse_sync("rola desconto no plano quinzenal da água?", context=CONTEXT)
    assert out.goal == "WATER_PRICE", out.notes
