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
