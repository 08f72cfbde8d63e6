"""Scenarios 1 and 2 of docs/research-domain.md through the SDK app, offline (rule-based agents)."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from domains.research.service import CONTINUE_WITH, ResearchDomain, build
from tests.domains.conftest import client_for
from tests.domains.research.conftest import conversation, research_settings

REFINEMENT = "Método incremental reduz tempo em 30%, medido por sprints, em equipes de 2-5 devs"


async def test_scenario_1_vague_idea_refined_to_an_approved_v2(
    research: tuple[ResearchDomain, httpx.AsyncClient],
) -> None:
    _, client = research
    say = conversation(client, "sess-1")

    first = await say("research_start", "Método incremental é mais rápido")
    assert first["status"] == "clarification"
    assert first["clarification"]["continue_with"] == CONTINUE_WITH.model_dump()
    assert first["clarification"]["options"] == [] and first["clarification"]["param"] is None
    assert first["clarification"]["question"] == first["explanation"]
    assert first["result"]["maturity"] == "vague"
    v1 = first["result"]["latest_version"]
    assert v1["version"] == 1 and v1["source"] == "structurer"
    assert v1["question"] == "Como método incremental impacta a velocidade?"
    assert v1["feedback"]["status"] == "needs_refinement"
    aspects = [i["aspect"] for i in v1["feedback"]["improvements"]]
    assert "população" in aspects and "métricas" in aspects
    assert first["result"]["versions_count"] == 1
    # orchestrator classified, structurer wrote V1, methodologist judged, orchestrator presented
    assert first["metadata"]["events"] == ["evt-0001", "evt-0002", "evt-0003", "evt-0004"]
    assert first["metadata"]["event_id"] == "evt-0004"
    text = first["explanation"]
    assert "precisa de refinamento" in text and "população" in text
    assert "Análise por regras" in text  # honest about being rule-based
    assert "refinar" in text and "pesquisar" in text and "nova ideia" in text and "encerrar" in text

    second = await say("research_reply", REFINEMENT)
    assert second["status"] == "clarification"
    v2 = second["result"]["latest_version"]
    assert v2["version"] == 2
    assert v2["question"] == REFINEMENT
    assert v2["feedback"] == {"status": "approved", "improvements": []}
    assert second["result"]["versions_count"] == 2
    assert second["metadata"]["events"][0] == "evt-0005"

    done = await say("research_reply", "aprovar")
    assert done["status"] == "success"
    final = done["result"]["final_hypothesis"]
    assert final["version"] == 2 and final["question"] == REFINEMENT
    assert [v["feedback"]["status"] for v in done["result"]["versions"]] == ["needs_refinement", "approved"]
    assert "Hipótese final (V2, aprovada)" in done["explanation"]
    assert "V1 (precisa de refinamento) → V2 (aprovada)" in done["explanation"]
    assert done["clarification"] is None

    # the conversation is over: a stray reply is refused, not silently turned into a new idea
    stray = await say("research_reply", "mais uma coisa")
    assert stray["status"] == "failure"
    assert stray["failure"]["reason"] == "no_active_conversation"


async def test_scenario_2_formed_hypothesis_goes_straight_to_the_methodologist(
    research: tuple[ResearchDomain, httpx.AsyncClient],
) -> None:
    _, client = research
    say = conversation(client, "sess-2")
    out = await say("research_start", "Método X reduz tempo em 30% em equipes de 2-5 devs")
    assert out["status"] == "clarification"
    assert out["result"]["maturity"] in {"semi_formed", "complete"}
    v1 = out["result"]["latest_version"]
    assert v1["source"] == "person"  # no structurer on this path
    assert v1["question"] == "Método X reduz tempo em 30% em equipes de 2-5 devs"
    assert v1["feedback"]["status"] == "approved"
    # orchestrator classify, methodologist, orchestrator present: no structurer event
    assert out["metadata"]["events"] == ["evt-0001", "evt-0002", "evt-0003"]
    done = await say("research_reply", "encerrar")
    assert done["status"] == "success"
    assert done["result"]["final_hypothesis"]["question"] == v1["question"]


async def test_semi_formed_hypothesis_gets_a_precise_gap(
    research: tuple[ResearchDomain, httpx.AsyncClient],
) -> None:
    _, client = research
    say = conversation(client, "sess-gap")
    out = await say("research_start", "Método X reduz tempo em 30% comparado ao cascata")
    assert out["result"]["maturity"] == "semi_formed"
    feedback = out["result"]["latest_version"]["feedback"]
    assert feedback["status"] == "needs_refinement"
    assert [i["aspect"] for i in feedback["improvements"]] == ["população"]
    assert "Quem você quer estudar?" not in out["explanation"]  # questions come with "refinar"
    ask = await say("research_reply", "refinar")
    assert ask["status"] == "clarification"
    assert "Quem você quer estudar?" in ask["explanation"]
    assert ask["result"]["versions_count"] == 1  # asking for details makes no version
    more = await say("research_reply", "em equipes de 2-5 devs")
    v2 = more["result"]["latest_version"]
    assert v2["version"] == 2
    assert v2["question"].endswith("em equipes de 2-5 devs?")
    assert v2["feedback"]["status"] == "approved"


@pytest.mark.parametrize(
    ("idea", "question", "aspects"),
    [
        (
            "Tenho uma ideia: café melhora a memória de curto prazo em estudantes",
            "Café melhora a memória de curto prazo em estudantes",
            ["métricas", "comparação"],
        ),
        (
            "I have an idea: coffee improves short-term memory in students",
            "Coffee improves short-term memory in students",
            ["metrics", "comparison"],
        ),
    ],
)
async def test_a_lead_in_is_dropped_and_the_sentence_gives_the_variables(
    research: tuple[ResearchDomain, httpx.AsyncClient], idea: str, question: str, aspects: list[str]
) -> None:
    _, client = research
    out = await conversation(client, f"sess-lead-{len(idea)}")("research_start", idea)
    # what acts (coffee) and what changes (memory) are read off the sentence, not a word list:
    # with the population and the effect that is three elements, so the idea is already a
    # hypothesis (semi-formed goes straight to the methodologist), lead-in dropped
    assert out["result"]["maturity"] == "semi_formed"
    v1 = out["result"]["latest_version"]
    assert v1["question"] == question
    assert [i["aspect"] for i in v1["feedback"]["improvements"]] == aspects


async def test_english_conversation_is_answered_in_english(
    research: tuple[ResearchDomain, httpx.AsyncClient],
) -> None:
    _, client = research
    say = conversation(client, "sess-en")
    out = await say("research_start", "Pair programming is faster")
    v1 = out["result"]["latest_version"]
    assert v1["question"] == "How does pair programming affect speed?"
    aspects = [i["aspect"] for i in v1["feedback"]["improvements"]]
    assert aspects == ["population", "metrics", "comparison", "effect"]
    assert "Rule-based analysis" in out["explanation"]
    assert "What would you like to do now?" in out["explanation"]


@pytest.mark.postgres
async def test_scenario_2_on_postgresql(pg_database_url: str, tmp_path: Path) -> None:
    domain = build(research_settings(tmp_path, research_database_url=pg_database_url))
    async with client_for(domain.app) as client:
        say = conversation(client, "pg-2")
        out = await say("research_start", "Método X reduz tempo em 30% em equipes de 2-5 devs")
        assert out["result"]["latest_version"]["feedback"]["status"] == "approved"
        done = await say("research_reply", "encerrar")
        assert done["status"] == "success"
        snap = (await client.get("/sessions/pg-2/snapshot")).json()
        assert [e["event_id"] for e in snap["agents"]["methodologist"]] == ["evt-0002"]
    await domain.conversations.aclose()
