"""An article the examples annotate as a count ("quero comprar *uma* cafeteira") is a count of one
in either language, though English Duckling reads no "a" as a number: "i need *a* mechanical
keyboard"; a number said as well is the count."""

from __future__ import annotations

from intent.entities import GoalEntityExtractor
from shared.manifest import Goal
from tests.conftest import example

PRODUCTS = [
    {"value": "Cafeteira", "aliases": ["coffee maker"]},
    {"value": "Teclado", "aliases": ["keyboard"]},
]


def _goal(*examples: dict[str, object]) -> Goal:
    return Goal.model_validate(
        {
            "goal": "PLACE_ORDER",
            "description": {"pt": "Fazer um pedido", "en": "Place an order"},
            "entities_schema": {
                "product_text": {"type": "string", "required": True, "lookup": PRODUCTS},
                "quantity_text": {"type": "string"},
            },
            "examples": list(examples),
        }
    )


COUNTED = _goal(
    example("quero comprar uma cafeteira", product_text="cafeteira", quantity_text="uma"),
    example("faz um pedido de 2 teclados", product_text="teclados", quantity_text="2"),
    example("order 3 keyboards", product_text="keyboards", quantity_text="3"),
)


def test_an_article_annotated_as_a_count_is_one_in_english_too() -> None:
    extractor = GoalEntityExtractor(COUNTED)
    assert extractor.extract("i need a keyboard").get("quantity_text") == "a"
    assert extractor.extract("a coffee maker").get("quantity_text") == "a"
    assert extractor.extract("i need 2 keyboards").get("quantity_text") == "2"
    assert "quantity_text" not in extractor.extract("I want to place an order")  # the goal's word


def test_an_article_is_no_count_where_the_examples_never_counted_with_one() -> None:
    plain = _goal(
        example("faz um pedido de 2 teclados", product_text="teclados", quantity_text="2"),
        example("order 3 keyboards", product_text="keyboards", quantity_text="3"),
    )
    assert "quantity_text" not in GoalEntityExtractor(plain).extract("i need a keyboard")
