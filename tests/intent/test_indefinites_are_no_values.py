"""Words that stand for something not named ("anything", "algo", "alguma coisa", "nada") are no
entity value: "do you have anything by Harari?" names an author and no title."""

from __future__ import annotations

import pytest

from intent.entities import GoalEntityExtractor
from shared.manifest import Goal
from tests.conftest import example

SEARCH = Goal.model_validate(
    {
        "goal": "SEARCH_CATALOG",
        "description": {"pt": "Procurar um livro no acervo", "en": "Search the catalogue"},
        "entities_schema": {
            "title_text": {"type": "string", "lookup": [{"value": "Sapiens", "aliases": []}]},
            "author_text": {"type": "string", "lookup": [{"value": "Harari", "aliases": []}]},
        },
        "required_one_of": [["title_text", "author_text"]],
        "examples": [
            example("vocês têm O Alquimista?", title_text="O Alquimista"),
            example("tem algum livro da Clarice Lispector no acervo?", author_text="Clarice Lispector"),
            example("quais livros do Machado de Assis vocês têm?", author_text="Machado de Assis"),
            example("do you have Pride and Prejudice?", title_text="Pride and Prejudice"),
            example("search the catalogue for books by Harari", author_text="Harari"),
        ],
    }
)


@pytest.mark.parametrize(
    "text",
    [
        "do you have anything by Harari?",
        "do you have something by Harari?",
        "tem algo do Harari?",
        "tem alguma coisa do Harari?",
        "vocês têm qualquer coisa do Harari?",
        "nada do Harari?",
    ],
)
def test_an_indefinite_word_is_no_title(text: str) -> None:
    assert GoalEntityExtractor(SEARCH).extract(text) == {"author_text": "Harari"}


def test_a_title_is_still_read_beside_the_author() -> None:
    assert GoalEntityExtractor(SEARCH).extract("do you have Sapiens by Harari?") == {
        "title_text": "Sapiens",
        "author_text": "Harari",
    }


def test_an_indefinite_word_inside_a_value_of_the_table_is_part_of_it() -> None:
    shoes = Goal.model_validate(
        {
            "goal": "FIND_PRODUCT",
            "description": {"pt": "Procurar um produto", "en": "Find a product"},
            "entities_schema": {
                "product_text": {"type": "string", "lookup": [{"value": "tênis all star", "aliases": []}]}
            },
            "examples": [
                example("vocês têm a cafeteira italiana?", product_text="cafeteira italiana"),
                example("procuro um fone bluetooth", product_text="fone bluetooth"),
            ],
        }
    )
    assert GoalEntityExtractor(shoes).extract("vocês têm tênis all star?") == {
        "product_text": "tênis all star"
    }


def test_an_indefinite_word_is_no_thing_the_goal_does_not_know() -> None:
    renew = Goal.model_validate(
        {
            "goal": "RENEW_LOAN",
            "description": {"pt": "Renovar o empréstimo de um livro", "en": "Renew a book loan"},
            "entities_schema": {"book_text": {"type": "string", "required": True}},
            "examples": [
                example("renova o Dom Casmurro pra mim", book_text="Dom Casmurro"),
                example("renew Sapiens please", book_text="Sapiens"),
            ],
        }
    )
    extractor = GoalEntityExtractor(renew)
    assert extractor.extract("renew everything of mine") == {}
    assert extractor.unexplained_words("renew everything of mine", {}) == []
    assert extractor.unexplained_words("renova tudo", {}) == []
