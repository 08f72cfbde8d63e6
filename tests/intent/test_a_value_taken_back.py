"""A value taken back in the same message ("quinta, digo, sexta", "at 7pm, I mean 8pm") gives way
to the one said after it; the other values of the message stay."""

from __future__ import annotations

import pytest

from intent.embedded import EmbeddedIntentAdapter

CONTEXT = {"now": "2026-03-10T09:00:00-03:00", "time_zone": "America/Sao_Paulo"}  # a Tuesday


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "quero doar sangue no hemocentro paulista na quarta, digo, quinta às 11h",
            {"day": "2026-03-12", "time": "11:00"},
        ),
        (
            "reserva o laboratório zumbi pra 5 sexta às 20h, ou melhor, às 21h",
            {"day": "2026-03-13", "time": "21:00", "players": 5},
        ),
        (
            "book the haunted mansion for 3 on thursday at 6pm, I mean friday",
            {"day": "2026-03-13", "time": "18:00", "players": 3},
        ),
        (
            "escape room na mansão pra 4, digo, 6 pessoas no sábado 15h",
            {"day": "2026-03-14", "time": "15:00", "players": 6},
        ),
        (
            "donation at the paulista unit on monday, no, tuesday at 10am",
            {"day": "2026-03-17", "time": "10:00"},
        ),
    ],
)
def test_the_value_said_after_a_correction_wins(
    round18_beside_shipped: EmbeddedIntentAdapter, text: str, expected: dict[str, object]
) -> None:
    out = round18_beside_shipped.parse_sync(text, context=CONTEXT)
    assert {name: out.entities.get(name) for name in expected} == expected, out.notes


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # nothing taken back: an apology before the values corrects none of them
        ("sorry, can I book the zombie lab on friday at 8pm for 4?", {"day": "2026-03-13", "time": "20:00"}),
        # two days without a correction between them: the first is still read
        ("reserva a mansão pra 3 no sábado às 14h ou domingo", {"day": "2026-03-14", "time": "14:00"}),
    ],
)
def test_no_correction_keeps_the_first_value(
    round18_beside_shipped: EmbeddedIntentAdapter, text: str, expected: dict[str, object]
) -> None:
    out = round18_beside_shipped.parse_sync(text, context=CONTEXT)
    assert {name: out.entities.get(name) for name in expected} == expected, out.notes
