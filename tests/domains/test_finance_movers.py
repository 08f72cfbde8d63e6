"""get_top_gainers / get_top_losers by market, and BOTH through the manifest's capability_map."""

from __future__ import annotations

import httpx
import pytest

from shared.manifest import validate_manifest
from tests.domains.conftest import Execute


@pytest.mark.parametrize(
    ("market_text", "code"), [("Brasil", "BR"), ("B3", "BR"), ("na bolsa brasileira", "BR")]
)
async def test_gainers_of_one_market_sorted_desc(market_text: str, code: str, finance: Execute) -> None:
    out = await finance("get_top_gainers", {"market_text": market_text})
    assert out["status"] == "success"
    movers = out["result"]["movers"]
    assert [m["symbol"] for m in movers] == ["MGLU3.SA", "PETR4.SA", "ITUB4.SA", "ABEV3.SA"]
    assert all(m["market"] == code and m["change_pct"] > 0 for m in movers)
    context = out["result"]["_market_context"]
    assert (context["market"], context["exchange"], context["currency"]) == ("BR", "B3", "BRL")
    assert context["as_of"] == "2026-11-20" and context["source"] == "sample_snapshot"
    assert out["explanation"].startswith("Maiores altas — Brasil (B3) — dados de amostra de 2026-11-20:")
    assert "1. Magazine Luiza (MGLU3.SA): 9,87 BRL, +4,12%" in out["explanation"]


@pytest.mark.parametrize("market_text", ["EUA", "US", "Estados Unidos"])
async def test_losers_of_the_us_sorted_asc(market_text: str, finance: Execute) -> None:
    out = await finance("get_top_losers", {"market_text": market_text})
    movers = out["result"]["movers"]
    assert [m["symbol"] for m in movers] == ["NVDA", "AMZN", "MSFT"]
    assert all(m["change_pct"] < 0 for m in movers)


async def test_without_market_all_markets_top_five(finance: Execute) -> None:
    out = await finance("get_top_gainers", {})
    movers = out["result"]["movers"]
    assert len(movers) == 5
    changes = [m["change_pct"] for m in movers]
    assert changes == sorted(changes, reverse=True)
    assert movers[0]["symbol"] == "MGLU3.SA" and movers[1]["symbol"] == "TSLA"
    assert out["result"]["markets"] == ["BR", "US", "SE", "FI"]
    assert out["result"]["_market_context"]["market"] == "multiple"


async def test_english_sweden(finance: Execute) -> None:
    out = await finance("get_top_losers", {"market_text": "Sweden"}, language="en")
    assert out["explanation"].splitlines() == [
        "Top losers — Sweden (Nasdaq Stockholm) — sample data from 2026-11-20:",
        "1. Ericsson (ERIC-B.ST): 86.34 SEK, -1.25%",
    ]


async def test_unknown_market_is_a_failure_listing_known_ones(finance: Execute) -> None:
    out = await finance("get_top_gainers", {"market_text": "Marte"})
    assert out["status"] == "failure"
    assert out["failure"] == {"reason": "unknown_market", "recoverable": True, "suggestions": []}
    assert "Brasil" in out["explanation"] and "Suécia" in out["explanation"]


async def test_both_runs_each_capability_of_the_map(
    finance_client: httpx.AsyncClient, finance: Execute
) -> None:
    """BOTH resolves (in the core, from the manifest) to two capabilities: each answers its half."""
    manifest = validate_manifest((await finance_client.get("/manifest")).json())
    goal = next(g for g in manifest.goals if g.goal == "TOP_MOVERS")
    capability_map = goal.entities_schema["direction"].capability_map
    assert capability_map is not None
    both = capability_map["BOTH"]
    assert isinstance(both, list)
    outputs = [await finance(cap, {"direction": "BOTH", "market_text": "Finlândia"}) for cap in both]
    assert [o["result"]["direction"] for o in outputs] == ["GAINERS", "LOSERS"]
    assert [[m["symbol"] for m in o["result"]["movers"]] for o in outputs] == [["NDA-FI.HE"], ["NOKIA.HE"]]


async def test_limit_is_respected(finance: Execute) -> None:
    out = await finance("get_top_losers", {"limit": 2})
    assert len(out["result"]["movers"]) == 2


def test_markets_are_a_lookup_table_the_extractor_reads() -> None:
    """The markets' names people use, served as ``market_text``'s table: a phrase of several words
    ("bolsa brasileira", "brazilian market") is read whole as the market, in both languages, and a
    two-letter code is no table value (inside a sentence "se" and "us" are ordinary words)."""
    from domains.finance.service import build_service
    from intent.embedded import EmbeddedIntentAdapter
    from shared.catalog import Catalog

    manifest = build_service().manifest_with_lookups()
    movers = next(g for g in manifest.goals if g.goal == "TOP_MOVERS")
    table = {alias for entry in movers.entities_schema["market_text"].lookup or [] for alias in entry.aliases}
    assert {"bolsa brasileira", "brazilian market", "mercado americano"} <= table
    assert not {"se", "us", "fi", "br"} & table
    adapter = EmbeddedIntentAdapter(Catalog([manifest]), use_embeddings=False)
    for text, market in [
        ("quais ações mais subiram hoje na bolsa brasileira?", "bolsa brasileira"),
        ("biggest losers on the brazilian market today", "brazilian market"),
    ]:
        out = adapter.parse_sync(text)
        assert out.goal == "TOP_MOVERS", out
        assert out.entities.get("market_text") == market, out.entities


def test_everyday_phrasings_of_a_quote_and_of_movers() -> None:
    """ "How is <company> doing" is a quote in English, and a verb of the direction's in another
    tense ("desvalorizou", "valorizou") names it."""
    from domains.finance.service import build_service
    from intent.embedded import EmbeddedIntentAdapter
    from shared.catalog import Catalog

    adapter = EmbeddedIntentAdapter(Catalog([build_service().manifest_with_lookups()]), use_embeddings=False)
    quote = adapter.parse_sync("how is microsoft doing today?")
    assert (quote.goal, quote.entities.get("symbol_text")) == ("GET_QUOTE", "microsoft"), quote
    for text, direction in [
        ("mercado americano: quem mais desvalorizou hoje?", "LOSERS"),
        ("qual ação mais valorizou na b3?", "GAINERS"),
    ]:
        out = adapter.parse_sync(text)
        assert (out.goal, out.entities.get("direction")) == ("TOP_MOVERS", direction), out
