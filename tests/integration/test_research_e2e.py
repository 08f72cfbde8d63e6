"""The research domain's two documented scenarios (docs/research-domain.md) through the gateway's
/v1/chat/completions, offline and with an LLM.

The research domain is a real process; in LLM mode it talks to a protocol-faithful fake
OpenAI-compatible server (an outside service, so it may be faked) running in this process.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import uvicorn

from tests.conftest import Process, chat, free_port, start_domain, start_gateway, write_bootstrap
from tests.domains.research.fake_llm import FakeLLM

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def fake_llm() -> Iterator[tuple[str, FakeLLM]]:
    llm = FakeLLM()
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(llm.app(), host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}/v1", llm
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def _platform(
    tmp: Path, domains: dict[str, Process], research_env: dict[str, str]
) -> tuple[Process, Process]:
    research = start_domain(
        "research",
        {"RESEARCH_DATABASE_URL": f"sqlite+aiosqlite:///{tmp / 'research.sqlite3'}", **research_env},
    )
    urls = {n: p.url for n, p in domains.items()} | {"research": research.url}
    gateway = start_gateway(
        {
            "DATABASE_URL": f"sqlite+aiosqlite:///{tmp / 'gateway.sqlite3'}",
            "BOOTSTRAP_FILE": str(write_bootstrap(tmp / "bootstrap.json", urls)),
            "REDIS_URL": "",
            # the gateway's own intent stays embedded in both modes: only the research agents use the LLM
            "LLM_BASE_URL": "",
            "LLM_MODEL": "",
        }
    )
    return research, gateway


@pytest.fixture(scope="module", params=["offline", "llm"])
def research_platform(
    request: pytest.FixtureRequest,
    tmp_path_factory: pytest.TempPathFactory,
    domain_processes: dict[str, Process],
    fake_llm: tuple[str, FakeLLM],
) -> Iterator[tuple[str, Process]]:
    mode = request.param
    env = (
        {"LLM_BASE_URL": fake_llm[0], "LLM_MODEL": "fake-model", "LLM_API_KEY": "k"}
        if mode == "llm"
        else {
            "LLM_BASE_URL": "",
            "LLM_MODEL": "",
        }
    )
    research, gateway = _platform(tmp_path_factory.mktemp(f"research-{mode}"), domain_processes, env)
    try:
        yield mode, gateway
    finally:
        gateway.stop()
        research.stop()


#: A turn may make several (fake) LLM calls: more time than the default 30 s.
LLM_TURN_S = 60


def last_run(gateway: Process, session: str) -> dict:
    view = httpx.get(f"{gateway.url}/v1/sessions/{session}", timeout=10).json()
    run_id = view["turns"][-1]["run_id"]
    return httpx.get(f"{gateway.url}/v1/runs/{run_id}", timeout=10).json()


def test_scenario_1_vague_idea_refined_on_demand(research_platform: tuple[str, Process]) -> None:
    mode, gateway = research_platform
    session = f"research-1-{uuid.uuid4().hex[:8]}"
    first = chat(gateway, session, "Método incremental é mais rápido", LLM_TURN_S)
    run = last_run(gateway, session)
    assert run["status"] == "waiting_input" and run["steps"][0]["domain"] == "research"
    result = run["output"]["result"]
    assert result["latest_version"]["version"] == 1
    assert result["latest_version"]["feedback"]["status"] == "needs_refinement"
    assert "V1" in first
    second = chat(
        gateway,
        session,
        "Método incremental reduz tempo em 30%, medido por sprints, em equipes de 2-5 devs",
        LLM_TURN_S,
    )
    run = last_run(gateway, session)
    assert run["steps"][0]["capability"] == "research_reply"
    assert run["output"]["result"]["latest_version"]["version"] == 2
    assert run["output"]["result"]["latest_version"]["feedback"]["status"] == "approved"
    assert "V2" in second
    final = chat(gateway, session, "aprovar", LLM_TURN_S)
    run = last_run(gateway, session)
    assert run["status"] == "completed" and "V2" in final
    if mode == "llm":
        assert "LLM:" in str(run["output"])
    else:
        assert "LLM:" not in str(run["output"])


def test_scenario_2_formed_hypothesis_goes_straight_to_the_methodologist(
    research_platform: tuple[str, Process],
) -> None:
    _, gateway = research_platform
    session = f"research-2-{uuid.uuid4().hex[:8]}"
    chat(gateway, session, "Método X reduz tempo em 30% em equipes de 2-5 devs", LLM_TURN_S)
    run = last_run(gateway, session)
    latest = run["output"]["result"]["latest_version"]
    assert latest["version"] == 1 and latest["feedback"]["status"] == "approved"
    done = chat(gateway, session, "encerrar", LLM_TURN_S)
    assert last_run(gateway, session)["status"] == "completed"
    assert "V1" in done


# ------------------------------------------------------------------ issue 13: commands, fields, English


def _changes(answer: str, label: str) -> list[str]:
    """The fragments a comparison reports on its ``label`` line ("Removido: a; b" -> ["a", "b"])."""
    for line in answer.splitlines():
        if line.startswith(f"{label}: "):
            return line.removeprefix(f"{label}: ").split("; ")
    return []


def _quoted(answer: str, version: int) -> str:
    """The question of V<version> as the comparison quotes it."""
    line = next(ln for ln in answer.splitlines() if ln.startswith(f'V{version}: "'))
    return line.removeprefix(f'V{version}: "').removesuffix('"')


def _words(text: str) -> set[str]:
    return {w.strip("?.,!:;\"'").lower() for w in text.split()}


def _assert_only_real_changes(answer: str, added: str, removed: str) -> None:
    """Every reported change really happened: an added fragment's words are not all in V1, a
    removed fragment's words are not all in V2."""
    before, after = _words(_quoted(answer, 1)), _words(_quoted(answer, 2))
    for fragment in _changes(answer, added):
        assert not _words(fragment) <= before, f"{fragment!r} was already in V1"
    for fragment in _changes(answer, removed):
        assert not _words(fragment) <= after, f"{fragment!r} is still in V2"


def test_commands_inside_a_portuguese_research_session(research_platform: tuple[str, Process]) -> None:
    mode, gateway = research_platform
    session = f"research-pt-{uuid.uuid4().hex[:8]}"
    idea = "tenho uma ideia de pesquisa: café melhora a memória de curto prazo"
    first = chat(gateway, session, idea, LLM_TURN_S)
    run = last_run(gateway, session)
    assert run["steps"][0]["capability"] == "research_start" and "V1" in first
    if mode == "offline":
        # the hints fit a health idea, not the software examples
        assert "grupo placebo" in first and "devs" not in first and "sprints" not in first
    chat(gateway, session, "em estudantes universitários", LLM_TURN_S)
    assert last_run(gateway, session)["output"]["result"]["versions_count"] == 2

    listed = chat(gateway, session, "quais versões da hipótese temos?", LLM_TURN_S)
    run = last_run(gateway, session)
    assert run["steps"][0]["capability"] == "research_reply"
    assert run["output"]["result"]["versions_count"] == 2  # not appended as a third version
    assert "Versões da hipótese:" in listed
    assert "V1 (" in listed and "V2 (" in listed and "quais versões" not in listed

    compared = chat(gateway, session, "compare as versões", LLM_TURN_S)
    assert last_run(gateway, session)["output"]["result"]["versions_count"] == 2
    assert "Comparação V1 → V2:" in compared and "compare as versões" not in compared
    _assert_only_real_changes(compared, "Acrescentado", "Removido")
    if mode == "offline":
        assert _changes(compared, "Acrescentado") == ["em estudantes universitários"]
        assert "Removido" not in compared

    details = chat(gateway, session, "refinar", LLM_TURN_S)
    assert "Me diga os detalhes" in details
    assert "grupo placebo" in details and "durante 4 semanas" in details and "sprints" not in details

    restarted = chat(gateway, session, "reiniciar a pesquisa", LLM_TURN_S)
    run = last_run(gateway, session)
    assert "Pesquisa reiniciada" in restarted and "vamos refinar" not in restarted
    assert run["status"] == "waiting_input" and run["output"]["result"]["versions_count"] == 0
    # the next message is the new idea, whatever its words
    chat(gateway, session, "Exercício melhora o humor em idosos", LLM_TURN_S)
    run = last_run(gateway, session)
    assert run["steps"][0]["capability"] == "research_reply"
    assert run["output"]["result"]["latest_version"]["version"] == 1

    final = chat(gateway, session, "aprovar", LLM_TURN_S)
    run = last_run(gateway, session)
    assert run["status"] == "completed"
    assert "Hipótese final (V1" in final


def test_an_english_idea_is_research_and_its_commands_work(research_platform: tuple[str, Process]) -> None:
    mode, gateway = research_platform
    session = f"research-en-{uuid.uuid4().hex[:8]}"
    first = chat(
        gateway, session, "I have an idea: sleep deprivation reduces reaction time in drivers", LLM_TURN_S
    )
    run = last_run(gateway, session)
    assert run["intent"]["goal"] == "RESEARCH_HYPOTHESIS"
    assert run["steps"][0]["capability"] == "research_start" and run["status"] == "waiting_input"
    assert "The Methodologist assessed V1" in first
    if mode == "offline":
        assert "sleep deprivation" in first.lower() and "I have an idea" not in first
        assert "placebo" in first and "developers" not in first and "sprints" not in first

    chat(gateway, session, "in professional drivers aged 25 to 50", LLM_TURN_S)
    listed = chat(gateway, session, "what versions do we have?", LLM_TURN_S)
    run = last_run(gateway, session)
    assert run["steps"][0]["capability"] == "research_reply"
    assert run["output"]["result"]["versions_count"] == 2
    assert "Hypothesis versions:" in listed and "what versions" not in listed

    compared = chat(gateway, session, "compare the versions", LLM_TURN_S)
    assert "Comparison V1 → V2:" in compared
    _assert_only_real_changes(compared, "Added", "Removed")
    if mode == "offline":
        assert _changes(compared, "Added") == ["in professional drivers aged 25 to 50"]
        assert "Removed" not in compared

    restarted = chat(gateway, session, "restart the research", LLM_TURN_S)
    assert "Research restarted" in restarted and "refine" not in restarted.split("\n")[0].lower()
    assert last_run(gateway, session)["output"]["result"]["versions_count"] == 0

    second = chat(
        gateway, session, "help me turn this into a research hypothesis: music improves focus", LLM_TURN_S
    )
    run = last_run(gateway, session)
    assert run["output"]["result"]["latest_version"]["version"] == 1 and "V1" in second
    if mode == "offline":
        assert "To what extent does music improve focus?" in second

    final = chat(gateway, session, "approve", LLM_TURN_S)
    run = last_run(gateway, session)
    assert run["status"] == "completed"
    assert "Final hypothesis (V1" in final
