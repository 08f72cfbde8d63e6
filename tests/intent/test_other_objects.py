"""Requests a goal's words half fit: the verb of a goal with an object it does not know ("cancel
my gym membership" is no order's cancellation), a day and a time of some other event ("agenda uma
reunião quinta às 14h" is no doctor's appointment), and the opposite, a goal's table value the
classifier alone is unsure of ("quero 3 garrafas térmicas")."""

from __future__ import annotations

from typing import Any

import pytest

from intent.embedded import EmbeddedIntentAdapter
from intent.entities import GoalEntityExtractor
from shared.catalog import Catalog
from shared.manifest import DomainManifest, Goal
from tests.conftest import example

CONTEXT = {"time_zone": "America/Sao_Paulo", "now": "2026-03-10T09:00:00-03:00"}


ORDER_NUMBER = {"type": "string", "required": True}
SHOP: dict[str, Any] = {
    "domain": "shop",
    "version": "1",
    "description": "A shop's orders",
    "capabilities": [{"name": "place", "description": "p"}, {"name": "cancel", "description": "c"}],
    "goals": [
        {
            "goal": "PLACE_ORDER",
            "description": {"pt": "Comprar um produto", "en": "Buy a product"},
            "capabilities": ["place"],
            "entities_schema": {
                "product_text": {
                    "type": "string",
                    "required": True,
                    "lookup": [
                        {"value": "Garrafa térmica", "aliases": ["garrafa", "thermos"]},
                        {"value": "Teclado mecânico", "aliases": ["teclado", "keyboard"]},
                        {"value": "Fone de ouvido", "aliases": ["fone", "headphones"]},
                    ],
                },
                "quantity_text": {"type": "number"},
            },
            "examples": [
                example("quero comprar uma garrafa térmica", product_text="garrafa térmica"),
                example("compra 2 teclados pra mim", product_text="teclados", quantity_text="2"),
                example("I want to buy a keyboard", product_text="keyboard"),
                example("order a thermos for me", product_text="thermos"),
                example("can you get me 3 headphones", product_text="headphones", quantity_text="3"),
            ],
        },
        {
            "goal": "CANCEL_ORDER",
            "description": {"pt": "Cancelar um pedido", "en": "Cancel an order"},
            "capabilities": ["cancel"],
            "entities_schema": {"order_number_text": ORDER_NUMBER},
            "examples": [
                example("cancela o pedido 12345", order_number_text="12345"),
                example("quero cancelar minha compra 55501", order_number_text="55501"),
                example("cancel order 12345", order_number_text="12345"),
                example("please cancel my order #67890", order_number_text="67890"),
            ],
        },
    ],
}
CLINIC: dict[str, Any] = {
    "domain": "clinic",
    "version": "1",
    "description": "A clinic's appointments",
    "capabilities": [{"name": "book", "description": "b"}, {"name": "unbook", "description": "u"}],
    "goals": [
        {
            "goal": "BOOK_APPOINTMENT",
            "description": {"pt": "Marcar uma consulta médica", "en": "Book a doctor's appointment"},
            "capabilities": ["book"],
            "entities_schema": {
                "specialty": {
                    "type": "enum",
                    "values": ["CARDIOLOGY", "DERMATOLOGY"],
                    "synonyms": {
                        "CARDIOLOGY": ["cardiologista", "cardiologist"],
                        "DERMATOLOGY": ["dermatologista", "dermatologist"],
                    },
                },
                "day_text": {"type": "date", "required": True},
                "time_text": {"type": "time", "required": True},
            },
            "examples": [
                example("marca uma consulta com cardiologista sexta às 10h", specialty="CARDIOLOGY"),
                example("quero agendar dermatologista amanhã às 9h", specialty="DERMATOLOGY"),
                example("book a cardiologist on monday at 3pm", specialty="CARDIOLOGY"),
                example("I need a dermatologist appointment tomorrow at 10am", specialty="DERMATOLOGY"),
            ],
        },
        {
            "goal": "CANCEL_APPOINTMENT",
            "description": {"pt": "Desmarcar uma consulta", "en": "Cancel an appointment"},
            "capabilities": ["unbook"],
            "entities_schema": {"day_text": {"type": "date"}},
            "examples": [
                example("desmarca minha consulta de amanhã"),
                example("cancela a consulta com o cardiologista"),
                example("cancel my appointment tomorrow"),
                example("please cancel the doctor appointment"),
            ],
        },
    ],
}


@pytest.fixture(scope="module")
def adapter() -> EmbeddedIntentAdapter:
    manifests = [DomainManifest.model_validate(m) for m in (SHOP, CLINIC)]
    return EmbeddedIntentAdapter(Catalog(manifests), use_embeddings=False)


@pytest.mark.parametrize(
    "lure",
    [
        "I want to cancel my gym membership",
        "cancel my netflix subscription",
        "cancela minha assinatura da academia",
        "cancela meu plano do spotify",
    ],
)
def test_a_goals_verb_with_an_object_it_does_not_know_is_not_the_goal(
    adapter: EmbeddedIntentAdapter, lure: str
) -> None:
    # (read at a low threshold: the rule, not the classifier's doubt, is what is tested)
    eager = EmbeddedIntentAdapter(use_embeddings=False, oos_threshold=0.05)
    eager.catalog, eager.model = adapter.catalog, adapter.model
    out = eager.parse_sync(lure, context=CONTEXT)
    assert out.goal is None, (lure, out)
    assert any("nothing it knows" in note for note in out.notes), out.notes


@pytest.mark.parametrize(
    ("text", "goal"),
    [
        ("quero cancelar meu pedido", "CANCEL_ORDER"),  # asked for its number afterwards
        ("cancel my order please", "CANCEL_ORDER"),
        ("cancela o pedido que fiz ontem", "CANCEL_ORDER"),  # "fiz" is no other object: "pedido" is said
        ("cancel my appointment", "CANCEL_APPOINTMENT"),
    ],
)
def test_the_goals_own_object_without_its_value_is_still_the_goal(
    adapter: EmbeddedIntentAdapter, text: str, goal: str
) -> None:
    assert adapter.parse_sync(text, context=CONTEXT).goal == goal


def test_a_day_and_a_time_of_another_event_are_no_appointment(adapter: EmbeddedIntentAdapter) -> None:
    """Every required value of a booking said, but only a day and a time, which any event has, and
    an object the clinic does not know: not raised to a clear request (nor read under the
    threshold)."""
    unsure = EmbeddedIntentAdapter(use_embeddings=False, oos_threshold=1.01)
    unsure.catalog, unsure.model = adapter.catalog, adapter.model
    for lure in ("agenda uma reunião quinta às 14h", "schedule a meeting on thursday at 2pm"):
        assert unsure.parse_sync(lure, context=CONTEXT).goal is None, lure
        out = adapter.parse_sync(lure, context=CONTEXT)
        assert not any(note.startswith("clear request") for note in out.notes), out.notes
    # the clinic's own words with the same day and time are read
    out = unsure.parse_sync("marca uma consulta quinta às 14h", context=CONTEXT)
    assert out.goal == "BOOK_APPOINTMENT"
    assert out.entities == {"day_text": "2026-03-12", "time_text": "14:00"}


@pytest.mark.parametrize("text", ["quero 3 garrafas térmicas", "I'd like to order a thermos please"])
def test_a_table_value_with_the_goals_words_is_read_however_unsure(
    adapter: EmbeddedIntentAdapter, text: str
) -> None:
    """Below even the rescue floor, a message naming a product of the table, with a word of the
    goal's phrasing and nothing the goal does not account for, is a purchase."""
    unsure = EmbeddedIntentAdapter(use_embeddings=False, oos_threshold=1.01)
    unsure.catalog, unsure.model = adapter.catalog, adapter.model
    out = unsure.parse_sync(text, context=CONTEXT)
    assert out.goal == "PLACE_ORDER", out
    assert out.entities["product_text"] in ("garrafas térmicas", "thermos")
    if text.startswith("quero"):  # the classifier's first goal is not the purchase here
        assert any(note.startswith("named from PLACE_ORDER's tables") for note in out.notes), out.notes
    for lure in ("quero 3 passagens pra Recife", "I'd like to order a taxi please"):
        assert unsure.parse_sync(lure, context=CONTEXT).goal is None, lure


@pytest.mark.parametrize("text", ["chama um uber pra mim", "can you get me 2 pizzas"])
def test_a_required_value_its_table_does_not_list_is_no_clear_request(
    adapter: EmbeddedIntentAdapter, text: str
) -> None:
    """The product's table has no "uber" nor "pizzas": the value is not evidence enough to raise
    the classifier's confidence (the gate asks, or it is out of scope)."""
    eager = EmbeddedIntentAdapter(use_embeddings=False, oos_threshold=0.05)
    eager.catalog, eager.model = adapter.catalog, adapter.model
    out = eager.parse_sync(text, context=CONTEXT)
    assert not any(note.startswith("clear request") for note in out.notes), out
    assert out.confidence < 0.8


@pytest.mark.parametrize(("known", "unknown"), [("garrafa", "xpto azul"), ("keyboard", "zorblax")])
def test_a_list_that_names_one_of_the_tables_values_is_the_tables(
    adapter: EmbeddedIntentAdapter, known: str, unknown: str
) -> None:
    """A list of products with one the table knows beside words read as another is a request of
    the goal's table, not an unlisted value (the condition of a conditional request was once
    read as a third company: "se a Apple estiver abaixo de 200, me mostra a Microsoft")."""
    assert adapter.model is not None
    extractor = adapter.model.extractors[("shop", "PLACE_ORDER")]
    assert extractor.unlisted_required({"product_text": [known, unknown]}) == []
    assert extractor.unlisted_required({"product_text": [unknown]}) == ["product_text"]


#: the only cancelling of its catalog, by a code of letters and digits
LOCKERS: dict[str, Any] = {
    "domain": "lockers",
    "version": "1",
    "description": "Station lockers",
    "capabilities": [{"name": "rent", "description": "r"}, {"name": "release", "description": "c"}],
    "goals": [
        {
            "goal": "RENT_LOCKER",
            "description": {"pt": "Alugar um armário", "en": "Rent a locker"},
            "capabilities": ["rent"],
            "entities_schema": {"size": {"type": "enum", "values": ["SMALL", "LARGE"]}},
            "examples": [
                example("aluga um armário grande"),
                example("rent a small locker"),
                example("quero alugar um armário na estação"),
                example("I need a locker at the station"),
            ],
        },
        {
            "goal": "CANCEL_LOCKER",
            "description": {"pt": "Cancelar o aluguel de um armário", "en": "Cancel a locker rental"},
            "capabilities": ["release"],
            "entities_schema": {"locker_code_text": {"type": "string", "required": True}},
            "examples": [
                example("cancela o armário LK4821", locker_code_text="LK4821"),
                example("quero cancelar o aluguel do armário LK5530", locker_code_text="LK5530"),
                example("cancel locker LK4821", locker_code_text="LK4821"),
                example("please cancel my locker rental LK6107", locker_code_text="LK6107"),
            ],
        },
    ],
}


@pytest.fixture(scope="module")
def lockers() -> EmbeddedIntentAdapter:
    return EmbeddedIntentAdapter(Catalog([DomainManifest.model_validate(LOCKERS)]), use_embeddings=False)


@pytest.mark.parametrize("lure", ["cancel my gym membership", "cancela minha assinatura da netflix"])
def test_the_only_cancelling_of_a_catalog_is_no_cancelling_of_anything(
    lockers: EmbeddedIntentAdapter, lure: str
) -> None:
    eager = EmbeddedIntentAdapter(use_embeddings=False, oos_threshold=0.05)
    eager.catalog, eager.model = lockers.catalog, lockers.model
    out = eager.parse_sync(lure, context=CONTEXT)
    assert out.goal is None, (lure, out)
    assert any("nothing it knows" in note for note in out.notes), out.notes


def test_a_code_is_a_word_with_digits() -> None:
    cancel = GoalEntityExtractor(Goal.model_validate(LOCKERS["goals"][1]))
    # the only word left is no code: asked for, never guessed
    assert cancel.extract("cancel my locker downstairs") == {}
    assert cancel.extract("cancela o armário LK7777") == {"locker_code_text": "LK7777"}
