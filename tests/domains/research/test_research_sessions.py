"""Per-agent memory, event ids, snapshots, reset, versions, and the facilitator's other options."""

from __future__ import annotations

import re
from pathlib import Path

import httpx

from domains.research.service import ResearchDomain, build
from tests.domains.conftest import client_for
from tests.domains.research.conftest import conversation, copy_agents, research_settings

IDEA = "Método incremental é mais rápido"


def _set_window(agents_dir: Path, role: str, window: int) -> None:
    path = agents_dir / f"{role}.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(re.sub(r"memory_window: \d+", f"memory_window: {window}", text), encoding="utf-8")


async def test_memory_window_trims_and_snapshot_has_the_documented_shape(tmp_path: Path) -> None:
    agents_dir = copy_agents(tmp_path)
    _set_window(agents_dir, "orchestrator", 2)
    domain = build(research_settings(tmp_path, research_agents_dir=agents_dir))
    async with client_for(domain.app) as client:
        say = conversation(client, "mem")
        await say("research_start", IDEA)  # orchestrator: evt-0001 (classify), evt-0004 (present)
        await say("research_reply", "pesquisar")  # orchestrator: evt-0005
        await say("research_reply", "listar versões")  # orchestrator: evt-0006

        snap = (await client.get("/sessions/mem/snapshot")).json()
        assert set(snap) == {"session_id", "updated_at", "agents"}
        assert snap["session_id"] == "mem"
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", snap["updated_at"])
        orchestrator = snap["agents"]["orchestrator"]
        assert [e["event_id"] for e in orchestrator] == ["evt-0005", "evt-0006"]  # window of 2
        assert [e["event_id"] for e in snap["agents"]["structurer"]] == ["evt-0002"]
        assert [e["event_id"] for e in snap["agents"]["methodologist"]] == ["evt-0003"]
        for entries in snap["agents"].values():
            for entry in entries:
                assert set(entry) == {"event_id", "summary", "tokens_total"}
        methodologist = snap["agents"]["methodologist"][0]
        # the YAML summary_template "V{version} {status}: {question}"
        assert (
            methodologist["summary"] == "V1 needs_refinement: Como método incremental impacta a velocidade?"
        )
        assert methodologist["tokens_total"] > 0

        # the emitted history keeps everything, with per-event token counts
        events = (await client.get("/sessions/mem/events")).json()["events"]
        assert [e["event_id"] for e in events] == [f"evt-{i:04d}" for i in range(1, 7)]
        assert {e["role"] for e in events} == {"orchestrator", "structurer", "methodologist"}
        for e in events:
            assert e["tokens_total"] == e["tokens_input"] + e["tokens_output"]
        assert {e["mode"] for e in events if e["role"] != "orchestrator"} == {"offline"}
    await domain.conversations.aclose()


async def test_reset_clears_state_and_memory_but_keeps_history(
    research: tuple[ResearchDomain, httpx.AsyncClient],
) -> None:
    _, client = research
    say = conversation(client, "rst")
    await say("research_start", IDEA)
    assert (await client.get("/sessions/rst/snapshot")).json()["agents"]

    out = await say("research_reset")
    assert out["status"] == "success"
    assert out["result"]["events_kept"] == 4
    snap = (await client.get("/sessions/rst/snapshot")).json()
    assert snap["agents"] == {}
    # the active conversation is gone...
    gone = await say("research_reply", "aprovar")
    assert gone["failure"]["reason"] == "no_active_conversation"
    listed = await say("research_versions")
    assert listed["result"]["versions_count"] == 0
    # ...the history is not, and event ids keep counting (never reused)
    again = await say("research_start", "Método X reduz tempo em 30% em equipes de 2-5 devs")
    assert again["metadata"]["events"][0] == "evt-0005"
    assert again["result"]["latest_version"]["version"] == 1
    events = (await client.get("/sessions/rst/events")).json()
    assert events["count"] == 7
    assert [e["generation"] for e in events["events"]] == [1, 1, 1, 1, 2, 2, 2]

    # DELETE /sessions/{id} is the same reset
    body = (await client.delete("/sessions/rst")).json()
    assert body["generation"] == 3 and body["events_kept"] == 7
    assert (await client.get("/sessions/rst/snapshot")).json()["agents"] == {}


async def test_versions_list_and_compare(research: tuple[ResearchDomain, httpx.AsyncClient]) -> None:
    _, client = research
    say = conversation(client, "ver")
    await say("research_start", IDEA)
    await say("research_reply", "em equipes de 2-5 devs")  # V2: still missing metric/comparison/effect
    await say(
        "research_reply", "Método incremental reduz tempo em 30%, medido por sprints, em equipes de 2-5 devs"
    )

    listed = await say("research_versions", "listar versões")
    assert listed["status"] == "success"
    assert [v["version"] for v in listed["result"]["versions"]] == [1, 2, 3]
    assert [v["feedback"]["status"] for v in listed["result"]["versions"]] == [
        "needs_refinement",
        "needs_refinement",
        "approved",
    ]
    assert (
        'V1 (precisa de refinamento): "Como método incremental impacta a velocidade?"'
        in listed["explanation"]
    )

    diff = (await say("research_versions", "comparar v1 e v2"))["result"]["diff"]
    assert diff["status"] == {"from": "needs_refinement", "to": "needs_refinement"}
    assert diff["resolved_aspects"] == ["população"]
    assert "métricas" in diff["remaining_aspects"]
    # a word-level diff of the questions: only the words that really changed (the "?" that moved
    # after the new words is no removal of "velocidade")
    assert diff["question"]["removed"] == []
    assert diff["question"]["added"] == ["em equipes de 2-5 devs"]

    by_params = await say("research_versions", a=1, b=3)
    assert by_params["result"]["diff"]["status"] == {"from": "needs_refinement", "to": "approved"}
    assert "Comparação V1 → V3" in by_params["explanation"]
    # the versions as people write them, in the message or in the entity alone
    for words, params in [
        ("compare versions 2 and 3 of my hypothesis", {}),
        ("compare versions 2 and 3 of my hypothesis", {"versions_text": "2 and 3"}),
        ("diferença entre as versões 2 e 3", {}),
    ]:
        compared = await say("research_versions", words, **params)
        assert "V2 → V3" in compared["explanation"], words
    missing = await say("research_versions", a=1, b=9)
    assert missing["status"] == "failure" and missing["failure"]["reason"] == "version_not_found"

    # the same commands work as answers inside the conversation, which then keeps waiting
    inline = await say("research_reply", "comparar v2 e v3")
    assert inline["status"] == "clarification"
    assert "Comparação V2 → V3" in inline["explanation"]
    assert "Lacunas resolvidas: métricas, comparação, efeito" in inline["explanation"]
    assert inline["result"]["versions_count"] == 3


async def test_research_option_is_honest_and_new_idea_restarts(
    research: tuple[ResearchDomain, httpx.AsyncClient],
) -> None:
    _, client = research
    say = conversation(client, "opt")
    await say("research_start", IDEA)
    lit = await say("research_reply", "pesquisar")
    assert lit["status"] == "clarification"
    assert "não está disponível" in lit["explanation"]
    assert lit["result"]["versions_count"] == 1  # state kept

    ask = await say("research_reply", "nova ideia")
    assert ask["result"]["stage"] == "awaiting_idea"
    assert "Qual é a nova ideia?" in ask["explanation"]
    new = await say("research_reply", "Método X reduz tempo em 30% em equipes de 2-5 devs")
    assert new["result"]["versions_count"] == 1
    assert new["result"]["latest_version"]["question"] == "Método X reduz tempo em 30% em equipes de 2-5 devs"

    direct = await say("research_reply", "mudar de direção: TDD melhora a qualidade do código")
    assert direct["result"]["latest_version"]["version"] == 1
    assert direct["result"]["latest_version"]["question"].startswith("Em que medida TDD melhora")


async def test_help_request_without_an_idea_asks_for_it(
    research: tuple[ResearchDomain, httpx.AsyncClient],
) -> None:
    _, client = research
    say = conversation(client, "meta")
    first = await say("research_start", "quero testar uma hipótese")
    assert first["status"] == "clarification"
    assert first["result"]["stage"] == "awaiting_idea"
    assert first["result"]["versions_count"] == 0
    assert "Me conta a sua ideia" in first["explanation"]
    # a start while waiting is the answer (a re-classified reply must not lose the conversation)
    idea = await say("research_start", IDEA)
    assert idea["metadata"]["continued"] is True
    assert idea["result"]["latest_version"]["version"] == 1


async def test_a_new_conversation_after_a_finished_one_starts_clean(
    research: tuple[ResearchDomain, httpx.AsyncClient],
) -> None:
    _, client = research
    say = conversation(client, "twice")
    await say("research_start", "Método X reduz tempo em 30% em equipes de 2-5 devs")
    await say("research_reply", "encerrar")
    again = await say("research_start", IDEA)
    assert again["metadata"]["continued"] is False
    assert again["result"]["latest_version"]["version"] == 1
    assert again["metadata"]["events"][0] == "evt-0005"
