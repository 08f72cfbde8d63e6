"""Words the recogniser reads as a day that are no day here: a bare number of three digits or more
(an apartment: "no 1001 amanhã às 8h", "the heater in 302 on Sunday"), a phrase of the goal's own
("asap" is urgency); and how words say a value: a function word is no typo of one ("*minha*
matrícula" says no "manhã"), a chat shorthand says the phrase it shortens ("qto custa")."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from bench.understanding.round7.domains import courses, repairs, tickets
from intent.embedded import EmbeddedIntentAdapter
from intent.typed import Clock
from shared.i18n import detect
from tests.intent.conftest import beside_the_shipped

CONTEXT = {"now": "2026-03-10T10:00:00-03:00", "time_zone": "America/Sao_Paulo"}
CLOCK = Clock(
    now=datetime(2026, 3, 10, 10, 0, tzinfo=ZoneInfo("America/Sao_Paulo")), time_zone="America/Sao_Paulo"
)


@pytest.fixture(scope="module")
def adapter() -> EmbeddedIntentAdapter:
    return beside_the_shipped(courses, repairs, tickets)


@pytest.mark.parametrize(
    ("text", "unit", "day", "time"),
    [
        ("abre um chamado de cupim no 1001 amanhã às 8h", "1001", "2026-03-11", "08:00"),
        ("open a request for termites in 1001 tomorrow at 8am", "1001", "2026-03-11", "08:00"),
        ("can someone check the heater in 302 on Sunday?", "302", "2026-03-15", None),
        ("kitchen sink in 302 is leaking can u send someone tmrw", "302", "2026-03-11", None),
    ],
)
def test_a_bare_number_is_no_day_nor_hour(
    adapter: EmbeddedIntentAdapter, text: str, unit: str, day: str, time: str | None
) -> None:
    extractor = adapter.model.extractors[("repairs", "OPEN_REPAIR")]  # type: ignore[union-attr]
    found = extractor.extract(text, clock=CLOCK, language=detect(text))
    assert (found.get("unit_text"), found.get("day"), found.get("time")) == (unit, day, time)


def test_a_clear_repair_request_is_read_whole(adapter: EmbeddedIntentAdapter) -> None:
    read = adapter.parse_sync("abre um chamado de cupim no 1001 amanhã às 8h", context=CONTEXT)
    assert read.goal == "OPEN_REPAIR", read.notes
    assert read.entities == {
        "problem_type": "PEST",
        "unit_text": "1001",
        "day": "2026-03-11",
        "time": "08:00",
    }


def test_a_goals_own_phrase_is_no_day(adapter: EmbeddedIntentAdapter) -> None:
    read = adapter.parse_sync("apt 302 door lock jammed cant get in asap", context=CONTEXT)
    assert read.goal == "OPEN_REPAIR", read.notes
    assert read.entities == {"problem_type": "LOCKS", "urgent": True, "unit_text": "302"}


def test_a_function_word_is_no_typo_of_a_value(adapter: EmbeddedIntentAdapter) -> None:
    read = adapter.parse_sync("faz minha matricula no ingles de tarde comecando dia 31", context=CONTEXT)
    assert read.goal == "ENROLL_COURSE", read.notes
    assert read.entities.get("class_period") == "AFTERNOON"


def test_a_shorthand_says_the_phrase_it_shortens(adapter: EmbeddedIntentAdapter) -> None:
    """ "qto custa" says the enum's "quanto custa"."""
    extractor = adapter.model.extractors[("courses", "COURSE_INFO")]  # type: ignore[union-attr]
    assert extractor.extract("qto custa o curso de excel", language="pt").get("topic") == "PRICE"


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("2 half price seated tickets for Porchat on Friday", 2),
        ("compra 3 meia de cadeira pro Porchat sexta", 3),
    ],
)
def test_a_count_before_words_is_no_time_to_a_goal_that_reads_none(
    adapter: EmbeddedIntentAdapter, text: str, count: int
) -> None:
    """ "2 half" is half past two to the recogniser; a purchase reads no time, and counts 2."""
    extractor = adapter.model.extractors[("tickets", "BUY_TICKETS")]  # type: ignore[union-attr]
    found = extractor.extract(text, clock=CLOCK, language=detect(text))
    assert (found.get("quantity"), found.get("half_price")) == (count, True)
