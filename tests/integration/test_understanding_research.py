"""A research request that gives no idea is asked for one (the domain names the value it still
needs), and the reply with the idea starts the hypothesis, through a real gateway and a real
research process, in Portuguese and English."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest

from tests.conftest import Process, gateway_over, run_turn, start_domain

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def gateway(
    domain_processes: dict[str, Process], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Process]:
    work = tmp_path_factory.mktemp("understanding-research")
    research = start_domain(
        "research",
        {
            "RESEARCH_DATABASE_URL": f"sqlite+aiosqlite:///{work / 'research.sqlite3'}",
            "LLM_BASE_URL": "",
            "LLM_MODEL": "",
        },
    )
    try:
        with gateway_over({**domain_processes, "research": research}, work) as running:
            yield running
    finally:
        research.stop()


@pytest.mark.parametrize(
    ("request_text", "idea"),
    [
        ("quero testar uma hipótese", "café melhora a memória de estudantes universitários"),
        ("I want to test a hypothesis", "caffeine improves memory in university students"),
    ],
)
def test_a_request_without_an_idea_is_asked_for_it(gateway: Process, request_text: str, idea: str) -> None:
    session = f"idea-{uuid.uuid4().hex[:10]}"
    asked = run_turn(gateway, session, request_text)
    assert asked["status"] == "waiting_input", asked["answer"]
    resume = asked["question"]["resume"]
    assert resume["param"] == "idea_text"  # the domain asked for the idea, it did not answer
    assert resume["continue_with"] is not None  # and the conversation stays with it

    started = run_turn(gateway, session, idea)
    question = started["question"]
    assert question is not None and question["resume"]["param"] is None, started["answer"]
    assert "V1" in started["answer"] and idea.split()[0] in started["answer"].lower()


def test_an_idea_is_answered_not_asked_for(gateway: Process) -> None:
    run = run_turn(gateway, f"idea-{uuid.uuid4().hex[:10]}", "hipótese: café melhora a memória de estudantes")
    assert run["question"]["resume"]["param"] is None, run["answer"]
    assert "V1" in run["answer"]
