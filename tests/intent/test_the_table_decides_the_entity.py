"""Two string entities of one goal, each with a lookup table: a name only one table lists fills
that entity, whatever words are around it ("search the catalog for jane austen" is an author);
a name both tables list, or neither, goes where the words around it say."""

from __future__ import annotations

from typing import Any

import pytest

from intent.entities import GoalEntityExtractor
from shared.manifest import Goal
from tests.conftest import example


def search(titles: list[dict[str, Any]], authors: list[dict[str, Any]]) -> Goal:
    return Goal.model_validate(
        {
            "goal": "SEARCH_CATALOG",
            "description": {"pt": "Procurar um livro no acervo", "en": "Search the catalogue"},
            "entities_schema": {
                "title_text": {"type": "string", "lookup": titles},
                "author_text": {"type": "string", "lookup": authors},
            },
            "required_one_of": [["title_text", "author_text"]],
            "examples": [
                example("vocês têm O Alquimista?", title_text="O Alquimista"),
                example("quais livros do Machado de Assis vocês têm?", author_text="Machado de Assis"),
                example("do you have Pride and Prejudice?", title_text="Pride and Prejudice"),
                example("search the catalogue for Sapiens", title_text="Sapiens"),
                example("search the catalogue for books by Harari", author_text="Harari"),
            ],
        }
    )


TITLES = [{"value": "Orgulho e Preconceito", "aliases": ["Pride and Prejudice"]}]
AUTHORS = [
    {"value": "Jane Austen", "aliases": ["Austen"]},
    {"value": "Machado de Assis", "aliases": ["Machado"]},
]


@pytest.mark.parametrize(
    ("text", "entities"),
    [
        # the words around say title ("for X", "têm X"); only the authors' table lists the name
        ("search the catalogue for jane austen", {"author_text": "jane austen"}),
        ("search the catalogue for Austen", {"author_text": "Austen"}),
        ("search the catalogue for jane austin", {"author_text": "jane austin"}),  # a typo
        ("vocês têm Machado?", {"author_text": "Machado"}),
        ("vocês têm Machado de Assis?", {"author_text": "Machado de Assis"}),
        # and the other way round
        ("search the catalogue for books by pride and prejudice", {"title_text": "pride and prejudice"}),
    ],
)
def test_a_name_only_one_table_lists_fills_that_entity(text: str, entities: dict[str, str]) -> None:
    assert GoalEntityExtractor(search(TITLES, AUTHORS)).extract(text) == entities


@pytest.mark.parametrize(
    ("text", "entities"),
    [
        ("search the catalogue for Dracula", {"title_text": "Dracula"}),
        ("search the catalogue for books by Dracula", {"author_text": "Dracula"}),
        ("search the catalogue for Tolkien", {"title_text": "Tolkien"}),
        ("search the catalogue for books by Tolkien", {"author_text": "Tolkien"}),
    ],
)
def test_a_name_both_tables_or_neither_list_goes_where_its_words_say(
    text: str, entities: dict[str, str]
) -> None:
    """ "Dracula" is a title and an author here; "Tolkien" is in neither table."""
    both = [{"value": "Dracula", "aliases": []}]
    assert GoalEntityExtractor(search(TITLES + both, AUTHORS + both)).extract(text) == entities
