"""The LLM planner through a real gateway: the four example requests of issue 26, in Portuguese
and English, planned by a model whose answers were recorded (tests/integration/recordings/
llm_planner.json) and replayed by a scripted OpenAI-compatible server on loopback (the one faked
part: a third-party API), run against the real finance, notifier and research domains.

The notifier's send is gated (``DOMAIN_CONFIRM_CAPABILITIES``): an LLM plan that sends waits for
the person's yes exactly as a deterministic one does.
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.conftest import Process, gateway_over, reserve_port, run_turn, start_domain
from tests.planner.scripted_llm import ScriptedLlm, ToolCall, serve
from tests.ui.conftest import browser  # noqa: F401  (the headless Chromium fixture)
from tests.ui.test_inspector_browser import Page

pytestmark = pytest.mark.integration

RECORDED: dict[str, Any] = json.loads(
    (Path(__file__).with_name("recordings") / "llm_planner.json").read_text(encoding="utf-8")
)
REQUESTS = [text for text in RECORDED if not text.startswith("_")]
COMPARE_PT, COMPARE_EN, IF_PT, IF_EN, TOP_PT, TOP_EN, IDEA_PT, IDEA_EN = REQUESTS
API_KEY = "sk-planner-secret-0123456789"


#: A request the model keeps planning with a capability no domain offers.
BUY_PT = "se a Vale cair mais de 2%, compra 100 ações dela"
BUY = {
    "steps": [{"id": 1, "domain": "finance", "capability": "buy_stock", "params": {"symbol_text": "Vale"}}]
}


#: A plan whose first quote names a ticker the finance domain does not have (a recoverable
#: failure), and the model's rewrite once it has seen that failure: the company by its name.
TYPO_EN = "compare VALE5 with Petrobras"
TYPO_PLAN = {
    "steps": [
        {"id": 1, "domain": "finance", "capability": "get_stock_price", "params": {"symbol": "VALE5"}},
        {
            "id": 2,
            "domain": "finance",
            "capability": "get_stock_price",
            "params": {"symbol_text": "Petrobras"},
        },
    ],
    "combine_mode": "report",
}
TYPO_REWRITE = {
    "steps": [
        {"id": 3, "domain": "finance", "capability": "get_stock_price", "params": {"symbol_text": "Vale"}}
    ]
}


@pytest.fixture(scope="module")
def llm() -> Iterator[ScriptedLlm]:
    script = ScriptedLlm(by_text={text: [ToolCall(RECORDED[text])] for text in REQUESTS})
    script.by_text[BUY_PT] = [ToolCall(BUY)]
    script.by_text[TYPO_EN] = [ToolCall(TYPO_PLAN), ToolCall(TYPO_REWRITE)]
    with serve(script) as server:
        yield server
    assert server.wire_errors == []


@pytest.fixture(scope="module")
def domains(
    tmp_path_factory: pytest.TempPathFactory, domain_processes: dict[str, Process]
) -> Iterator[dict[str, Process]]:
    data = tmp_path_factory.mktemp("llm-planner-domains")
    notifier = start_domain(
        "notifier", {"NOTIFIER_OUTBOX_PATH": str(data / "outbox.sqlite3"), "TELEGRAM_BOT_TOKEN": ""}
    )
    research = start_domain(
        "research",
        {
            "RESEARCH_DATABASE_URL": f"sqlite+aiosqlite:///{data / 'research.sqlite3'}",
            "LLM_BASE_URL": "",
            "LLM_MODEL": "",
        },
    )
    try:
        yield {**domain_processes, "notifier": notifier, "research": research}
    finally:
        research.stop()
        notifier.stop()


@pytest.fixture(scope="module")
def gateway(
    domains: dict[str, Process], llm: ScriptedLlm, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Process]:
    env = {
        "DOMAIN_CONFIRM_CAPABILITIES": "notifier.send_telegram_message",
        "PLANNER_LLM": "fallback",
        "PLANNER_LLM_BASE_URL": llm.base_url,
        "PLANNER_LLM_MODEL": "recorded-planner",
        "PLANNER_LLM_API_KEY": API_KEY,
        "PLANNER_LLM_TIMEOUT_S": "10",
        # the intent layer stays embedded: only the planner asks the (scripted) model
        "LLM_BASE_URL": "",
        "LLM_MODEL": "",
    }
    with gateway_over(domains, tmp_path_factory.mktemp("llm-planner"), env) as started:
        yield started


def outbox(notifier: Process) -> list[dict[str, Any]]:
    messages: list[dict[str, Any]] = httpx.get(f"{notifier.url}/outbox", timeout=10).json()["messages"]
    return messages


def session() -> str:
    return f"llm-plan-{uuid.uuid4().hex[:8]}"


@pytest.mark.parametrize(
    ("text", "yes", "sent"),
    [(COMPARE_PT, "sim", "A que mais subiu hoje: "), (COMPARE_EN, "yes", "Top riser today: ")],
)
def test_compare_two_and_send_the_one_that_rose_most_after_the_yes(
    gateway: Process, domains: dict[str, Process], text: str, yes: str, sent: str
) -> None:
    notifier = domains["notifier"]
    before = len(outbox(notifier))
    chat = session()
    asked = run_turn(gateway, chat, text)
    assert asked["status"] == "waiting_input", asked
    assert asked["question"]["kind"] == "approval"
    assert asked["plan"]["planner"] == "llm" and not asked["steps"]  # nothing ran before the yes
    assert "${" not in asked["answer"]  # the question names what the message is made of
    assert len(outbox(notifier)) == before
    done = run_turn(gateway, chat, yes)
    assert done["status"] == "completed", done
    assert [s["capability"] for s in done["steps"]] == [
        "get_stock_price",
        "get_stock_price",
        "send_telegram_message",
    ]
    quotes = [s["output"]["result"] for s in done["steps"][:2]]
    best = max(quotes, key=lambda q: q["change_pct"])
    message = outbox(notifier)[-1]["message"]
    assert message == f"{sent}{best['name']} ({best['change_pct']}%)"
    assert len(outbox(notifier)) == before + 1


@pytest.mark.parametrize("text", [IF_PT, IF_EN])
def test_a_condition_that_does_not_hold_skips_its_step_with_the_reason(gateway: Process, text: str) -> None:
    run = run_turn(gateway, session(), text)
    assert run["status"] == "completed", run
    assert run["plan"]["planner"] == "llm"
    assert run["plan"]["steps"][1]["when"] == "step1.result.price < `200`"
    apple, microsoft = run["steps"]
    assert apple["status"] == "completed" and apple["output"]["result"]["price"] >= 200
    assert microsoft["status"] == "skipped"
    assert microsoft["skipped_by_condition"].startswith("condition 'step1.result.price < `200`' is false")
    assert "Apple" in run["answer"] and "Microsoft" not in run["answer"]


@pytest.mark.parametrize("text", [TOP_PT, TOP_EN])
def test_the_top_three_then_a_quote_for_each(gateway: Process, text: str) -> None:
    run = run_turn(gateway, session(), text)
    assert run["status"] == "completed", run
    movers = run["steps"][0]["output"]["result"]["movers"]
    assert len(movers) == 3
    quoted = [s["params"]["symbol"] for s in run["steps"][1:]]
    assert quoted == [m["symbol"] for m in movers]
    assert all(s["status"] == "completed" for s in run["steps"])
    assert [s["output"]["result"]["symbol"] for s in run["steps"][1:]] == quoted


@pytest.mark.parametrize(
    ("text", "yes", "refinement", "done", "sent"),
    [
        (IDEA_PT, "sim", "em equipes de 2 a 5 desenvolvedores", "aprovar", "Hipótese final: "),
        (IDEA_EN, "yes", "in teams of 2 to 5 developers", "approve", "Final hypothesis: "),
    ],
)
def test_a_research_idea_then_the_final_hypothesis_is_sent_when_the_conversation_ends(
    gateway: Process,
    domains: dict[str, Process],
    text: str,
    yes: str,
    refinement: str,
    done: str,
    sent: str,
) -> None:
    """The research domain answers with a question (its conversation goes on): the send that
    needs the final hypothesis waits, pending, through every turn of that conversation, and runs
    once the conversation ends, with the final answer the reference ``${1.explanation}`` reads."""
    notifier = domains["notifier"]
    before = len(outbox(notifier))
    chat = session()
    asked = run_turn(gateway, chat, text)
    assert asked["question"]["kind"] == "approval"
    assert asked["plan"]["planner"] == "llm"
    run = run_turn(gateway, chat, yes)
    assert run["status"] == "waiting_input", run
    assert [s["capability"] for s in run["steps"]] == ["research_start", "send_telegram_message"]
    assert [s["status"] for s in run["steps"]] == ["waiting_input", "pending"]
    # a turn of the conversation that does not end it: the send still waits
    refined = run_turn(gateway, chat, refinement)
    assert refined["status"] == "waiting_input", refined
    assert refined["question"]["kind"] == "domain_clarification"  # the domain's, not a second approval
    assert [(s["capability"], s["status"]) for s in refined["steps"]] == [
        ("research_reply", "waiting_input"),
        ("send_telegram_message", "pending"),
    ]
    assert refined["output"]["result"]["versions_count"] == 2
    assert len(outbox(notifier)) == before
    finished = run_turn(gateway, chat, done)
    assert finished["status"] == "completed", finished
    assert finished["question"] is None  # approved with the plan: not asked again
    assert [(s["capability"], s["status"]) for s in finished["steps"]] == [
        ("research_reply", "completed"),
        ("send_telegram_message", "completed"),
    ]
    final = finished["steps"][0]["output"]
    hypothesis = final["result"]["final_hypothesis"]
    assert hypothesis["version"] == 2
    assert len(outbox(notifier)) == before + 1
    message = outbox(notifier)[-1]["message"]
    assert message == f"{sent}{final['explanation']}"
    assert hypothesis["question"] in message
    assert finished["plan"]["planner"] == "llm"


def test_the_trace_says_which_planner_planned_and_keeps_the_raw_answer(
    gateway: Process, llm: ScriptedLlm
) -> None:
    run = run_turn(gateway, session(), IF_EN)
    plan = run["plan"]
    assert plan["notes"][0].startswith("planned by the llm planner (recorded-planner): the request asks for")
    (call,) = plan["llm_calls"]
    assert call["purpose"] == "plan" and call["model"] == "recorded-planner" and call["errors"] == []
    assert json.loads(call["raw"]) == RECORDED[IF_EN]
    # the key reached the endpoint, never the trace
    assert API_KEY not in json.dumps(run)
    assert any("tools" in r for r in llm.requests)


def test_a_plain_request_is_planned_deterministically_with_no_llm_call(
    gateway: Process, llm: ScriptedLlm
) -> None:
    calls = len(llm.requests)
    run = run_turn(gateway, session(), "qual a cotação da Petrobras?")
    assert run["status"] == "completed"
    assert run["plan"] is None or run["plan"]["planner"] == "deterministic"
    assert len(llm.requests) == calls


def test_the_inspector_draws_a_step_its_condition_skipped(gateway: Process, browser: Any) -> None:  # noqa: F811
    """The run inspector's DAG (headless Chromium): the skipped step says why, on the node."""
    run = run_turn(gateway, session(), IF_PT)
    page = Page(browser, gateway)
    page.open(f"/runs/{run['run_id']}", "runs")
    page.until(lambda: len(page.all("svg.dag g.dag-node")) == 2, "the plan's two nodes")
    skipped = page.one('svg.dag g.dag-node[data-step-id="2"]')
    assert skipped.get_attribute("data-status") == "skipped"
    assert skipped.get_attribute("data-when") == "step1.result.price < `200`"
    assert skipped.get_attribute("data-skipped-by-condition").startswith("condition 'step1.result.price")
    assert "skipped: condition false" in skipped.text
    assert "if step1.result.price" in skipped.text
    # the edge the condition reads is drawn
    assert [e.get_attribute("data-from") for e in page.all("svg.dag .dag-edge")] == ["1"]


def test_a_plan_that_stays_invalid_is_refused_with_nothing_run(gateway: Process, llm: ScriptedLlm) -> None:
    calls = len(llm.requests)
    run = run_turn(gateway, session(), BUY_PT)
    assert run["status"] == "failed"
    assert (
        run["answer"]
        == "Não consegui montar um plano que rode para esse pedido. Pode pedir em partes menores?"
    )
    assert "buy_stock" in run["plan"]["notes"][-1]  # the errors are in the trace, not the answer
    assert not run["steps"]
    assert len(llm.requests) == calls + 2  # the plan, and its one correction
    assert [c["purpose"] for c in run["plan"]["llm_calls"]] == ["plan", "correction"]


def test_with_the_llm_down_the_deterministic_plan_answers(
    domains: dict[str, Process], tmp_path_factory: pytest.TempPathFactory
) -> None:
    # nothing listens there: the port is held, never listening, so not even the gateway is given it
    with reserve_port() as nowhere:
        env = {
            "PLANNER_LLM": "fallback",
            "PLANNER_LLM_BASE_URL": f"{nowhere.url}/v1",
            "PLANNER_LLM_MODEL": "recorded-planner",
            "LLM_BASE_URL": "",
            "LLM_MODEL": "",
        }
        with gateway_over(domains, tmp_path_factory.mktemp("llm-planner-down"), env) as gateway:
            started = time.perf_counter()
            run = run_turn(gateway, session(), IF_EN)
            elapsed = time.perf_counter() - started
    assert elapsed < 20
    assert run["status"] == "completed", run
    assert run["plan"]["planner"] == "deterministic"
    assert run["plan"]["notes"][-1].startswith("llm planner unavailable (the LLM endpoint is unreachable")
    assert "Apple" in run["answer"]


def test_a_failed_step_is_observed_and_the_rest_rewritten_through_the_gateway(
    gateway: Process, llm: ScriptedLlm
) -> None:
    run = run_turn(gateway, session(), TYPO_EN)
    assert run["status"] == "completed", run
    plan = run["plan"]
    assert "Vale" in run["answer"] and "Petrobras" in run["answer"]
    assert [c["purpose"] for c in plan["llm_calls"]] == ["plan", "replan"]
    assert plan["notes"][-1].startswith(
        "replan 1: the llm planner rewrote the plan after step 1 (get_stock_price)"
    )
    # what ran is kept (the failed step, optional now, not called again), the new step ran
    assert [(s["id"], s["capability"], s["status"]) for s in run["steps"]] == [
        (1, "get_stock_price", "failed"),
        (2, "get_stock_price", "completed"),
        (3, "get_stock_price", "completed"),
    ]
    assert plan["steps"][0]["required"] is False
    rewrite = llm.requests[-1]  # this test's last call
    assert rewrite["messages"][1] == {"role": "user", "content": TYPO_EN}
    assert "step 1 (get_stock_price) failed" in rewrite["messages"][-1]["content"]
    assert '"step2"' in rewrite["messages"][-1]["content"]  # the completed step's output, observed
