"""A failure's suggestion through the real gateway (``POST /v1/runs``) and a domain process: a
capability that only reads runs again with it and the answer says so; one that changes something
is not called with it until the person says yes (an approval naming the change). Over the LLM
planner (a scripted model on loopback, the only thing faked), a rewrite that adds an action that
changes something, which the person's request never led to, waits for the yes too."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.conftest import Process, gateway_over, run_turn, start_fixture_domain
from tests.planner.scripted_llm import ScriptedLlm, ToolCall, serve

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def salon() -> Iterator[Process]:
    started = start_fixture_domain("suggesting_domain")
    try:
        yield started
    finally:
        started.stop()


@pytest.fixture(scope="module")
def gateway(salon: Process, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Process]:
    with gateway_over({"salon": salon}, tmp_path_factory.mktemp("replan")) as started:
        yield started


def calls(salon: Process) -> list[list[Any]]:
    listed: list[list[Any]] = httpx.get(f"{salon.url}/calls", timeout=10).json()["calls"]
    return listed


def test_a_read_only_capability_runs_again_with_the_suggestion_and_says_so(
    gateway: Process, salon: Process
) -> None:
    before = len(calls(salon))
    done = run_turn(gateway, f"price-{uuid.uuid4().hex[:8]}", "quanto custa um corte de cabelo?")
    assert done["status"] == "completed", done
    assert done["answer"] == "Usei “BRL” para currency, como o serviço sugeriu.\nCorte: R$ 50,00."
    assert [c[1].get("currency") for c in calls(salon)[before:]] == [None, "BRL"]


def test_a_capability_that_changes_something_waits_for_a_yes_to_the_change(
    gateway: Process, salon: Process
) -> None:
    session = f"book-{uuid.uuid4().hex[:8]}"
    before = len(calls(salon))
    approval = run_turn(gateway, session, "book me a haircut")
    assert approval["status"] == "waiting_input" and approval["answer"].endswith("Go ahead? (yes/no)")
    asked = run_turn(gateway, session, "yes")
    assert asked["status"] == "waiting_input", asked
    assert asked["answer"].startswith(
        "That did not work: Esse horário está ocupado. The service suggests trying again with "
        "“10:00” for slot. Next step: "
    )
    assert [c[1].get("slot") for c in calls(salon)[before:]] == [None]  # not called with 10:00
    done = run_turn(gateway, session, "yes")
    assert done["status"] == "completed" and done["answer"] == "Corte marcado às 10:00.", done
    assert [c[1].get("slot") for c in calls(salon)[before:]] == [None, "10:00"]


def test_a_no_to_the_change_does_nothing(gateway: Process, salon: Process) -> None:
    session = f"no-{uuid.uuid4().hex[:8]}"
    before = len(calls(salon))
    run_turn(gateway, session, "quero marcar um corte")
    run_turn(gateway, session, "sim")
    declined = run_turn(gateway, session, "não")
    assert declined["status"] == "cancelled"
    assert declined["answer"] == "Tudo bem, não fiz nada. O que você gostaria de fazer?"
    assert len(calls(salon)) == before + 1


#: A price asked in dollars: the LLM plans the price in dollars, which the salon refuses.
PRICE_IN_DOLLARS = "quanto custa um corte de cabelo em dólares?"
PRICE_PLAN = {
    "steps": [{"id": 1, "domain": "salon", "capability": "haircut_price", "params": {"currency": "USD"}}],
    "combine_mode": "last",
}
#: The rewrite: the price in reais, and a booking nobody asked for (no value in it to be unsaid).
PRICE_AND_BOOKING = {
    "steps": [
        {"id": 2, "domain": "salon", "capability": "haircut_price", "params": {"currency": "BRL"}},
        {"id": 3, "domain": "salon", "capability": "book_haircut", "params": {}, "depends_on": [2]},
    ]
}


@pytest.fixture(scope="module")
def llm() -> Iterator[ScriptedLlm]:
    with serve(
        ScriptedLlm(by_text={PRICE_IN_DOLLARS: [ToolCall(PRICE_PLAN), ToolCall(PRICE_AND_BOOKING)]})
    ) as server:
        yield server
    assert server.wire_errors == []


@pytest.fixture(scope="module")
def llm_gateway(
    salon: Process, llm: ScriptedLlm, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Process]:
    env = {
        "PLANNER_LLM": "always",
        "PLANNER_LLM_BASE_URL": llm.base_url,
        "PLANNER_LLM_MODEL": "scripted-planner",
        "PLANNER_LLM_TIMEOUT_S": "10",
        # the intent layer stays embedded: only the planner asks the (scripted) model
        "LLM_BASE_URL": "",
        "LLM_MODEL": "",
    }
    with gateway_over({"salon": salon}, tmp_path_factory.mktemp("replan-llm"), env) as started:
        yield started


def test_a_rewrite_that_adds_a_booking_nobody_asked_for_waits_for_a_yes(
    llm_gateway: Process, salon: Process
) -> None:
    before = len(calls(salon))
    asked = run_turn(llm_gateway, f"added-{uuid.uuid4().hex[:8]}", PRICE_IN_DOLLARS)
    assert asked["status"] == "waiting_input", asked
    # nothing of the rewrite ran: the price in dollars alone was called, the booking never
    assert calls(salon)[before:] == [["haircut_price", {"currency": "USD"}]]
    assert any("adds steps 3" in note for note in asked["notes"]), asked["notes"]
    # the trace keeps the plan that ran and the one that waits apart
    assert [s["id"] for s in asked["plan"]["steps"]] == [1]
    assert [s["id"] for s in asked["held_plan"]["steps"]] == [1, 2, 3]
    assert asked["question"]["steps"] == [3]
    assert asked["answer"] == (
        "Não deu certo: Só cobramos em reais. Para seguir, o novo plano acrescenta o que você não pediu: "
        "marcar um corte de cabelo. Confirma? (sim/não)"
    )
    held = asked["question"]["resume"]["plan"]
    assert [(s["id"], s["capability"]) for s in held["steps"]] == [
        (1, "haircut_price"),
        (2, "haircut_price"),
        (3, "book_haircut"),
    ]
