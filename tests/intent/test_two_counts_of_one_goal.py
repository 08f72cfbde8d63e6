"""A count said as a duration ("3 dias") is the number of a goal that counts days; of two number
entities, a count goes to the one whose examples put the word after it there
("2 *pessoas*" are guests, not nights), and an article counts only the word the examples count
("reserva *um quarto*" says no number of nights)."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from bench.understanding.round5.domains import hotel
from bench.understanding.round6.domains import time_off
from intent.entities import GoalEntityExtractor
from intent.typed import Clock
from shared.catalog import Catalog
from shared.entities import Entities

CLOCK = Clock(
    now=datetime(2026, 3, 10, 10, tzinfo=ZoneInfo("America/Sao_Paulo")), time_zone="America/Sao_Paulo"
)


@pytest.fixture(scope="module")
def stay() -> GoalEntityExtractor:
    goal = Catalog([hotel.service.manifest_with_lookups()]).find_goal("hotel", "BOOK_STAY")
    assert goal is not None
    return GoalEntityExtractor(goal)


@pytest.mark.parametrize(
    ("text", "language", "counts"),
    [
        ("reserva um hotel em Salvador sexta pra 2 pessoas", "pt", {"guests": 2}),
        ("book a room in Rio tomorrow for 3 guests", "en", {"guests": 3}),
        ("reserva em Salvador sexta, 3 noites pra 2 pessoas", "pt", {"nights": 3, "guests": 2}),
        ("hotel em sp amanha 2 noites", "pt", {"nights": 2}),
        ("reserva em salvador sexta uma noite", "pt", {"nights": 1}),
        ("reserva um quarto em Salvador sexta", "pt", {}),
        # the first one filled, the second count is the other's whatever words it follows
        ("tem vaga em gramado? 2 noites, 2 adultos", "pt", {"nights": 2, "guests": 2}),
        ("book a hotel in Salvador on Monday for four nights for 2 people", "en", {"nights": 4, "guests": 2}),
    ],
)
def test_each_count_goes_where_its_noun_says(
    stay: GoalEntityExtractor, text: str, language: str, counts: Entities
) -> None:
    found = stay.extract(text, clock=CLOCK, language=language)
    assert {k: v for k, v in found.items() if k in ("nights", "guests")} == counts


@pytest.mark.parametrize(
    ("text", "language", "days"),
    [
        ("quero tirar férias dia 20, 3 dias", "pt", 3),
        ("FERIAS DIA 27 POR 5 DIAS", "pt", 5),
        ("paternity leave from April 6, 20 days", "en", 20),
        # weeks are seven days each
        ("vacation from April 6, for 1 week", "en", 7),
        ("férias dia 20 por duas semanas", "pt", 14),
    ],
)
def test_days_said_as_a_duration_are_counted(text: str, language: str, days: int) -> None:
    goal = Catalog([time_off.service.manifest_with_lookups()]).find_goal("time_off", "REQUEST_LEAVE")
    assert goal is not None
    assert GoalEntityExtractor(goal).extract(text, clock=CLOCK, language=language)["days"] == days


def test_half_a_day_is_no_count_and_still_a_half_day() -> None:
    # "half day" is twelve hours to the recogniser: no count of days, and the boolean's phrase
    # reads it beside the enum's "day off"
    goal = Catalog([time_off.service.manifest_with_lookups()]).find_goal("time_off", "REQUEST_LEAVE")
    assert goal is not None
    found = GoalEntityExtractor(goal).extract("half day off thursday pls", clock=CLOCK, language="en")
    assert found == {"start": "2026-03-12", "leave_type": "PERSONAL", "half_day": True}
