"""Entity extraction per entities_schema: enums, booleans, *_text spans, several values."""

from __future__ import annotations

import pytest

from intent.embedded import EmbeddedIntentAdapter
from intent.entities import GoalEntityExtractor, fuzzy_equal
from shared.catalog import Catalog


@pytest.fixture(scope="module")
def forecast(catalog: Catalog) -> GoalEntityExtractor:
    goal = catalog.find_goal("weather", "GET_FORECAST")
    assert goal is not None
    return GoalEntityExtractor(goal)


@pytest.fixture(scope="module")
def extremes(catalog: Catalog) -> GoalEntityExtractor:
    goal = catalog.find_goal("weather", "EXTREME_CITIES")
    assert goal is not None
    return GoalEntityExtractor(goal)


@pytest.mark.parametrize(
    ("text", "direction"),
    [
        ("cidades mais quentes do Norte", "HOTTEST"),
        ("cidades MAIS FRIAS", "COLDEST"),
        ("cidades que esfriaram", "COLDEST"),
        ("cidades que esquentaram", "HOTTEST"),
        ("cidades quentes e frias hoje", "BOTH"),  # the longer phrase wins
        ("hottest and coldest cities", "BOTH"),
        ("cidades mais frías", "COLDEST"),  # stray accent
        ("cidades que esfriaran", "COLDEST"),  # one typo in a long word
    ],
)
def test_enum_from_synonyms(extremes: GoalEntityExtractor, text: str, direction: str) -> None:
    assert extremes.extract(text)["direction"] == direction


def test_enum_absent_when_not_said(extremes: GoalEntityExtractor) -> None:
    assert "direction" not in extremes.extract("ranking de cidades")


def test_boolean_true_from_synonym(forecast: GoalEntityExtractor) -> None:
    found = forecast.extract("manda a previsão de Natal no meu telegram")
    assert found["notify"] is True
    assert found["city_text"] == "Natal"
    assert "notify" not in forecast.extract("previsão de Natal")


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("previsão de Natal sem telegram", "pt"),
        ("previsão de Natal, mas não manda", "pt"),
        ("forecast for Natal, no telegram", "en"),
        ("forecast for Natal without telegram", "en"),
    ],
)
def test_a_boolean_said_off_is_false(forecast: GoalEntityExtractor, text: str, language: str) -> None:
    assert forecast.extract(text, language=language)["notify"] is False


def test_the_portuguese_no_is_in_the(forecast: GoalEntityExtractor) -> None:
    assert forecast.extract("previsão de Natal no telegram", language="pt")["notify"] is True


@pytest.mark.parametrize(
    ("text", "city"),
    [
        ("qual a previsão do tempo em Ribeirão Preto?", "Ribeirão Preto"),
        ("previsao do tempo em ribeirao preto", "ribeirao preto"),
        ("what is the weather in Buenos Aires today", "Buenos Aires"),
        ("previsão para o Rio de Janeiro", "Rio de Janeiro"),
    ],
)
def test_text_span_exactly_as_written(forecast: GoalEntityExtractor, text: str, city: str) -> None:
    assert forecast.extract(text)["city_text"] == city
    assert city in text


def test_several_values_become_a_list(forecast: GoalEntityExtractor) -> None:
    found = forecast.extract("previsão do tempo em Recife, Natal e João Pessoa")
    assert found["city_text"] == ["Recife", "Natal", "João Pessoa"]
    en = forecast.extract("weather in Lisbon, Porto and Madrid")
    assert en["city_text"] == ["Lisbon", "Porto", "Madrid"]


def test_enum_and_string_together(forecast: GoalEntityExtractor, extremes: GoalEntityExtractor) -> None:
    assert forecast.extract("previsão de Miami em fahrenheit") == {"unit": "FAHRENHEIT", "city_text": "Miami"}
    assert extremes.extract("cidades mais frias da Patagônia") == {
        "direction": "COLDEST",
        "region_text": "Patagônia",
    }


async def test_adapter_returns_entities_of_the_chosen_goal(adapter: EmbeddedIntentAdapter) -> None:
    out = await adapter.parse("qual a previsão do tempo em Curitiba e Londrina?")
    assert out.goal == "GET_FORECAST"
    assert out.entities == {"city_text": ["Curitiba", "Londrina"]}


def test_fuzzy_equal_is_for_typos_not_other_words() -> None:
    assert fuzzy_equal("cotacao", "cotacap")
    assert not fuzzy_equal("alta", "alto")  # short words must match exactly
    assert not fuzzy_equal("quentes", "frias")
