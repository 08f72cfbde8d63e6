"""An everyday verb no example uses is read as a learnt verb of the same action, in either
language, for any domain: "*tira* eu da aula de yoga" cancels like "cancela", "*log* a ticket,
..." opens one like "open a ticket"; such a verb is no value and no word the goal cannot explain."""

from __future__ import annotations

from typing import Any

import pytest

from intent.embedded import EmbeddedIntentAdapter
from intent.entities import GoalEntityExtractor
from intent.synonyms import ACTION_OF, learnt_synonyms
from shared.catalog import Catalog
from shared.manifest import DomainManifest, Goal
from tests.conftest import example

CONTEXT = {"time_zone": "America/Sao_Paulo", "now": "2026-03-10T09:00:00-03:00"}  # a Tuesday
APPROVED = {"policy": {"confirm": True, "idempotent": False}}
CLASSES = [{"value": "Yoga", "aliases": ["ioga"]}, {"value": "Pilates"}, {"value": "Spinning"}]
#: what booking and cancelling a class both take
A_CLASS_ON_A_DAY: dict[str, Any] = {
    "class_text": {"type": "string", "required": True, "lookup": CLASSES},
    "day": {"type": "date"},
}
CANCEL_CLASS: dict[str, Any] = {
    "goal": "CANCEL_CLASS",
    "description": {"pt": "Cancelar uma aula marcada", "en": "Cancel a booked class"},
    "entities_schema": A_CLASS_ON_A_DAY,
    "capabilities": ["cancel_class"],
    "examples": [
        example("cancela minha aula de Yoga de quinta", class_text="Yoga", day="quinta"),
        example("desmarca o Pilates de sábado", class_text="Pilates", day="sábado"),
        example("cancel my yoga class on Thursday", class_text="yoga", day="Thursday"),
    ],
}
OPEN_TICKET: dict[str, Any] = {
    "goal": "OPEN_TICKET",
    "description": {"pt": "Abrir um chamado de suporte", "en": "Open a support ticket"},
    "entities_schema": {"problem_text": {"type": "string", "required": True}},
    "capabilities": ["open_ticket"],
    "examples": [
        example("abre um chamado: o excel fecha sozinho", problem_text="o excel fecha sozinho"),
        example("open a ticket: my laptop will not boot", problem_text="my laptop will not boot"),
        example("preciso abrir chamado, a impressora não imprime", problem_text="a impressora não imprime"),
    ],
}
OFFICE: dict[str, Any] = {
    "domain": "office",
    "version": "1",
    "description": "Gym classes and the help desk",
    "capabilities": [
        {"name": "book_class", "description": "b", "metadata": APPROVED},
        {"name": "cancel_class", "description": "c", "metadata": APPROVED},
        {"name": "open_ticket", "description": "o", "metadata": APPROVED},
        {"name": "class_price", "description": "p", "metadata": {"policy": {"read_only": True}}},
    ],
    "goals": [
        {
            "goal": "BOOK_CLASS",
            "description": {"pt": "Reservar uma aula na academia", "en": "Book a gym class"},
            "entities_schema": A_CLASS_ON_A_DAY,
            "capabilities": ["book_class"],
            "examples": [
                example("me inscreve no Spinning de amanhã", class_text="Spinning", day="amanhã"),
                example("quero reservar Yoga quinta", class_text="Yoga", day="quinta"),
                example("book me into Pilates on Wednesday", class_text="Pilates", day="Wednesday"),
            ],
        },
        CANCEL_CLASS,
        OPEN_TICKET,
        {
            "goal": "CLASS_PRICE",
            "description": {"pt": "O preço de uma aula", "en": "The price of a class"},
            "entities_schema": {"class_text": {"type": "string", "required": True, "lookup": CLASSES}},
            "capabilities": ["class_price"],
            "examples": [
                example("quanto custa a aula de Yoga?", class_text="Yoga"),
                example("qual o preço do Pilates?", class_text="Pilates"),
                example("how much is a Spinning class?", class_text="Spinning"),
            ],
        },
    ],
}


@pytest.fixture(scope="module")
def adapter() -> EmbeddedIntentAdapter:
    return EmbeddedIntentAdapter(Catalog([DomainManifest.model_validate(OFFICE)]), use_embeddings=False)


def test_an_unlearnt_verb_stands_for_a_learnt_one_of_its_action_in_its_language_first() -> None:
    stand_in = learnt_synonyms(["cancela", "cancel", "open"])
    assert stand_in["tira"] == "cancela"
    assert stand_in["drop"] == "cancel"
    assert stand_in["abre"] == "open"  # no Portuguese verb of opening learnt: the English one
    assert "cancela" not in stand_in  # learnt verbs are read as they are
    assert "compra" not in stand_in  # no verb of buying learnt: nothing to stand for


def test_what_something_costs_is_asked_with_several_verbs() -> None:
    stand_in = learnt_synonyms(["custa", "quanto", "how", "much"])
    assert stand_in["cobram"] == "custa"
    assert stand_in["charge"] == "custa"  # no English verb of it learnt: the Portuguese one
    price = GoalEntityExtractor(Goal.model_validate(OFFICE["goals"][-1]))
    text = "quanto vcs cobram pelo pilates?"
    entities = price.extract(text)
    assert entities == {"class_text": "pilates"}, entities
    assert price.unexplained_words(text, entities) == []
    assert price.uses_phrasing("cobram")


def test_a_verb_is_of_one_action() -> None:
    assert ACTION_OF["tira"] == "cancel"
    assert ACTION_OF["log"] == "open"
    assert "reserva" not in ACTION_OF  # a reservation as often as a verb


@pytest.mark.parametrize(
    ("text", "goal", "entities"),
    [
        ("tira eu da aula de yoga de quinta", "CANCEL_CLASS", {"class_text": "yoga", "day": "2026-03-12"}),
        ("drop me from pilates", "CANCEL_CLASS", {"class_text": "pilates"}),
        (
            "log a ticket, the scanner jams on every page",
            "OPEN_TICKET",
            {"problem_text": "the scanner jams on every page"},
        ),
        ("registra um chamado: o monitor pisca", "OPEN_TICKET", {"problem_text": "o monitor pisca"}),
        ("quanto vcs cobram pelo pilates?", "CLASS_PRICE", {"class_text": "pilates"}),
        ("how much do you charge for yoga?", "CLASS_PRICE", {"class_text": "yoga"}),
    ],
)
def test_the_goal_of_the_verbs_action(
    adapter: EmbeddedIntentAdapter, text: str, goal: str, entities: dict[str, str]
) -> None:
    out = adapter.parse_sync(text, context=CONTEXT)
    assert out.goal == goal, out
    assert out.entities == entities, out.entities


def test_a_verb_of_the_goals_action_is_no_value_and_no_unknown_word() -> None:
    extractor = GoalEntityExtractor(Goal.model_validate(CANCEL_CLASS))
    text = "tira o spinning"
    entities = extractor.extract(text)
    assert entities == {"class_text": "spinning"}, entities
    assert extractor.unexplained_words(text, entities) == []
    assert extractor.uses_phrasing("tira")
    assert not GoalEntityExtractor(Goal.model_validate(OPEN_TICKET)).uses_phrasing("tira")
