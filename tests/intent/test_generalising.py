"""Phrasings the manifests' examples never show: chat shorthands, names whose words are function
words ("São Paulo"), plurals and swapped letters of table values, and clear requests the
classifier alone is unsure of."""

from __future__ import annotations

import pytest

from intent.embedded import RESCUE_FLOOR, EmbeddedIntentAdapter
from intent.entities import GoalEntityExtractor, fuzzy_equal, stem
from intent.text import expand_shorthands
from shared.catalog import Catalog
from shared.manifest import DomainManifest, Goal
from tests.conftest import example

CITY = {
    "type": "string",
    "required": True,
    "lookup": [
        {"value": "São Paulo", "aliases": ["Sampa"]},
        {"value": "Florianópolis", "aliases": ["Floripa"]},
        {"value": "Recife"},
        {"value": "Lisboa"},
    ],
}
WEATHER = Goal.model_validate(
    {
        "goal": "GET_WEATHER",
        "description": {"pt": "Previsão do tempo de uma cidade", "en": "A city's weather forecast"},
        "capabilities": ["forecast"],
        "entities_schema": {"city_text": CITY, "day_text": {"type": "date"}},
        "examples": [
            example("como está o tempo em Recife?", city_text="Recife"),
            example("vai chover em Lisboa amanhã?", city_text="Lisboa", day_text="amanhã"),
            example("what's the weather like in Recife?", city_text="Recife"),
            example("will it rain in Lisboa tomorrow?", city_text="Lisboa", day_text="tomorrow"),
        ],
    }
)
PRODUCT = {
    "type": "string",
    "required": True,
    "lookup": [
        {"value": "Garrafa térmica", "aliases": ["garrafa", "thermos"]},
        {"value": "Teclado mecânico", "aliases": ["teclado", "keyboard"]},
        {"value": "Camiseta básica", "aliases": ["camiseta", "t-shirt"]},
    ],
}
ORDER = Goal.model_validate(
    {
        "goal": "PLACE_ORDER",
        "description": {"pt": "Comprar um produto", "en": "Buy a product"},
        "capabilities": ["order"],
        "entities_schema": {"product_text": PRODUCT},
        "examples": [
            example("quero comprar uma garrafa térmica", product_text="garrafa térmica"),
            example("I want to buy a keyboard", product_text="keyboard"),
        ],
    }
)


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("qto ta a Vale hj?", "quanto está a Vale hoje?"),
        ("whens my next appt", "when is my next appointment"),
        ("Tô com consulta?", "estou com consulta?"),
        ("refund R$ 30 pls", "refund R$ 30 please"),  # "R$" is money, not a shorthand
        ("Uber e Tesla", "Uber e Tesla"),  # words that only start like one are kept
    ],
)
def test_chat_shorthands_are_written_out(text: str, read: str) -> None:
    assert expand_shorthands(text) == read


def test_a_known_name_made_of_a_function_word_is_one_value() -> None:
    """The verb "são" ("quais são") is the first word of "São Paulo": a table's value of
    several words is read whole before function words split it."""
    extractor = GoalEntityExtractor(WEATHER)
    assert extractor.extract("weather tmrw in sao paulo")["city_text"] == "sao paulo"
    assert extractor.extract("vai chover em São Paulo?")["city_text"] == "São Paulo"
    assert "city_text" not in extractor.extract("quais são as cidades?")


@pytest.mark.parametrize(
    ("text", "product"),
    [
        ("compra 3 garrafas", "garrafas"),  # a Portuguese plural
        ("buy 2 t-shirts", "t-shirts"),  # an English plural
        ("purchase 10 thermoses", "thermoses"),  # "-es"
        ("i need a keybaord", "keybaord"),  # two letters swapped
    ],
)
def test_plurals_and_swapped_letters_of_table_values_are_known(text: str, product: str) -> None:
    assert GoalEntityExtractor(ORDER).extract(text)["product_text"] == product


def test_stems_and_transpositions() -> None:
    assert stem("garrafas") == stem("garrafa") and stem("thermoses") == stem("thermos")
    assert stem("mouses") == stem("mouse")
    assert stem("casa") != stem("caso")
    assert fuzzy_equal("keybaord", "keyboard")  # one swap is one slip
    assert not fuzzy_equal("keyboard", "keybroad")  # a swap and more is another word


def test_evidence_is_a_table_value_or_a_typed_span() -> None:
    extractor = GoalEntityExtractor(WEATHER)
    assert extractor.evidenced({"city_text": "Floripa", "day_text": "2026-03-11"})
    assert not extractor.evidenced({"city_text": "Gotham"})
    assert extractor.phrasing_words("chove em Floripa?") == ["chove"]  # "chover", one letter off
    assert extractor.phrasing_words("hotel barato em Floripa") == []


@pytest.fixture(scope="module")
def adapter() -> EmbeddedIntentAdapter:
    manifest = DomainManifest.model_validate(
        {
            "domain": "shop",
            "version": "1",
            "description": "Weather and a shop",
            "capabilities": [
                {"name": "forecast", "description": "f"},
                {"name": "order", "description": "o"},
            ],
            "goals": [WEATHER.model_dump(), ORDER.model_dump()],
        }
    )
    return EmbeddedIntentAdapter(Catalog([manifest]), use_embeddings=False)


def test_an_unsure_clear_request_is_read_and_a_lure_is_not(adapter: EmbeddedIntentAdapter) -> None:
    """Under the out-of-scope threshold (here everything is: the threshold is above any
    confidence), a request with its required values from the goal's table and a word of the goal's
    phrasing is still the goal's; a table value inside some other request is not."""
    unsure = EmbeddedIntentAdapter(use_embeddings=False, oos_threshold=1.01)
    unsure.catalog, unsure.model = adapter.catalog, adapter.model
    context = {"time_zone": "America/Sao_Paulo", "now": "2026-03-10T09:00:00-03:00"}
    out = unsure.parse_sync("chove em floripa amanha ou nao", context=context)
    assert unsure.scores("chove em floripa amanha ou nao")[1] >= RESCUE_FLOOR
    assert out.goal == "GET_WEATHER"
    assert out.entities == {"city_text": "floripa", "day_text": "2026-03-11"}
    assert not any(note.startswith("out of scope") for note in out.notes)
    for lure in ("me indica um restaurante bom em Floripa", "hotel em Recife amanhã"):
        assert unsure.parse_sync(lure, context=context).goal is None, lure
    assert unsure.parse_sync("comprar uma garrafa", context=context).goal == "PLACE_ORDER"


# ------------------------------------------------------------------ typos the classifier never saw


def test_a_typo_of_a_learnt_word_is_read_as_the_word(adapter: EmbeddedIntentAdapter) -> None:
    model = adapter.model
    assert model is not None
    # swapped and wrong letters inside a word the examples use
    assert model.spelled("qual a previsao do tmepo em Recife?") == "qual a previsao do tempo em Recife?"
    assert model.spelled("what is the waether in London?") == "what is the weather in London?"
    assert model.spelled("forecsst for Paris") == "forecast for Paris"


def test_other_forms_and_short_words_are_not_corrected(adapter: EmbeddedIntentAdapter) -> None:
    model = adapter.model
    assert model is not None
    # another ending is another form of a word, one letter more or less often another word, not
    # a slip; short words are left alone
    assert model.spelled("forecasts for Paris") == "forecasts for Paris"
    assert model.spelled("forecastt for Paris") == "forecastt for Paris"
    assert model.spelled("will it rein in Paris") == "will it rein in Paris"


def test_a_vowel_left_out_is_a_slip(adapter: EmbeddedIntentAdapter) -> None:
    model = adapter.model
    assert model is not None
    assert model.spelled("forcast for Paris") == "forecast for Paris"


def test_a_typo_in_the_goals_word_keeps_the_goal(adapter: EmbeddedIntentAdapter) -> None:
    # (a city of the table: one it does not list names nothing the goal knows)
    right = adapter.parse_sync("what is the weather in Lisboa?")
    typed = adapter.parse_sync("what is the waether in Lisboa?")
    assert typed.goal == right.goal == "GET_WEATHER"
    assert typed.confidence == pytest.approx(right.confidence)


def test_a_portuguese_verb_in_the_other_form_is_read_as_the_learnt_one(
    adapter: EmbeddedIntentAdapter,
) -> None:
    model = adapter.model
    assert model is not None
    # the examples say "vai chover"; people also write "chove"
    assert model.spelled("chove em Recife amanhã?", "pt") == "chover em Recife amanhã?"
    # only for Portuguese: an English word and the same word with an "r" are other words
    assert model.spelled("chove em Recife amanhã?", "en") == "chove em Recife amanhã?"
    assert model.spelled("chove em Recife amanhã?") == "chove em Recife amanhã?"
