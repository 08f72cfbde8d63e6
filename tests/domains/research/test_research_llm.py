"""LLM mode against the fake OpenAI-compatible server: the agents use their YAML prompts and the
server's ``usage``; an invalid reply falls back to the offline rules and the output says so."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from domains.research.service import ResearchDomain, build
from tests.domains.conftest import client_for
from tests.domains.research.conftest import conversation, research_settings
from tests.domains.research.fake_llm import FakeLLM


@pytest.fixture
def fake() -> FakeLLM:
    return FakeLLM()


@pytest.fixture
async def llm_research(
    tmp_path: Path, fake: FakeLLM
) -> AsyncIterator[tuple[ResearchDomain, httpx.AsyncClient]]:
    llm_http = httpx.AsyncClient(transport=httpx.ASGITransport(app=fake.app()))
    settings = research_settings(tmp_path, llm_base_url="http://llm.test/v1", llm_api_key="sk-test-secret")
    domain = build(settings, http=llm_http)
    async with client_for(domain.app) as client:
        yield domain, client
    await domain.conversations.aclose()
    await llm_http.aclose()


async def test_scenario_1_with_the_llm(
    llm_research: tuple[ResearchDomain, httpx.AsyncClient], fake: FakeLLM
) -> None:
    _, client = llm_research
    say = conversation(client, "llm-1")
    first = await say("research_start", "Método incremental é mais rápido")
    assert first["status"] == "clarification"
    assert first["metadata"]["llm"] == "configured"
    assert first["metadata"]["agent_modes"] == {
        "orchestrator": "llm",
        "structurer": "llm",
        "methodologist": "llm",
    }
    assert first["metadata"]["llm_fallbacks"] == []
    v1 = first["result"]["latest_version"]
    assert v1["question"] == "LLM: Como o método incremental afeta o tempo de entrega de software?"
    assert v1["feedback"]["status"] == "needs_refinement"
    assert [i["aspect"] for i in v1["feedback"]["improvements"]] == ["população", "métricas"]
    assert v1["mode"] == "llm" and v1["model"] == "gpt-4o-mini"
    assert "Análise feita pelo LLM gpt-4o-mini" in first["explanation"]

    # the requests carried each agent's YAML prompt, model, temperature and top_p, and the key
    agents = [FakeLLM.agent_of(r["messages"][0]["content"]) for r in fake.requests]
    assert agents == ["orchestrator", "structurer", "methodologist"]
    structurer = fake.requests[1]
    assert structurer["model"] == "gpt-4o-mini"
    assert (structurer["temperature"], structurer["top_p"]) == (0.3, 0.9)
    assert structurer["messages"][0]["content"].startswith("Você é um Estruturador")
    assert set(fake.authorizations) == {"Bearer sk-test-secret"}

    second = await say("research_reply", "em equipes de 2-5 devs, medido por sprints")
    v2 = second["result"]["latest_version"]
    assert v2["version"] == 2
    assert v2["question"] == "LLM: em equipes de 2-5 devs, medido por sprints"
    assert v2["feedback"]["status"] == "approved"
    # the structurer's second call saw the previous version and its own memory of V1
    refine_call = fake.requests[-2]
    assert "VERSÃO ANTERIOR DA QUESTÃO" in refine_call["messages"][1]["content"]
    assert "Memória recente deste agente" in refine_call["messages"][0]["content"]

    done = await say("research_reply", "aprovar")
    assert done["status"] == "success"
    assert done["result"]["final_hypothesis"]["version"] == 2

    # token counts come from the server's usage, not from the offline estimate
    events = (await client.get("/sessions/llm-1/events")).json()["events"]
    structurer_events = [e for e in events if e["role"] == "structurer"]
    assert all(e["mode"] == "llm" for e in structurer_events)
    first_prompt = fake.requests[1]["messages"]
    assert structurer_events[0]["tokens_input"] == sum(len(m["content"].split()) for m in first_prompt)


async def test_invalid_llm_reply_falls_back_to_the_rules_and_says_so(
    llm_research: tuple[ResearchDomain, httpx.AsyncClient], fake: FakeLLM
) -> None:
    fake.broken = {"methodologist"}
    _, client = llm_research
    say = conversation(client, "llm-2")
    out = await say("research_start", "Método X reduz tempo em 30% em equipes de 2-5 devs")
    assert out["status"] == "clarification"
    assert out["metadata"]["agent_modes"] == {"orchestrator": "llm", "methodologist": "offline_fallback"}
    fallbacks = out["metadata"]["llm_fallbacks"]
    assert [(f["agent"], f["reason"]) for f in fallbacks] == [
        ("methodologist", "the reply is not valid JSON")
    ]
    v1 = out["result"]["latest_version"]
    assert v1["mode"] == "offline_fallback"
    assert v1["feedback"]["status"] == "approved"  # the offline rules judged it
    assert "usei a análise por regras" in out["explanation"]
    assert "sk-test-secret" not in str(out)


async def test_unreachable_llm_falls_back(tmp_path: Path) -> None:
    def refuse(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("connection refused", request=request)

    llm_http = httpx.AsyncClient(transport=httpx.MockTransport(refuse))
    domain = build(research_settings(tmp_path, llm_base_url="http://llm.test/v1"), http=llm_http)
    async with client_for(domain.app) as client:
        out = await conversation(client, "down")("research_start", "Método incremental é mais rápido")
    await domain.conversations.aclose()
    await llm_http.aclose()
    assert out["status"] == "clarification"
    assert set(out["metadata"]["agent_modes"].values()) == {"offline_fallback"}
    assert {f["reason"] for f in out["metadata"]["llm_fallbacks"]} == {"transport error: ConnectError"}
    assert out["result"]["latest_version"]["question"] == "Como método incremental impacta a velocidade?"


async def test_llm_model_env_overrides_the_yaml_model(tmp_path: Path, fake: FakeLLM) -> None:
    llm_http = httpx.AsyncClient(transport=httpx.ASGITransport(app=fake.app()))
    settings = research_settings(tmp_path, llm_base_url="http://llm.test/v1", llm_model="local-qwen")
    domain = build(settings, http=llm_http)
    async with client_for(domain.app) as client:
        out = await conversation(client, "model")("research_start", "Método incremental é mais rápido")
    await domain.conversations.aclose()
    await llm_http.aclose()
    assert {r["model"] for r in fake.requests} == {"local-qwen"}
    assert out["result"]["latest_version"]["model"] == "local-qwen"
    assert set(fake.authorizations) == {None}  # no key configured, no Authorization header
