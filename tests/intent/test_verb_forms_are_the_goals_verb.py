"""Another form of a verb the goal is phrased with is that verb, in both languages: "lista meus
empréstimos" of a goal phrased "listar meus empréstimos" opens with no action the goal does not
do, and "renovando", "renewing" are the renewal's own words; a verb of another goal stays an
action this goal does not do."""

from __future__ import annotations

import pytest

from intent.entities import GoalEntityExtractor
from intent.text import verb_stem
from shared.manifest import Goal
from tests.conftest import example

LIST_LOANS = Goal.model_validate(
    {
        "goal": "LIST_LOANS",
        "description": {"pt": "Os livros que você pegou emprestados", "en": "The books you have on loan"},
        "entities_schema": {},
        "examples": [
            "listar meus empréstimos",
            "quais livros estão comigo?",
            "list my library loans",
        ],
    }
)
RENEW_LOAN = Goal.model_validate(
    {
        "goal": "RENEW_LOAN",
        "description": {"pt": "Renovar o empréstimo de um livro", "en": "Renew a book loan"},
        "entities_schema": {"book_text": {"type": "string", "required": True}},
        "examples": [
            example("quero renovar o empréstimo do Torto Arado", book_text="Torto Arado"),
            example("renew Sapiens please", book_text="Sapiens"),
        ],
    }
)


@pytest.mark.parametrize(
    ("words", "stem"),
    [
        (["lista", "listar", "liste", "listo", "list", "lists", "listing", "listed"], "list"),
        (["renova", "renovar", "renove", "renovando", "renovou", "renovado"], "renov"),
        (["renew", "renews", "renewing", "renewed"], "renew"),
        (["cancel", "cancela", "cancelar", "cancelling", "cancelled"], "cancel"),
    ],
)
def test_the_forms_of_a_verb_share_a_stem(words: list[str], stem: str) -> None:
    assert {verb_stem(w) for w in words} == {stem}


@pytest.mark.parametrize("short", ["paga", "para", "ver", "use"])
def test_a_short_word_is_its_own_stem(short: str) -> None:
    assert verb_stem(short) == short


@pytest.mark.parametrize(
    "text", ["lista meus empréstimos", "liste meus empréstimos", "listing my loans", "lists my loans"]
)
def test_a_form_of_the_goals_own_verb_is_no_other_action(text: str) -> None:
    extractor = GoalEntityExtractor(LIST_LOANS)
    assert extractor.unsupported_action(text) is None
    assert extractor.uses_phrasing(text.split()[0])


@pytest.mark.parametrize(
    "text", ["renova o Dom Casmurro", "renovando o Dom Casmurro", "renewing my Sapiens", "renews my Sapiens"]
)
def test_the_renewals_verb_in_both_languages(text: str) -> None:
    assert GoalEntityExtractor(RENEW_LOAN).unsupported_action(text) is None


@pytest.mark.parametrize(
    ("text", "verb"), [("renova meus empréstimos", "renova"), ("compra 2 livros", "compra")]
)
def test_a_verb_the_goal_does_not_use_is_still_named(text: str, verb: str) -> None:
    assert GoalEntityExtractor(LIST_LOANS).unsupported_action(text) == verb
