"""A week said beside a day ("next week… on Thursday") gives the day, not the week's first day."""

from __future__ import annotations

import pytest

from intent.embedded import EmbeddedIntentAdapter

#: Tuesday 2026-03-10
CONTEXT = {"now": "2026-03-10T09:00:00-03:00", "time_zone": "America/Sao_Paulo"}


@pytest.mark.parametrize(
    ("text", "day"),
    [
        (
            "my sister's graduation is this week, can we book the haunted mansion for 3 on Friday at 8pm?",
            "2026-03-13",
        ),
        (
            "é aniversário da minha mãe semana que vem, reserva o assalto ao banco pra 5 na sexta às 19h",
            "2026-03-13",
        ),
    ],
)
def test_the_day_said_wins_over_the_week(
    round18_beside_shipped: EmbeddedIntentAdapter, text: str, day: str
) -> None:
    out = round18_beside_shipped.parse_sync(text, context=CONTEXT)
    assert out.goal == "BOOK_ESCAPE_ROOM", out.notes
    assert out.entities.get("day") == day


def test_a_week_alone_is_still_its_first_day(round18_beside_shipped: EmbeddedIntentAdapter) -> None:
    out = round18_beside_shipped.parse_sync(
        "reserva o assalto ao banco pra 5 semana que vem", context=CONTEXT
    )
    assert out.entities.get("day") == "2026-03-16"
