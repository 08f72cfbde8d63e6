"""general: help, small talk and the out-of-scope answer built from the caller's catalog."""

from __future__ import annotations

import pytest

from tests.domains.conftest import Execute

CATALOG = [
    {"domain": "finance", "goal": "GET_QUOTE", "description": "Cotação de ações (stock prices)"},
    {"domain": "finance", "goal": "TOP_MOVERS", "description": "Maiores altas e baixas"},
    {"domain": "weather", "goal": "FORECAST", "description": "Previsão do tempo (weather forecast)"},
    {"domain": "general", "goal": "HELP", "description": "Ajuda"},
    {"not": "an entry"},
]


async def test_out_of_scope_lists_the_goals_it_was_given(general: Execute) -> None:
    out = await general("out_of_scope", {}, context={"catalog": CATALOG}, query="pede uma pizza pra mim")
    assert out["status"] == "success"
    assert out["metadata"]["out_of_scope"] is True
    lines = out["explanation"].splitlines()
    assert lines[0] == "Não consigo fazer isso. O que posso fazer:"
    # the person's half of each description, never a goal id or the other language
    assert lines[1:] == ["• Cotação de ações", "• Maiores altas e baixas", "• Previsão do tempo"]
    assert [g["goal"] for g in out["result"]["supported_goals"]] == ["GET_QUOTE", "TOP_MOVERS", "FORECAST"]
    assert out["result"]["query"] == "pede uma pizza pra mim"


async def test_out_of_scope_without_catalog_says_so(general: Execute) -> None:
    out = await general("out_of_scope", {}, language="en")
    assert out["explanation"].startswith("I can't do that, and I did not receive the list")
    assert out["result"]["supported_goals"] == []
    empty = await general("out_of_scope", {}, context={"catalog": []})
    assert empty["explanation"] == "Não consigo fazer isso: nenhum serviço está registrado no momento."


async def test_help_describes_the_registered_goals(general: Execute) -> None:
    out = await general("help", {}, context={"catalog": CATALOG, "language": "en"})
    assert out["explanation"].splitlines()[0].endswith("I can:")
    assert "• Weather forecast" in out["explanation"] and "FORECAST" not in out["explanation"]
    assert "• Maiores altas e baixas" in out["explanation"]  # written in one language only
    assert out["result"]["catalog_received"] is True
    unknown = await general("help", {})
    assert "não recebi a lista" in unknown["explanation"]


@pytest.mark.parametrize(
    ("query", "kind", "language", "starts"),
    [
        ("oi", "GREETING", None, "Olá!"),
        ("bom dia!", "GREETING", None, "Olá!"),
        ("muito obrigado", "THANKS", None, "De nada!"),
        ("thanks a lot", "THANKS", "en", "You're welcome!"),
        ("tchau, até mais", "GOODBYE", None, "Até mais!"),
        ("how are you?", "WELLBEING", "en", "All good here"),
    ],
)
async def test_small_talk_detects_the_kind(
    query: str, kind: str, language: str | None, starts: str, general: Execute
) -> None:
    out = await general("small_talk", {}, query=query, language=language)
    assert out["result"]["kind"] == kind
    assert out["explanation"].startswith(starts)


async def test_small_talk_trusts_the_extracted_entity(general: Execute) -> None:
    out = await general("small_talk", {"kind": "GOODBYE"}, query="...")
    assert out["result"]["kind"] == "GOODBYE"
