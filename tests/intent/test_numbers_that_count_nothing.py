"""A number that is part of a known name ("pro *Gladiador 2*") names it, and the English "one"
after a determiner ("the 6:30pm *one*", "that one") points at a thing: neither is a count, so no
count the person never said reaches a purchase."""

from __future__ import annotations

from datetime import UTC, datetime

from intent.entities import GoalEntityExtractor
from intent.typed import RECOGNIZER, Clock
from shared.manifest import Goal
from tests.conftest import example

MOVIES = [
    {"value": "Gladiador II", "aliases": ["Gladiador 2", "Gladiator 2"]},
    {"value": "Duna", "aliases": ["Dune"]},
]
BUY_TICKETS = Goal.model_validate(
    {
        "goal": "BUY_TICKETS",
        "description": {"pt": "Comprar ingressos", "en": "Buy tickets"},
        "entities_schema": {
            "movie_text": {"type": "string", "required": True, "lookup": MOVIES},
            "tickets": {"type": "number"},
            "time": {"type": "time"},
        },
        "examples": [
            example("2 ingressos pro Duna às 18h", movie_text="Duna", tickets="2", time="18h"),
            example("quero 3 ingressos do Gladiador II", movie_text="Gladiador II", tickets="3"),
            example("two tickets for Dune at 7pm", movie_text="Dune", tickets="two", time="7pm"),
        ],
    }
)
NOW = datetime(2026, 3, 10, 13, 0, tzinfo=UTC)
CLOCK = Clock(now=NOW, time_zone="America/Sao_Paulo")


def test_the_number_of_a_known_name_is_no_count() -> None:
    extractor = GoalEntityExtractor(BUY_TICKETS)
    assert extractor.extract("compra ingresso pro gladiador 2 pra mim", clock=CLOCK, language="pt") == {
        "movie_text": "gladiador 2"
    }
    found = extractor.extract("quero 4 ingressos pro gladiator 2", clock=CLOCK, language="pt")
    assert found == {"movie_text": "gladiator 2", "tickets": 4}, found
    assert extractor.extract("2 ingressos pro duna", clock=CLOCK, language="pt") == {
        "movie_text": "duna",
        "tickets": 2,
    }


def test_one_after_a_determiner_is_a_pronoun() -> None:
    def numbers(text: str) -> list[object]:
        spans = RECOGNIZER.spans(text, "en", time_zone="America/Sao_Paulo", now=NOW)
        return [s.value for s in spans if s.type == "number"]

    assert numbers("the 6:30pm one") == []
    assert numbers("that one please") == []
    assert numbers("just one") == [1]
    assert numbers("one ticket for the 9pm one") == [1]
    extractor = GoalEntityExtractor(BUY_TICKETS)
    assert extractor.extract("the 6:30pm one", clock=CLOCK, language="en") == {"time": "18:30"}
