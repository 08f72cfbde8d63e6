"""A table's name said before an hour is still the name: "às" reads as the article "as", and a
known word before an article had been taken for a verb ("quanto *vale* a Petrobras"); "a partir
das 8h" says when, and "partir" is no name."""

from __future__ import annotations

from typing import Any

import pytest

from intent.entities import GoalEntityExtractor
from intent.typed import Clock
from shared.manifest import Goal
from tests.conftest import example

CONTEXT = {"time_zone": "America/Sao_Paulo", "now": "2026-03-10T09:00:00-03:00"}
MOVE: dict[str, Any] = {
    "goal": "BOOK_MOVE",
    "description": {"pt": "Agendar uma mudança", "en": "Book a move"},
    "entities_schema": {
        "truck_text": {
            "type": "string",
            "required": True,
            "lookup": [
                {"value": "Caminhão Baú", "aliases": ["caminhão", "caminhão baú", "box truck"]},
                {"value": "Van", "aliases": ["van"]},
            ],
        },
        "day": {"type": "date", "required": True},
        "start": {"type": "time", "required": True},
    },
    "capabilities": ["book_move"],
    "examples": [
        example(
            "agenda uma mudança com caminhão baú sábado 8h",
            truck_text="caminhão baú",
            day="sábado",
            start="8h",
        ),
        example("quero uma van pra mudança dia 20 9h", truck_text="van", day="dia 20", start="9h"),
    ],
}


@pytest.mark.parametrize(
    ("text", "truck"),
    [
        ("quero um caminhão às 8h amanhã", "caminhão"),
        ("agendar um caminhão baú a partir das 8h amanhã", "caminhão baú"),
    ],
)
def test_the_name_before_the_hour(text: str, truck: str) -> None:
    found = GoalEntityExtractor(Goal.model_validate(MOVE)).extract(text, clock=Clock.of(CONTEXT))
    assert found == {"truck_text": truck, "day": "2026-03-11", "start": "08:00"}
