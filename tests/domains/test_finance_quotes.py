"""get_stock_price and search_symbol through the finance app: resolution, clarification, failure."""

from __future__ import annotations

import pytest

from domains.finance.provider import SnapshotProvider
from domains.finance.resolver import SymbolResolver
from domains.finance.service import build_service
from intent.entities import GoalEntityExtractor
from tests.domains.conftest import Execute


async def test_nordea_is_ambiguous_and_asks_which(finance: Execute) -> None:
    out = await finance("get_stock_price", {"symbol_text": "Nordea"})
    assert out["status"] == "clarification"
    asked = out["clarification"]
    # picking an option re-runs the step with parameters["symbol"] = its value
    assert asked["param"] == "symbol" and asked["continue_with"] is None
    assert [o["value"] for o in asked["options"]] == ["NDA-SE.ST", "NDA-FI.HE"]
    helsinki = asked["options"][1]
    assert helsinki["label"] == "Nordea Bank Abp (Helsinki) — Nasdaq Helsinki (EUR)"
    assert {"NDA-FI", "Nasdaq Helsinki", "Finlândia"} <= set(helsinki["aliases"])
    assert helsinki["data"] == {
        "symbol": "NDA-FI.HE",
        "name": "Nordea Bank Abp (Helsinki)",
        "exchange": "Nasdaq Helsinki",
        "market": "FI",
        "currency": "EUR",
    }
    assert out["explanation"] == asked["question"] == "Encontrei mais de um ticker para 'Nordea'. Qual deles?"
    assert out["metadata"] == {"resolution": "ambiguous_symbol", "query": "Nordea"}
    assert out["result"] == {} and out["failure"] is None


@pytest.mark.parametrize(
    ("typed", "symbol"),
    [("nordea bank stockholm", "NDA-SE.ST"), ("Itau", "ITUB4.SA"), ("Petrobrass", "PETR4.SA"),
     ("petr4", "PETR4.SA"), ("VALE3.SA", "VALE3.SA"), ("ações da Vale", "VALE3.SA"), ("Microsft", "MSFT"),
     ("Banco do Brasil", "BBAS3.SA"), ("magalu", "MGLU3.SA"), ("ERICSSON", "ERIC-B.ST")],
)  # fmt: skip
async def test_names_resolve_case_accent_and_typo_insensitively(
    typed: str, symbol: str, finance: Execute
) -> None:
    out = await finance("get_stock_price", {"symbol_text": typed})
    assert out["status"] == "success", out["explanation"]
    assert out["result"]["symbol"] == symbol


async def test_lowercase_nordea_still_asks(finance: Execute) -> None:
    out = await finance("get_stock_price", {"symbol_text": "nordea"})
    assert out["status"] == "clarification"
    assert {o["value"] for o in out["clarification"]["options"]} == {"NDA-SE.ST", "NDA-FI.HE"}


async def test_quote_shows_sample_label_and_market_context(finance: Execute) -> None:
    out = await finance("get_stock_price", {"symbol": "NDA-SE.ST"})
    assert out["status"] == "success"
    assert out["explanation"] == (
        "Nordea (NDA-SE.ST) está em 112,50 SEK (+0,8% no dia) — dados de amostra de 2026-11-20."
    )
    assert out["result"]["price"] == 112.5
    assert out["result"]["_market_context"] == {
        "market": "SE",
        "exchange": "Nasdaq Stockholm",
        "currency": "SEK",
        "timezone": "Europe/Stockholm",
        "as_of": "2026-11-20",
        "source": "sample_snapshot",
    }


async def test_english_when_context_says_so(finance: Execute) -> None:
    out = await finance("get_stock_price", {"symbol_text": "Apple"}, language="en")
    assert (
        out["explanation"]
        == "Apple (AAPL) is at 228.52 USD (+0.84% on the day) — sample data from 2026-11-20."
    )
    ambiguous = await finance("get_stock_price", {"symbol_text": "Nordea"}, language="en")
    assert ambiguous["explanation"] == "I found more than one ticker for 'Nordea'. Which one?"


@pytest.mark.parametrize("name", ["Padaria do Zé", "Santander", "Netflix", "xyz"])
async def test_unknown_company_fails_without_a_price(name: str, finance: Execute) -> None:
    out = await finance("get_stock_price", {"symbol_text": name})
    assert out["status"] == "failure"
    assert out["result"] == {}
    assert out["failure"] == {"reason": "symbol_not_found", "recoverable": True, "suggestions": []}
    assert out["clarification"] is None
    assert name in out["explanation"]


async def test_chosen_symbol_is_validated_not_searched(finance: Execute) -> None:
    chosen = await finance("get_stock_price", {"symbol_text": "Nordea", "symbol": "NDA-FI.HE"})
    assert chosen["status"] == "success"
    assert chosen["result"]["symbol"] == "NDA-FI.HE" and chosen["result"]["currency"] == "EUR"
    invented = await finance("get_stock_price", {"symbol": "NORDEA"})
    assert invented["status"] == "failure" and invented["failure"]["reason"] == "symbol_not_found"


async def test_several_names_in_one_call_report_each(finance: Execute) -> None:
    out = await finance("get_stock_price", {"symbol_text": ["Apple", "Nvidia", "Padaria do Zé"]})
    assert out["status"] == "success"
    assert [q["symbol"] for q in out["result"]["quotes"]] == ["AAPL", "NVDA"]
    assert [i["symbol_text"] for i in out["result"]["issues"]] == ["Padaria do Zé"]
    assert len(out["explanation"].splitlines()) == 3


async def test_missing_name_is_a_clear_failure(finance: Execute) -> None:
    out = await finance("get_stock_price", {"symbol_text": "  "})
    assert out["status"] == "failure"
    assert out["failure"] == {"reason": "missing_parameter", "recoverable": True, "suggestions": []}
    assert out["metadata"] == {"param": "symbol_text"}


async def test_search_symbol_ranks_and_lists(finance: Execute) -> None:
    out = await finance("search_symbol", {"query": "Banco"})
    assert out["status"] == "success"
    assert {m["symbol"] for m in out["result"]["matches"]} == {"ITUB4.SA", "BBDC4.SA", "BBAS3.SA"}
    via_entity = await finance("search_symbol", {"symbol_text": "nokia"})
    assert via_entity["result"]["matches"][0]["symbol"] == "NOKIA.HE"
    nothing = await finance("search_symbol", {"query": "Padaria do Zé"})
    assert nothing["status"] == "failure" and nothing["failure"]["reason"] == "symbol_not_found"


def test_resolver_prefers_exact_alias_over_fuzzy() -> None:
    resolver = SymbolResolver(SnapshotProvider().instruments())
    # "vale3" is a ticker; "vale" would also be a fuzzy match for it: exact must win outright
    resolution = resolver.resolve("Vale")
    assert resolution.status == "resolved"
    assert resolution.candidates[0].method == "exact"
    assert resolver.resolve("Banco").status == "ambiguous"


@pytest.mark.parametrize(
    ("typed", "symbol"),
    [("Nordea Finlândia", "NDA-FI.HE"), ("nordea helsinki", "NDA-FI.HE"), ("Nordea Suécia", "NDA-SE.ST")],
)
async def test_a_place_in_the_name_settles_the_ambiguity(typed: str, symbol: str, finance: Execute) -> None:
    out = await finance("get_stock_price", {"symbol_text": typed})
    assert out["status"] == "success"
    assert out["result"]["symbol"] == symbol


@pytest.mark.parametrize(
    ("text", "company"),
    [
        ("zillow stock price", "zillow"),
        ("live nation stock price", "live nation"),
        ("Zillow stock price", "Zillow"),
    ],
)
def test_a_company_named_before_the_noun_is_the_symbol(text: str, company: str) -> None:
    # English puts the name first; the table need not list it for the quote to ask the provider
    goal = next(g for g in build_service().manifest_with_lookups().goals if g.goal == "GET_QUOTE")
    assert GoalEntityExtractor(goal).extract(text, language="en")["symbol_text"] == company
