"""Another form of a verb the goal is phrased with is that verb, in both languages: "lista meus
empréstimos" of a goal phrased "listar meus empréstimos" opens with no action the goal does not
do, and "renovando", "renewing" are the renewal's own words; a verb of another goal stays an
action this goal does not do."""

from __future__ import annotations

import pytest

from intent.embedded import EmbeddedIntentAdapter
from intent.entities import GoalEntityExtractor
from intent.model import EmbeddedModel
from intent.text import verb_stem
from shared.catalog import Catalog
from shared.manifest import DomainManifest, Goal
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


# ------------------------------------------------- the learnt form of a verb, for the classifier

OVERDUE_LOANS = Goal.model_validate(
    {
        "goal": "LIST_OVERDUE",
        "description": {"pt": "Os empréstimos atrasados", "en": "Your overdue loans"},
        "entities_schema": {},
        "examples": [
            "quais livros estão atrasados?",
            "tenho algum livro atrasado?",
            "posso atrasar a devolução?",
            "which of my books are overdue?",
        ],
    }
)


@pytest.fixture(scope="module")
def model() -> EmbeddedModel:
    goals = [{**g.model_dump(), "capabilities": ["loans"]} for g in (LIST_LOANS, RENEW_LOAN, OVERDUE_LOANS)]
    manifest = DomainManifest.model_validate(
        {
            "domain": "library",
            "version": "1",
            "description": "A library",
            "capabilities": [{"name": "loans", "description": "l"}],
            "goals": goals,
        }
    )
    adapter = EmbeddedIntentAdapter(Catalog([manifest]), use_embeddings=False)
    assert adapter.model is not None
    return adapter.model


@pytest.mark.parametrize(
    ("word", "language", "stem"),
    [
        # the forms only a verb has, in its own language
        ("apaga", "pt", "apag"),
        ("apagar", "pt", "apag"),
        ("renovando", "pt", "renov"),
        ("renovou", "pt", "renov"),
        ("renew", "en", "renew"),
        ("renews", "en", "renew"),
        ("renewing", "en", "renew"),
        ("cancelled", "en", "cancel"),
        # a noun, an adjective, a plural: no verb's form, though "atrasar" shares their stem
        ("atraso", "pt", None),
        ("atrasado", "pt", None),
        ("atrasados", "pt", None),
        ("livros", "pt", None),
        # the other language's form
        ("renew", "pt", None),
        ("cleaner", "en", None),
    ],
)
def test_a_verbs_form_in_a_language(word: str, language: str, stem: str | None) -> None:
    assert verb_stem(word, language) == stem


@pytest.mark.parametrize(
    ("text", "language", "spelled"),
    [
        # the examples say "renovar" and "renew": people also write the gerund, the past...
        ("renovando o Torto Arado", "pt", "renovar o Torto Arado"),
        ("renovou o Torto Arado?", "pt", "renovar o Torto Arado?"),
        # ...and the imperative for the infinitive and back, as before
        ("renova o Torto Arado", "pt", "renovar o Torto Arado"),
        ("lista meus empréstimos", "pt", "listar meus empréstimos"),
    ],
)
def test_another_form_of_a_learnt_verb_is_read_as_the_learnt_one(
    model: EmbeddedModel, text: str, language: str, spelled: str
) -> None:
    assert model.spelled(text, language) == spelled


@pytest.mark.parametrize(
    ("text", "language"),
    [
        # "atrasado", "atrasar" are learnt: the noun is none of their forms
        ("em atraso", "pt"),
        ("meu atraso", "pt"),
        # another language's form is another word
        ("renovando o Torto Arado", "en"),
        ("renewing Sapiens", "pt"),
        ("renewing Sapiens", None),
        # English forms are left to the sentence encoder (SPELLED_VERBS)
        ("renewing Sapiens", "en"),
    ],
)
def test_a_noun_or_another_languages_word_is_left_as_written(
    model: EmbeddedModel, text: str, language: str | None
) -> None:
    assert model.spelled(text, language) == text
