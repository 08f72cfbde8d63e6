"""A title the table's names abbreviate ("Profa. Helena Costa", "Prof. Ricardo Nunes") is a
courtesy before a name the table lacks: "a prof carla" names Carla. A kind word the names write
whole stays ("Garagem Paulista" keeps "garagem ibirapuera")."""

from __future__ import annotations

import pytest

from bench.understanding.round9.domains import parking
from bench.understanding.round10.domains import school
from intent.entities import GoalEntityExtractor
from intent.typed import Clock

CLOCK = Clock.of({"now": "2026-03-10T10:00:00-03:00", "time_zone": "America/Sao_Paulo"})


@pytest.mark.parametrize(
    "text",
    ["reuniao com a prof carla quarta 10h", "reunião com a professora carla quarta 10h"],
)
def test_a_title_before_an_unknown_name_is_left_out(text: str) -> None:
    goals = school.service.manifest_with_lookups().goals
    meetings = GoalEntityExtractor(next(g for g in goals if g.goal == "BOOK_MEETING"))
    assert meetings.extract(text, clock=CLOCK, language="pt")["teacher_text"] == "carla"


def test_a_kind_the_names_write_whole_stays() -> None:
    manifest = parking.service.manifest_with_lookups()
    goal = next(g for g in manifest.goals if any(s.lookup for s in g.entities_schema.values()))
    table = next(n for n, s in goal.entities_schema.items() if s.lookup)
    found = GoalEntityExtractor(goal).extract(
        "vaga na garagem ibirapuera amanhã às 9h", clock=CLOCK, language="pt"
    )
    assert found[table] == "garagem ibirapuera"
