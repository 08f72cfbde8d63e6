"""Entity spans that hold up in real messages: filler is never an entity, a span must look like
its entity (shape, vocabulary, a name's look or a learned context), a list typed without commas
is split on known values, and two enum entities of one type are told apart by their cues."""

from __future__ import annotations

from typing import Any

import pytest

from domains.finance.declarations import GOALS
from intent.embedded import EmbeddedIntentAdapter, entity_extractor
from intent.entities import GoalEntityExtractor, content_words
from intent.text import request_part
from shared.catalog import Catalog, GoalRef
from shared.manifest import validate_manifest
from tests.fixtures.currency_domain import GOAL as CONVERT
from tests.fixtures.currency_domain import service as currency

FINANCE: dict[str, Any] = {
    "domain": "finance",
    "version": "1",
    "description": "ações",
    "capabilities": [
        {"name": n, "description": n}
        for n in ("get_stock_price", "get_top_gainers", "get_top_losers", "search_symbol")
    ],
    "goals": GOALS,
}


def extractor_of(catalog: Catalog, domain: str, goal: str) -> GoalEntityExtractor:
    found = catalog.find_goal(domain, goal)
    assert found is not None
    return entity_extractor(GoalRef(domain, found), catalog)


@pytest.fixture(scope="module")
def finance() -> Catalog:
    return Catalog([validate_manifest(FINANCE)])


@pytest.fixture(scope="module")
def quote(finance: Catalog) -> GoalEntityExtractor:
    return extractor_of(finance, "finance", "GET_QUOTE")


@pytest.fixture(scope="module")
def movers(finance: Catalog) -> GoalEntityExtractor:
    return extractor_of(finance, "finance", "TOP_MOVERS")


@pytest.fixture(scope="module")
def convert() -> GoalEntityExtractor:
    return extractor_of(Catalog([currency.manifest()]), "currency", CONVERT["goal"])


@pytest.mark.parametrize(
    ("text", "symbols"),
    [
        (
            "Olá, bom dia! Desculpe o incômodo, estou pensando em investir e queria saber, "
            "se não for pedir demais, qual é o preço da Petrobras hoje?",
            "Petrobras",
        ),
        ("compre 100 ações da Petrobras", "Petrobras"),
        ("hi, could you please tell me the price of Apple? thanks a lot", "Apple"),
        ("Boa tarde, tudo bem? Queria muito saber a cotação da Vale agora, obrigado!", "Vale"),
        ("preço petrobras vale itau", ["petrobras", "vale", "itau"]),
        ("cotação do Itaú Unibanco", "Itaú Unibanco"),
        ("preço da Embraer, Gerdau e Suzano", ["Embraer", "Gerdau", "Suzano"]),
        ("cotação gerdau", "gerdau"),
        ("quanto vale a ação do Santander?", "Santander"),
        ("quanto vale a petrobras", "petrobras"),  # "vale" the verb, not the company
        ("quanto vale a Vale hoje", "Vale"),
        ("preço da vale e da petrobras", ["vale", "petrobras"]),
        ("preço da Vale e petrobras", ["Vale", "petrobras"]),
        ("cotação do Bradesco e do Banco do Brasil", ["Bradesco", "Banco do Brasil"]),
    ],
)
def test_only_what_names_a_company_is_a_symbol(quote: GoalEntityExtractor, text: str, symbols: Any) -> None:
    assert quote.extract(text).get("symbol_text") == symbols


@pytest.mark.parametrize("text", ["compre 100 ações", "bom dia, tudo bem?", "thanks a lot!"])
def test_filler_and_numbers_alone_are_no_symbol(quote: GoalEntityExtractor, text: str) -> None:
    assert "symbol_text" not in quote.extract(text)


def test_an_optional_entity_needs_evidence(movers: GoalEntityExtractor) -> None:
    assert movers.extract("ranking de maiores altas") == {"direction": "GAINERS"}
    assert movers.extract("maiores altas na argentina") == {
        "direction": "GAINERS",
        "market_text": "argentina",
    }


def test_time_words_name_nothing() -> None:
    assert content_words("e ontem?") == []
    assert content_words("and yesterday?") == []
    assert content_words("e a Vale?") == ["vale"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("converte 250 dólares para reais", ("250", "USD", "BRL")),
        ("convert 1200 yen to dollars", ("1200", "JPY", "USD")),
        ("troca 50 libras por euros", ("50", "GBP", "EUR")),
        ("quanto é 1.200 euros em reais?", ("1.200", "EUR", "BRL")),
        ("how many dollars is 1000 yen?", ("1000", "JPY", "USD")),
        ("de reais para libras, 30", ("30", "BRL", "GBP")),
    ],
)
def test_two_entities_of_one_type_by_role(
    convert: GoalEntityExtractor, text: str, expected: tuple[str, str, str]
) -> None:
    found = convert.extract(text)
    assert (found.get("amount_text"), found.get("from_currency"), found.get("to_currency")) == expected


def test_a_mention_without_cue_goes_to_the_role_asked_for(convert: GoalEntityExtractor) -> None:
    assert convert.extract("reais") == {"from_currency": "BRL"}  # the declared order
    assert convert.extract("reais", prefer="to_currency") == {"to_currency": "BRL"}
    assert convert.extract("não, em euros", prefer="amount_text") == {"to_currency": "EUR"}


def test_roles_are_learned_from_the_examples_without_a_naming_convention() -> None:
    units = ["METER", "FOOT"]
    synonyms = {"METER": ["metros", "meters"], "FOOT": ["pés", "feet"]}
    spec = {"type": "enum", "values": units, "synonyms": synonyms}
    manifest = validate_manifest(
        {
            "domain": "units",
            "version": "1",
            "description": "units",
            "capabilities": [{"name": "convert_units", "description": "convert"}],
            "goals": [
                {
                    "goal": "CONVERT_UNITS",
                    "description": "converter unidades (convert units)",
                    "capabilities": ["convert_units"],
                    "entities_schema": {"unit_out": spec, "unit_in": spec},
                    "examples": [
                        {"text": "10 metros em pés", "entities": {"unit_in": "METER", "unit_out": "FOOT"}},
                        {"text": "3 feet in meters", "entities": {"unit_in": "FOOT", "unit_out": "METER"}},
                    ],
                }
            ],
        }
    )
    units_extractor = extractor_of(Catalog([manifest]), "units", "CONVERT_UNITS")
    assert units_extractor.extract("quanto dá 5 pés em metros?") == {"unit_in": "FOOT", "unit_out": "METER"}


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("compre 100 ações da Petrobras", "compre"),
        ("venda minhas ações da Vale", "venda"),
        ("buy 100 shares of Apple", "buy"),
        ("qual o preço da Petrobras?", None),
        ("Petrobras hoje", None),
        ("me diz o valor da ação do Itaú", None),
        ("manda a cotação da Vale no meu telegram", None),
        ("get me the share price of Nokia", None),
        ("quanto vale a petrobras", None),  # a name that is also a verb
    ],
)
def test_a_verb_the_goal_does_not_do_is_named(
    quote: GoalEntityExtractor, text: str, action: str | None
) -> None:
    assert quote.unsupported_action(text) == action


def test_request_part_drops_only_clauses_of_politeness() -> None:
    assert (
        request_part("Oi, tudo bem? Qual a previsão para Recife? Obrigado!") == "Qual a previsão para Recife"
    )
    assert request_part("oi, tudo bem?") == "oi, tudo bem?"  # politeness is the request
    assert request_part("no, that is wrong") == "no, that is wrong"  # "no" is an answer, not politeness


async def test_a_greeting_around_a_request_does_not_outweigh_it(adapter: EmbeddedIntentAdapter) -> None:
    out = await adapter.parse("Oi, bom dia! Por favor, qual a previsão do tempo em Recife? Obrigado!")
    assert (out.goal, out.entities) == ("GET_FORECAST", {"city_text": "Recife"})
    assert (await adapter.parse("oi, bom dia!")).goal == "GREET"
