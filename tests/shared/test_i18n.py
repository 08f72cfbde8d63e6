"""shared.i18n: the one language detector, the message catalogs, the folding helpers."""

from __future__ import annotations

import pytest

from shared.i18n import (
    CORE,
    LANGUAGES,
    Catalog,
    Language,
    as_language,
    detect,
    fold,
    language_of,
    normalise,
    t,
    words,
)

# Every case the three detectors it replaces were tested with (execution.language,
# intent.text, domains.research.text: doctests and tests), then the texts on which they
# disagreed with each other, then ties and mixed texts.
DETECTION_CASES: list[tuple[str, Language]] = [
    # execution.language (doctest, tests/execution/test_runner.py)
    ("what is the price of Apple?", "en"),
    ("qual o preço da Vale?", "pt"),
    ("what is the price of Zzz?", "en"),
    ("what is the price of Aple?", "en"),
    # intent.text (doctest, tests/intent/test_embedded.py)
    ("what is the price of apple", "en"),
    ("qual o preço da vale", "pt"),
    ("what is the weather in London", "en"),
    ("qual a previsão do tempo em Londres", "pt"),
    # domains.research.text (doctest, tests/domains/research)
    ("Método incremental é mais rápido", "pt"),
    ("pair programming is faster", "en"),
    ("Pair programming is faster", "en"),
    ("Método X reduz tempo em 30% em equipes de 2-5 devs", "pt"),
    ("Método incremental reduz tempo em 30%, medido por sprints, em equipes de 2-5 devs", "pt"),
    ("mais uma coisa", "pt"),
    # where the old detectors disagreed (each of these had one of them wrong)
    ("biggest losers in Finland today", "en"),
    ("send a message", "en"),
    ("top gainers today", "en"),
    ("more than 64 steps", "en"),
    ("cannot help", "en"),
    # Portuguese as people type it: no accents, elliptical follow-ups
    ("qual o preco da itau", "pt"),
    ("cotacao da magazine luiza", "pt"),
    ("e nos EUA?", "pt"),
    ("e o ticker da Vale?", "pt"),
    ("maiores altas hoje", "pt"),
    # accents are one vote: enough for a tie, not against a clearly English sentence
    ("cotação Nvidia", "pt"),
    ("what is the price of Itaú today", "en"),
]


@pytest.mark.parametrize(("text", "language"), DETECTION_CASES)
def test_detect_tells_portuguese_from_english(text: str, language: Language) -> None:
    assert detect(text) == language
    # a clear vote does not depend on the default
    assert detect(text, default="en") == detect(text, default="pt") == language


@pytest.mark.parametrize("text", ["", "Nvidia", "ok", "PETR4", "123"])
def test_a_text_without_votes_is_the_default(text: str) -> None:
    assert detect(text) == "pt"
    assert detect(text, default="en") == "en"


@pytest.mark.parametrize(
    ("tag", "language"),
    [("pt", "pt"), ("pt-BR", "pt"), ("PT_br", "pt"), ("en", "en"), ("en-US", "en"), ("EN", "en")],
)
def test_as_language_reads_language_tags(tag: str, language: Language) -> None:
    assert as_language(tag) == language


@pytest.mark.parametrize("tag", [None, "", "fr", "es-ES", 42])
def test_as_language_gives_the_default_for_anything_else(tag: object) -> None:
    assert as_language(tag) == "pt"
    assert as_language(tag, default="en") == "en"


def test_language_of_prefers_the_context_then_the_text_then_the_default() -> None:
    assert language_of({"language": "en-US"}, "qual o preço da Vale?") == "en"
    assert language_of({"language": "pt-BR"}, "what is the price of Apple?") == "pt"
    assert language_of({"language": None}, "what is the price of Apple?") == "en"
    assert language_of({}, "qual o preço da Vale?", default="en") == "pt"
    assert language_of({}) == "pt"
    assert language_of({}, default="en") == "en"


# ---------------------------------------------------------------------------------- catalogs

QUOTES = Catalog(
    {
        "quote": {"pt": "{name} está em {price}.", "en": "{name} is at {price}."},
        "only_en": {"en": "Only in English."},
        "only_pt": {"pt": "Só em português."},
        "gate": {"pt": "confiança {confidence:.0%}", "en": "confidence {confidence:.0%}"},
        "stop": {"pt": "Parei ({reason!c}).", "en": "I stopped ({reason!c}): {detail}"},
    }
)


@pytest.mark.parametrize(
    ("language", "expected"),
    [("pt", "Vale está em 61,20."), ("pt-BR", "Vale está em 61,20."), ("en", "Vale is at 61,20.")],
)
def test_t_fills_the_message_of_the_language(language: str, expected: str) -> None:
    assert QUOTES.t("quote", language, name="Vale", price="61,20") == expected


def test_t_falls_back_to_english_then_to_the_id() -> None:
    assert QUOTES.t("only_en", "pt") == "Only in English."
    assert QUOTES.t("only_pt", "en") == "only_pt"
    assert QUOTES.t("only_pt", "pt") == "Só em português."
    assert QUOTES.t("no.such.message", "en") == "no.such.message"


def test_t_applies_format_specs_and_the_clause_conversion() -> None:
    assert QUOTES.t("gate", "pt", confidence=0.4242) == "confiança 42%"
    assert QUOTES.t("stop", "pt", reason="Not found. ") == "Parei (Not found)."
    # only !c fields lose their full stop
    assert (
        QUOTES.t("stop", "en", reason="Not found.", detail="Try again.")
        == "I stopped (Not found): Try again."
    )


def test_t_raises_on_a_missing_parameter() -> None:
    with pytest.raises(KeyError, match="price"):
        QUOTES.t("quote", "en", name="Vale")


def test_a_catalog_rejects_texts_for_a_language_the_platform_does_not_speak() -> None:
    with pytest.raises(ValueError, match="br"):
        Catalog({"quote": {"pt": "Olá", "br": "Olá"}})


def test_by_language_builds_the_same_catalog_from_the_per_language_shape() -> None:
    catalog = Catalog.by_language({"pt": {"and": "e", "or": "ou"}, "en": {"and": "and"}})
    assert sorted(catalog) == ["and", "or"]
    assert len(catalog) == 2 and "and" in catalog and "xor" not in catalog
    assert catalog.t("and", "en") == "and"
    assert catalog.untranslated() == [("or", "en")]


def test_a_catalog_reports_untranslated_messages_and_mismatched_parameters() -> None:
    assert QUOTES.untranslated() == [("only_en", "pt"), ("only_pt", "en")]
    assert QUOTES.mismatched_parameters() == ["stop"]


def test_every_core_message_has_every_language_with_the_same_parameters() -> None:
    assert len(CORE) > 20
    assert CORE.untranslated() == []
    assert CORE.mismatched_parameters() == []


def test_every_core_message_renders_differently_in_each_language() -> None:
    # every parameter any core message takes, with a value any of its formats accepts
    numbers = {"replans", "step", "more", "attempts", "count", "limit"}
    for message_id in CORE:
        names = CORE.parameters(message_id)
        params: dict[str, object] = {
            n: 2 if n in numbers else 0.5 if n == "confidence" else "x" for n in names
        }
        texts = [CORE.t(message_id, language, **params) for language in LANGUAGES]
        assert message_id not in texts and len(set(texts)) == len(LANGUAGES), message_id
    assert t("run.done", "pt") == "Pronto." and t("run.done", "en") == "Done."


# ---------------------------------------------------------------------------------- folding


@pytest.mark.parametrize(
    ("text", "folded"),
    [("Cotação da Itaú!", "cotacao da itau!"), ("ÁGUA, 30%", "agua, 30%"), ("São Paulo", "sao paulo")],
)
def test_fold_drops_accents_and_case_and_keeps_punctuation(text: str, folded: str) -> None:
    assert fold(text) == folded


@pytest.mark.parametrize("text", ["Cotação da Itaú!", "e o ticker da Vale?", "Ação — PETR4.SA"])
def test_normalise_keeps_the_length_so_spans_map_back(text: str) -> None:
    norm = normalise(text)
    assert len(norm) == len(text)
    for word in words(text):
        start = norm.index(word)
        assert fold(text[start : start + len(word)]) == word


def test_words_are_accent_free_lower_case_letters_and_digits() -> None:
    assert words("Preço da PETR4, hoje!") == ["preco", "da", "petr4", "hoje"]
