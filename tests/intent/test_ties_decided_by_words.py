"""Two goals too close to tell apart, when only one of them accounts for every word of the
message, are no choice to offer: "can u book pilates for me" is a class's booking, not its
cancellation; "cancelar aluguel" is a car's cancellation, not a class's. The message is surely one
of the two, so it is read at their confidence together, in scope."""

from __future__ import annotations

from typing import Any

import pytest

from intent.base import CHOICE_NOTE
from intent.embedded import EmbeddedIntentAdapter
from shared.catalog import Catalog
from shared.manifest import DomainManifest
from tests.conftest import example

CONTEXT = {"time_zone": "America/Sao_Paulo", "now": "2026-03-10T09:00:00-03:00"}

CLASSES = {
    "type": "string",
    "required": True,
    "lookup": [
        {"value": "Pilates", "aliases": ["pilates"]},
        {"value": "Yoga", "aliases": ["ioga"]},
        {"value": "Spinning", "aliases": ["spin", "bike"]},
    ],
}
GYM: dict[str, Any] = {
    "domain": "gym",
    "version": "1",
    "description": "Gym classes",
    "capabilities": [
        {"name": "book_class", "description": "b"},
        {"name": "cancel_class", "description": "c"},
    ],
    "goals": [
        {
            "goal": "BOOK_CLASS",
            "description": {"pt": "Reserva uma vaga numa aula", "en": "Book a spot in a gym class"},
            "capabilities": ["book_class"],
            "entities_schema": {
                "class_text": CLASSES,
                "day": {"type": "date", "required": True},
                "time": {"type": "time", "required": True},
            },
            "examples": [
                example("quero fazer yoga amanhã às 18h30", class_text="yoga"),
                example("reserva pilates sexta 8h", class_text="pilates"),
                example("book spinning tomorrow at 7am", class_text="spinning"),
                example("sign me up for yoga on thursday at 6:30pm", class_text="yoga"),
            ],
        },
        {
            "goal": "CANCEL_CLASS",
            "description": {"pt": "Cancela uma aula reservada", "en": "Cancel a booked class"},
            "capabilities": ["cancel_class"],
            "entities_schema": {"class_text": CLASSES, "day": {"type": "date"}},
            "examples": [
                example("cancela minha aula de yoga de quinta", class_text="yoga"),
                example("cancelar o pilates de sexta", class_text="pilates"),
                example("cancel my spinning class tomorrow", class_text="spinning"),
                example("drop my pilates class", class_text="pilates"),
            ],
        },
    ],
}
CARS: dict[str, Any] = {
    "domain": "cars",
    "version": "1",
    "description": "Car rental",
    "capabilities": [{"name": "rent", "description": "r"}, {"name": "cancel_rental", "description": "c"}],
    "goals": [
        {
            "goal": "RENT_CAR",
            "description": {"pt": "Alugar um carro", "en": "Rent a car"},
            "capabilities": ["rent"],
            "entities_schema": {"day": {"type": "date", "required": True}},
            "examples": [
                example("quero alugar um carro sexta"),
                example("aluga um carro pra amanhã"),
                example("rent me a car on friday"),
            ],
        },
        {
            "goal": "CANCEL_RENTAL",
            "description": {"pt": "Cancelar o aluguel de um carro", "en": "Cancel a car rental"},
            "capabilities": ["cancel_rental"],
            "entities_schema": {"rental_code_text": {"type": "string", "required": True}},
            "examples": [
                example("cancela o aluguel CR1234", rental_code_text="CR1234"),
                example("quero cancelar a locação CR5521", rental_code_text="CR5521"),
                example("cancel my car rental CR7781", rental_code_text="CR7781"),
            ],
        },
    ],
}


@pytest.fixture(scope="module")
def adapter() -> EmbeddedIntentAdapter:
    manifests = [DomainManifest.model_validate(m) for m in (GYM, CARS)]
    return EmbeddedIntentAdapter(Catalog(manifests), use_embeddings=False)


@pytest.mark.parametrize(
    ("text", "goal"),
    [
        ("can u book pilates for me", "BOOK_CLASS"),
        ("cancelar aluguel", "CANCEL_RENTAL"),
    ],
)
def test_a_tie_only_one_goals_words_explain_is_that_goal(
    adapter: EmbeddedIntentAdapter, text: str, goal: str
) -> None:
    # every two goals read as a tie (a small catalog seldom makes one): the rule, not the
    # classifier's doubt, is what is tested
    torn = EmbeddedIntentAdapter(use_embeddings=False, choice_margin=1.0)
    torn.catalog, torn.model = adapter.catalog, adapter.model
    out = torn.parse_sync(text, context=CONTEXT)
    assert out.goal == goal, (text, out)
    assert out.confidence == pytest.approx(
        sum(a.confidence for a in adapter.parse_sync(text).alternatives[:2]), abs=1e-3
    )
    assert not any(note.startswith(CHOICE_NOTE) for note in out.notes), out.notes
