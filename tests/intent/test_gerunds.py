"""A gerund is a verb, never a thing: "o que tá *passando* amanhã?" is the goal's own verb ("que
horas passa"), no film called "passando", and "what's *playing* tomorrow?" names a day and nothing
else, so it can be a clear request for the day's sessions, not something else on that day."""

from __future__ import annotations

from typing import Any

import pytest

from intent.embedded import _other_object
from intent.entities import GoalEntityExtractor
from intent.text import is_gerund
from intent.typed import Clock
from shared.manifest import Goal
from tests.conftest import example

CONTEXT = {"time_zone": "America/Sao_Paulo", "now": "2026-03-10T09:00:00-03:00"}  # a Tuesday
MOVIES = [{"value": "Wicked"}, {"value": "Gladiador 2", "aliases": ["Gladiator"]}]
SESSIONS: dict[str, Any] = {
    "goal": "LIST_SESSIONS",
    "description": {"pt": "As sessões de cinema de um dia", "en": "The movie sessions of a day"},
    "entities_schema": {
        "day": {"type": "date"},
        "movie_text": {"type": "string", "lookup": MOVIES},
    },
    "capabilities": ["list_sessions"],
    "examples": [
        example("o que tem no cinema hoje?", day="hoje"),
        example("quais as sessões de sábado?", day="sábado"),
        example("que horas passa Wicked amanhã?", movie_text="Wicked", day="amanhã"),
        example("what's showing tonight?"),
        example("showtimes for Gladiator on Thursday", movie_text="Gladiator", day="Thursday"),
        example("what movies are on Sunday?", day="Sunday"),
    ],
}


@pytest.mark.parametrize(
    ("word", "gerund"),
    [("playing", True), ("passando", True), ("vendendo", True), ("ring", False), ("quando", False)],
)
def test_a_gerund_is_told_by_its_ending(word: str, gerund: bool) -> None:
    assert is_gerund(word) is gerund


def test_the_gerund_of_the_goals_verb_is_no_value() -> None:
    extractor = GoalEntityExtractor(Goal.model_validate(SESSIONS))
    text = "o que tá passando amanhã?"
    entities = extractor.extract(text)
    assert "movie_text" not in entities, entities
    assert "passando" not in extractor.unexplained_words(text, entities)


@pytest.mark.parametrize(
    ("text", "other"),
    [
        ("what's playing tomorrow?", False),
        ("o que tá passando amanhã?", False),
        ("what's the weather tomorrow?", True),  # a thing the sessions know nothing of
        ("any concerts tomorrow?", True),
        ("is there a meeting tomorrow?", True),  # after an article, a gerund's form is a noun
    ],
)
def test_a_day_beside_a_gerund_names_no_other_object(text: str, other: bool) -> None:
    extractor = GoalEntityExtractor(Goal.model_validate(SESSIONS))
    entities = extractor.extract(text, clock=Clock.of(CONTEXT))
    assert entities == {"day": "2026-03-11"}, entities
    assert _other_object(extractor, text, entities) is other


@pytest.mark.parametrize("text", ["what's playing on saturday", "whats playing on saturday?"])
def test_a_gerund_used_as_a_verb_is_no_value(text: str) -> None:
    extractor = GoalEntityExtractor(Goal.model_validate(SESSIONS))
    assert extractor.extract(text, clock=Clock.of(CONTEXT)) == {"day": "2026-03-14"}


def test_a_gerund_of_a_table_is_a_value() -> None:
    classes = {
        "goal": "BOOK_CLASS",
        "description": {"pt": "Reservar uma aula", "en": "Book a class"},
        "entities_schema": {
            "class_text": {"type": "string", "required": True, "lookup": [{"value": "Spinning"}]},
            "day": {"type": "date"},
        },
        "examples": [example("book yoga on friday", class_text="yoga", day="friday")],
    }
    extractor = GoalEntityExtractor(Goal.model_validate(classes))
    assert extractor.extract("book spinning friday", clock=Clock.of(CONTEXT)) == {
        "class_text": "spinning",
        "day": "2026-03-13",
    }


MOVE: dict[str, Any] = {
    "goal": "BOOK_MOVE",
    "description": {"pt": "Agendar uma mudança", "en": "Book a move"},
    "entities_schema": {
        "truck_text": {
            "type": "string",
            "required": True,
            "lookup": [{"value": "Van", "aliases": ["van", "moving van", "cargo van"]}],
        },
        "day": {"type": "date", "required": True},
    },
    "capabilities": ["book_move"],
    "examples": [
        example("agenda uma mudança com a van sexta", truck_text="van", day="sexta"),
        example("book a move with a cargo van on friday", truck_text="cargo van", day="friday"),
    ],
}


@pytest.mark.parametrize("text", ["moving van on Sunday", "a moving van on Sunday"])
def test_a_gerund_that_opens_a_known_name_is_the_name(text: str) -> None:
    found = GoalEntityExtractor(Goal.model_validate(MOVE)).extract(text, clock=Clock.of(CONTEXT))
    assert found == {"truck_text": "moving van", "day": "2026-03-15"}
