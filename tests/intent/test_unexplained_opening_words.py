"""A message that names every required value of a goal, one from its table, is that goal even
with a few words its examples do not use, as long as its values outnumber them, none is the word
of another goal of its domain and it acts on no amount the goal does not read ("*marca* spinning
sexta 19h"); a unit its examples write in the plural is its own in the singular ("1 *caixa*")."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from intent.embedded import EmbeddedIntentAdapter
from intent.entities import GoalEntityExtractor
from intent.readings import Readings
from intent.typed import Clock
from shared.catalog import Catalog
from shared.manifest import DomainManifest, Goal
from tests.conftest import example

CONTEXT = {"time_zone": "America/Sao_Paulo", "now": "2026-03-10T09:00:00-03:00"}  # a Tuesday

APPROVED = {"policy": {"confirm": True, "idempotent": False}}
CLASSES = [
    {"value": "Spinning", "aliases": ["spin", "bike"]},
    {"value": "Yoga", "aliases": ["ioga"]},
    {"value": "Funcional", "aliases": ["treino funcional"]},
]
GYM: dict[str, Any] = {
    "domain": "gym",
    "version": "1",
    "description": "Gym classes",
    "capabilities": [
        {"name": "book_class", "description": "b", "metadata": APPROVED},
        {"name": "cancel_class", "description": "c", "metadata": APPROVED},
    ],
    "goals": [
        {
            "goal": "BOOK_CLASS",
            "description": {"pt": "Reservar uma aula na academia", "en": "Book a gym class"},
            "capabilities": ["book_class"],
            "entities_schema": {
                "class_text": {"type": "string", "required": True, "lookup": CLASSES},
                "day": {"type": "date", "required": True},
                "time": {"type": "time", "required": True},
            },
            "examples": [
                example(
                    "me inscreve no Spinning de amanhã às 7h",
                    class_text="Spinning",
                    day="amanhã",
                    time="às 7h",
                ),
                example("quero reservar Yoga quinta 18h30", class_text="Yoga", day="quinta", time="18h30"),
                example(
                    "book me into Yoga on Wednesday at 8pm", class_text="Yoga", day="Wednesday", time="8pm"
                ),
            ],
        },
        {
            "goal": "CANCEL_CLASS",
            "description": {"pt": "Cancelar uma aula reservada", "en": "Cancel a booked gym class"},
            "capabilities": ["cancel_class"],
            "entities_schema": {
                "class_text": {"type": "string", "required": True, "lookup": CLASSES},
                "day": {"type": "date"},
            },
            "examples": [
                example("cancela minha aula de Yoga de quinta", class_text="Yoga", day="quinta"),
                example("cancel my yoga class on Thursday", class_text="yoga", day="Thursday"),
            ],
        },
    ],
}


@pytest.fixture(scope="module")
def adapter() -> EmbeddedIntentAdapter:
    return EmbeddedIntentAdapter(Catalog([DomainManifest.model_validate(GYM)]), use_embeddings=False)


def _named(adapter: EmbeddedIntentAdapter, text: str) -> str | None:
    """The goal ``_named_from_table`` reads among all goals, however unsure the classifier."""
    model = adapter.model
    assert model is not None
    readings = Readings(text, Clock.of(CONTEXT, "UTC"), "pt", model.extractors)
    order = np.arange(len(model.goals))
    named = adapter._named_from_table(text, order, readings, model)
    return named[0].goal.goal if named is not None else None


@pytest.mark.parametrize(
    ("text", "class_text", "day", "time"),
    [
        ("marca spinning sexta 19h", "spinning", "2026-03-13", "19:00"),
        ("bota meu nome no funcional de amanhã às 12h30", "funcional", "2026-03-11", "12:30"),
    ],
)
def test_values_outweigh_an_opening_verb_the_examples_do_not_use(
    adapter: EmbeddedIntentAdapter, text: str, class_text: str, day: str, time: str
) -> None:
    assert _named(adapter, text) == "BOOK_CLASS", text
    out = adapter.parse_sync(text, context=CONTEXT)
    assert out.goal == "BOOK_CLASS", (text, out)
    assert out.entities == {"class_text": class_text, "day": day, "time": time}, out.entities


@pytest.mark.parametrize(
    "text",
    [
        "cancela spinning sexta 19h",  # the word of another goal of the domain: no booking
        "marca uma reunião sexta 19h",  # no class of the table
        "bota meu nome na lista de espera do spinning",  # more words unknown than values
    ],
)
def test_a_word_of_another_goal_or_no_table_value_is_not_outweighed(
    adapter: EmbeddedIntentAdapter, text: str
) -> None:
    assert _named(adapter, text) != "BOOK_CLASS", text


def test_a_unit_written_in_the_plural_is_the_goals_own_in_the_singular() -> None:
    goal = Goal.model_validate(
        {
            "goal": "REFILL",
            "description": "Renovar uma receita",
            "entities_schema": {
                "medicine_text": {"type": "string", "required": True, "lookup": [{"value": "Losartana"}]},
                "quantity": {"type": "number"},
            },
            "examples": [
                example("quero 2 caixas de Losartana", quantity="2 caixas", medicine_text="Losartana")
            ],
        }
    )
    extractor = GoalEntityExtractor(goal)
    text = "renova a losartana, 1 caixa"
    assert "caixa" not in extractor.unexplained_words(text, extractor.extract(text)), text
