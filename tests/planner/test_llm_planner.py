"""The LLM planner against a scripted OpenAI-compatible server on loopback (the LLM is the only
thing faked: a third-party API), over the real finance and notifier manifests; the wire is checked
against the openai SDK's request types on every call."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from domains.finance.service import build_service
from domains.notifier.service import build as build_notifier
from execution.runner import RunController
from planner.llm import LlmPlanner, LlmRunPlanner, PlannerLlmSettings, PlanRequest, build_run_planner
from planner.llm.texts import texts
from planner.llm.validation import read_proposal
from planner.run_planner import DeterministicRunPlanner
from shared.catalog import Catalog
from shared.events import RunStatusEvent, StepEvent
from shared.models import (
    CallContext,
    DomainOutput,
    ExecutionIntent,
    ExecutionPlan,
    ExecutionStep,
    Failure,
    IntentOutput,
)
from shared.status import RunStatus
from tests.conftest import free_port
from tests.planner.scripted_llm import Content, ScriptedLlm, Slow, Status, ToolCall, serve

CATALOG = Catalog([build_service().manifest(), build_notifier().service.manifest()])
TOOL = texts("pt").tool["parameters"]
PETR_VS_VALE = "compare a Petrobras com a Vale e manda no telegram a que subiu mais hoje"

QUOTE_P = {
    "id": 1,
    "domain": "finance",
    "capability": "get_stock_price",
    "params": {"symbol_text": "Petrobras"},
}
QUOTE_V = {"id": 2, "domain": "finance", "capability": "get_stock_price", "params": {"symbol_text": "Vale"}}
SEND_BEST = {
    "id": 3,
    "domain": "notifier",
    "capability": "send_telegram_message",
    "params": {"message": "Subiu mais: ${= max_by([step1.result, step2.result], &change_pct).name}"},
}
VALID = {"steps": [QUOTE_P, QUOTE_V, SEND_BEST], "combine_mode": "report"}


def quote(name: str, change: float) -> DomainOutput:
    return DomainOutput(
        status="success",
        result={
            "symbol": name[:4].upper(),
            "name": name,
            "price": 30.0,
            "change_pct": change,
            "currency": "BRL",
            "_market_context": {"market": "BR", "as_of": "2026-11-26T10:00:00-03:00", "source": "sample"},
        },
        explanation=f"{name}: {change}%",
    )


#: What the notifier answers (its output schema is checked like any domain's).
SENT = DomainOutput(status="success", result={"delivered_via": "outbox", "outbox_id": 1}, explanation="sent")


class Domains:
    """Scripted domain answers by capability and first parameter (the domains are not under test)."""

    def __init__(self, answers: dict[str, list[DomainOutput]]):
        self.answers = answers
        self.calls: list[ExecutionIntent] = []

    async def __call__(self, intent: ExecutionIntent, step: ExecutionStep, call: CallContext) -> DomainOutput:
        self.calls.append(intent)
        key = str(intent.parameters.get("symbol_text") or intent.capability)
        queue = self.answers.get(key) or [SENT]
        return queue.pop(0) if len(queue) > 1 else queue[0]


def settings(base_url: str, **overrides: Any) -> PlannerLlmSettings:
    values: dict[str, Any] = {
        "planner_llm": "fallback",
        "planner_llm_base_url": base_url,
        "planner_llm_model": "planner-test",
        "planner_llm_api_key": "sk-test-secret-123456",
        "planner_llm_timeout_s": 5.0,
        **overrides,
    }
    return PlannerLlmSettings(**values)


def request(text: str = PETR_VS_VALE, language: str = "pt") -> PlanRequest:
    intent = IntentOutput(
        primary_domain="finance",
        goal="GET_QUOTE",
        entities={"symbol_text": ["Petrobras", "Vale"], "notify": True},
        confidence=0.9,
        original_query=text,
        language=language,
    )
    execution_intent = ExecutionIntent(
        domain="finance",
        capability="get_stock_price",
        capabilities=["get_stock_price"],
        parameters={"symbol_text": ["Petrobras", "Vale"]},
        original_query=text,
        goal="GET_QUOTE",
    )
    deterministic = ExecutionPlan(
        steps=[
            ExecutionStep(
                id=1, domain="finance", capability="get_stock_price", params={"symbol_text": "Petrobras"}
            ),
            ExecutionStep(
                id=2, domain="finance", capability="get_stock_price", params={"symbol_text": "Vale"}
            ),
        ],
        execution_mode="parallel",
        combine_mode="report",
    )
    return PlanRequest(text, language, intent, execution_intent, deterministic)


@pytest.fixture
def llm() -> Iterator[ScriptedLlm]:
    with serve(ScriptedLlm()) as server:
        yield server
    assert server.wire_errors == []


def planner(server: ScriptedLlm, **overrides: Any) -> LlmPlanner:
    return LlmPlanner(settings(server.base_url, **overrides), lambda: CATALOG)


# ---------------------------------------------------------------------- a valid plan


async def test_a_valid_plan_is_proposed_with_a_tool_call_and_runs(llm: ScriptedLlm) -> None:
    llm.queue = [ToolCall(VALID)]
    planned = await planner(llm).plan(request(), "test")
    assert planned.refusal is None
    plan = planned.plan
    assert plan.planner == "llm"
    assert [s.capability for s in plan.steps] == [
        "get_stock_price",
        "get_stock_price",
        "send_telegram_message",
    ]
    assert plan.steps[2].depends_on == [1, 2]  # read by the selection, so an edge of the graph
    assert [c.purpose for c in plan.llm_calls] == ["plan"]
    assert '"capability": "get_stock_price"' in plan.llm_calls[0].raw.replace('":"', '": "')
    assert plan.notes[0].startswith("planned by the llm planner (planner-test)")
    # the wire: a forced tool call, the catalog in the person's language in the system prompt
    sent = llm.requests[0]
    assert sent["tool_choice"] == {"type": "function", "function": {"name": "propose_plan"}}
    assert sent["tools"][0]["function"]["parameters"] == TOOL
    system = sent["messages"][0]["content"]
    assert "Cotação atual de uma ação" in system and "send_telegram_message" in system
    assert sent["messages"][1] == {"role": "user", "content": PETR_VS_VALE}

    domains = Domains({"Petrobras": [quote("Petrobras", 1.9)], "Vale": [quote("Vale", 2.6)]})
    controller = RunController(CATALOG, domains, planner=DeterministicRunPlanner())
    report = await controller.run(request().intent, request().execution_intent, plan)
    assert report.status is RunStatus.COMPLETED
    assert domains.calls[-1].parameters == {"message": "Subiu mais: Vale"}


async def test_the_answer_as_json_content_is_read_when_tools_are_not_supported() -> None:
    import json

    with serve(ScriptedLlm(no_tools=True, queue=[Content(json.dumps(VALID))])) as server:
        planned = await planner(server).plan(request(), "test")
        assert server.wire_errors == []
    assert planned.plan.planner == "llm"
    assert "tools" in server.requests[0] and "tools" not in server.requests[1]
    assert server.requests[1]["response_format"]["type"] == "json_schema"


# ---------------------------------------------------------------------- invalid plans


INVALID = {
    "steps": [
        {**QUOTE_P, "params": {"symbol_text": 42}},
        {"id": 2, "domain": "finance", "capability": "send_telegram_message", "params": {"message": "x"}},
        {**SEND_BEST, "when": "step4.status == 'success'"},
    ]
}


async def test_an_invalid_plan_gets_one_correction_round_with_the_errors(llm: ScriptedLlm) -> None:
    llm.queue = [ToolCall(INVALID), ToolCall(VALID)]
    planned = await planner(llm).plan(request(), "test")
    assert planned.refusal is None and planned.plan.planner == "llm"
    assert [c.purpose for c in planned.plan.llm_calls] == ["plan", "correction"]
    first = planned.plan.llm_calls[0].errors
    assert first == [
        "steps.0.params.symbol_text: 42 is not valid under any of the given schemas",
        "steps.1: domain 'finance' has no capability 'send_telegram_message' (it is offered by notifier)",
    ]
    # the correction answers the tool call with the errors (seed 004's needs_replan feedback)
    correction = llm.requests[1]["messages"]
    assert correction[-2]["tool_calls"][0]["id"] == "call_1"
    assert correction[-1]["role"] == "tool" and correction[-1]["tool_call_id"] == "call_1"
    assert "send_telegram_message" in correction[-1]["content"]
    assert "Esse plano não pode rodar" in correction[-1]["content"]


async def test_a_plan_still_invalid_after_the_correction_is_refused(llm: ScriptedLlm) -> None:
    llm.queue = [ToolCall(INVALID), ToolCall(INVALID)]
    planned = await planner(llm).plan(request(text="compare Petrobras and Vale", language="en"), "test")
    assert planned.refusal is not None
    assert (
        planned.refusal
        == "I could not make a plan that runs for this request. Could you ask for it in smaller steps?"
    )
    assert "capability" not in planned.refusal  # the errors stay in the trace
    assert planned.plan.notes[-1].startswith(
        "llm planner: the plan stayed invalid after a correction: steps.0"
    )
    assert planned.plan.planner == "deterministic"  # nothing of the LLM's runs
    assert [c.purpose for c in planned.plan.llm_calls] == ["plan", "correction"]
    assert len(llm.requests) == 2


async def test_the_model_saying_the_catalog_cannot_do_it_is_a_clear_answer(llm: ScriptedLlm) -> None:
    llm.queue = [ToolCall({"steps": [], "cannot_plan": "nenhum serviço reserva voos"})]
    planned = await planner(llm).plan(request(text="reserva um voo se a Vale subir"), "test")
    assert (
        planned.refusal == "Não consigo fazer isso com os serviços disponíveis: nenhum serviço reserva voos"
    )


# ---------------------------------------------------------------------- budgets


async def test_max_calls_leaves_no_correction_round(llm: ScriptedLlm) -> None:
    llm.queue = [ToolCall(INVALID), ToolCall(VALID)]
    planned = await planner(llm, planner_llm_max_calls=1).plan(request(), "test")
    assert planned.refusal is not None and len(llm.requests) == 1


async def test_max_steps_is_a_validation_error(llm: ScriptedLlm) -> None:
    llm.queue = [ToolCall(VALID), ToolCall(VALID)]
    planned = await planner(llm, planner_llm_max_steps=2).plan(request(), "test")
    assert planned.refusal is not None
    assert "steps: 3 steps proposed, at most 2 are allowed" in planned.plan.llm_calls[0].errors


# ---------------------------------------------------------------------- down or slow


async def test_an_endpoint_that_is_down_leaves_the_deterministic_plan() -> None:
    closed = f"http://127.0.0.1:{free_port()}/v1"
    started = time.perf_counter()
    planned = await LlmPlanner(settings(closed), lambda: CATALOG).plan(request(), "test")
    assert time.perf_counter() - started < 5
    assert planned.refusal is None
    assert planned.plan.planner == "deterministic" and len(planned.plan.steps) == 2
    assert planned.plan.llm_calls[0].failure == "the LLM endpoint is unreachable (ConnectError)"
    assert planned.plan.notes[-1].startswith("llm planner unavailable (the LLM endpoint is unreachable")


async def test_a_slow_endpoint_is_given_up_on_within_its_timeout(llm: ScriptedLlm) -> None:
    llm.queue = [Slow(5.0, ToolCall(VALID))]
    started = time.perf_counter()
    planned = await planner(llm, planner_llm_timeout_s=0.3).plan(request(), "test")
    assert time.perf_counter() - started < 2
    assert planned.plan.planner == "deterministic" and planned.refusal is None
    assert planned.plan.llm_calls[0].failure == "the LLM did not answer within 0.3 s"


async def test_an_http_error_leaves_the_deterministic_plan(llm: ScriptedLlm) -> None:
    llm.queue = [Status(503, "overloaded")]
    planned = await planner(llm).plan(request(), "test")
    assert planned.plan.planner == "deterministic"
    assert planned.plan.llm_calls[0].failure == "the LLM endpoint answered HTTP 503"


# ---------------------------------------------------------------------- when, and secrets


def test_when_the_llm_plans() -> None:
    url = "http://127.0.0.1:9/v1"
    fallback = LlmPlanner(settings(url), lambda: CATALOG)
    assert (
        fallback.reason_to_plan(request())
        == "the request asks for a condition, comparison or selection ('compare')"
    )
    plain = request(text="qual a cotação da Petrobras?")
    assert fallback.reason_to_plan(plain) is None
    uncovered = PlanRequest(
        plain.text, "pt", plain.intent, plain.execution_intent, plain.plan, ["me conta uma piada"]
    )
    assert (
        fallback.reason_to_plan(uncovered)
        == "parts the deterministic plan does not cover: me conta uma piada"
    )
    english = request(text="if Apple is below 200 dollars show me Microsoft too", language="en")
    assert (
        fallback.reason_to_plan(english) == "the request asks for a condition, comparison or selection ('if')"
    )
    # how people ask for the understood goal itself is no sign: "maiores altas" is TOP_MOVERS
    movers = IntentOutput(primary_domain="finance", goal="TOP_MOVERS", language="pt")
    asked = PlanRequest("quais as maiores altas do Brasil?", "pt", movers, plain.execution_intent, plain.plan)
    assert fallback.reason_to_plan(asked) is None
    each = PlanRequest(
        "pega as 3 maiores altas do Brasil e me dá a cotação de cada uma",
        "pt",
        movers,
        plain.execution_intent,
        plain.plan,
    )
    assert (
        fallback.reason_to_plan(each) == "the request asks for a condition, comparison or selection ('cada')"
    )
    always = LlmPlanner(settings(url, planner_llm="always"), lambda: CATALOG)
    assert always.reason_to_plan(plain) == "configured to plan every request (PLANNER_LLM=always)"
    assert isinstance(build_run_planner(PlannerLlmSettings(), lambda: CATALOG), DeterministicRunPlanner)
    assert isinstance(build_run_planner(settings(url), lambda: CATALOG), LlmRunPlanner)


async def test_secrets_the_model_echoes_are_masked_in_the_trace(llm: ScriptedLlm) -> None:
    echoed = {
        **VALID,
        "cannot_plan": None,
        "steps": [{**QUOTE_P, "params": {"symbol_text": "sk-test-secret-123456"}}],
    }
    llm.queue = [ToolCall(echoed)]
    planned = await planner(llm).plan(request(), "test")
    assert "sk-test-secret-123456" not in planned.plan.model_dump_json(include={"llm_calls"})
    assert "***" in planned.plan.llm_calls[0].raw


# ---------------------------------------------------------------------- validation alone


def proposal(*steps: dict[str, Any]) -> list[str]:
    return read_proposal({"steps": list(steps)}, CATALOG, TOOL, max_steps=10).errors


def test_parameters_are_checked_against_the_capability_schema() -> None:
    bad = {"id": 1, "domain": "finance", "capability": "get_top_gainers", "params": {"limit": 50}}
    assert proposal(bad) == ["steps.0.params.limit: 50 is greater than the maximum of 20"]
    missing = {"id": 1, "domain": "notifier", "capability": "send_telegram_message", "params": {}}
    assert proposal(missing) == ["steps.0.params: 'message' is a required property"]


def test_values_bound_at_run_time_satisfy_required_parameters() -> None:
    top = {
        "id": 1,
        "domain": "finance",
        "capability": "get_top_gainers",
        "params": {"market_text": "Brasil", "limit": 3},
    }
    each = {
        "id": 2,
        "domain": "finance",
        "capability": "get_stock_price",
        "params": {"symbol": "${= step1.result.movers[0].symbol}"},
    }
    send = {
        "id": 3,
        "domain": "notifier",
        "capability": "send_telegram_message",
        "params": {"message": "${2.explanation}"},
    }
    assert proposal(top, each, send) == []


def test_references_and_cycles_are_refused() -> None:
    later = {**QUOTE_P, "params": {"symbol_text": "${2.result.name}"}}
    assert proposal(later, {**QUOTE_V, "depends_on": [1]}) == ["steps: the plan has a cycle: 1 -> 2 -> 1"]
    unknown = {**SEND_BEST, "id": 2, "params": {"message": "${7.explanation}"}}
    assert proposal(QUOTE_P, unknown) == ["steps.1.params: step 2 references unknown step 7"]
    shape = read_proposal({"steps": [{"id": "one"}]}, CATALOG, TOOL, max_steps=10).errors
    assert "steps.0: 'domain' is a required property" in shape


# ---------------------------------------------------------------------- rewriting


FAILED = DomainOutput(
    status="failure",
    explanation="Não encontrei 'Valle'.",
    failure=Failure(reason="symbol_not_found", recoverable=True),
)
TYPO = {
    "steps": [
        QUOTE_P,
        {**QUOTE_V, "params": {"symbol_text": "Valle"}},
        {**SEND_BEST, "depends_on": [1, 2]},
    ],
    "combine_mode": "report",
}
REWRITE = {
    "steps": [
        {**QUOTE_V, "id": 4},
        {
            **SEND_BEST,
            "id": 5,
            "params": {"message": "Subiu mais: ${= max_by([step1.result, step4.result], &change_pct).name}"},
        },
    ]
}


async def run_with_rewrites(
    llm: ScriptedLlm, **overrides: Any
) -> tuple[Any, Domains, list[RunStatusEvent | StepEvent]]:
    llm_planner = planner(llm, **overrides)
    planned = await llm_planner.plan(request(), "test")
    domains = Domains(
        {"Petrobras": [quote("Petrobras", 1.9)], "Valle": [FAILED], "Vale": [quote("Vale", 2.6)]}
    )
    controller = RunController(CATALOG, domains, planner=LlmRunPlanner(llm_planner), max_replans=2)
    events: list[RunStatusEvent | StepEvent] = []

    async def on_event(event: RunStatusEvent | StepEvent) -> None:
        events.append(event)

    report = await controller.run(
        request().intent, request().execution_intent, planned.plan, on_event=on_event
    )
    return report, domains, events


async def test_a_failed_step_is_observed_and_the_rest_of_the_plan_rewritten(llm: ScriptedLlm) -> None:
    llm.queue = [ToolCall(TYPO), ToolCall(REWRITE)]
    report, domains, events = await run_with_rewrites(llm)
    assert report.status is RunStatus.COMPLETED
    assert [c.parameters.get("symbol_text") for c in domains.calls[:3]] in (
        ["Petrobras", "Valle", "Vale"],
        ["Valle", "Petrobras", "Vale"],
    )
    assert domains.calls[-1].parameters == {"message": "Subiu mais: Vale"}
    runs = [e.status for e in events if isinstance(e, RunStatusEvent)]
    assert runs == ["executing", "observing", "rewriting", "executing", "completed"]
    observed = next(e for e in events if isinstance(e, RunStatusEvent) and e.status == "observing")
    assert observed.reason == "step 2 (get_stock_price) failed: Não encontrei 'Valle'."
    assert report.plan is not None and [s.id for s in report.plan.steps] == [1, 2, 4, 5]
    # the failed step stays in the trace, optional now, and was not called again
    assert report.plan.steps[1].required is False
    assert [t.status for t in report.steps] == [
        RunStatus.COMPLETED,
        RunStatus.FAILED,
        RunStatus.COMPLETED,
        RunStatus.COMPLETED,
    ]
    assert sum(1 for c in domains.calls if c.parameters.get("symbol_text") == "Valle") == 1
    assert [c.purpose for c in report.plan.llm_calls] == ["plan", "replan"]
    rewrite_prompt = llm.requests[1]["messages"][-1]["content"]
    assert "o passo 2 (get_stock_price) falhou" in rewrite_prompt and '"step1"' in rewrite_prompt
    assert report.replans == 1


async def test_no_rewrite_beyond_the_max_replans(llm: ScriptedLlm) -> None:
    llm.queue = [ToolCall(TYPO), ToolCall(REWRITE)]
    report, domains, _ = await run_with_rewrites(llm, planner_llm_max_replans=0)
    assert len(llm.requests) == 1  # the plan only: no rewrite was asked for
    # the deterministic replanner's move instead: the failed branch is dropped from the report
    assert report.plan is not None and report.plan.notes[-1].startswith(
        "replan 1: drop the failed branch of step 2"
    )
    assert report.status is RunStatus.COMPLETED
    assert not any(c.capability == "send_telegram_message" for c in domains.calls)
    assert [t.status for t in report.steps] == [RunStatus.COMPLETED, RunStatus.FAILED, RunStatus.SKIPPED]


async def test_planning_stops_at_its_deadline(llm: ScriptedLlm) -> None:
    llm.queue = [Slow(3.0, ToolCall(VALID))]
    started = time.perf_counter()
    planned = await planner(llm, planner_llm_deadline_s=0.2).plan(request(), "test")
    assert time.perf_counter() - started < 1.5
    assert planned.plan.planner == "deterministic"
    assert planned.plan.llm_calls[0].failure == "the LLM did not answer within 0.2 s"


async def test_no_rewrite_once_the_calls_are_spent(llm: ScriptedLlm) -> None:
    llm.queue = [ToolCall(TYPO), ToolCall(REWRITE)]
    await run_with_rewrites(llm, planner_llm_max_calls=1)
    assert len(llm.requests) == 1


async def test_a_rewrite_that_reuses_a_step_id_is_corrected_once(llm: ScriptedLlm) -> None:
    reused = {"steps": [{**QUOTE_V, "id": 2}, {**SEND_BEST, "id": 3}]}
    llm.queue = [ToolCall(TYPO), ToolCall(reused), ToolCall(REWRITE)]
    report, domains, _ = await run_with_rewrites(llm)
    assert report.status is RunStatus.COMPLETED
    assert report.plan is not None
    assert [c.purpose for c in report.plan.llm_calls] == ["plan", "replan", "correction"]
    assert report.plan.llm_calls[1].errors[0] == "steps.0.id: 2 is taken; new steps start at 4"
    assert domains.calls[-1].parameters == {"message": "Subiu mais: Vale"}


async def test_with_no_replan_left_the_report_answers_with_what_ran(llm: ScriptedLlm) -> None:
    llm.queue = [ToolCall(TYPO)]
    llm_planner = planner(llm)
    planned = await llm_planner.plan(request(), "test")
    domains = Domains({"Petrobras": [quote("Petrobras", 1.9)], "Valle": [FAILED]})
    controller = RunController(CATALOG, domains, planner=LlmRunPlanner(llm_planner), max_replans=0)
    report = await controller.run(request().intent, request().execution_intent, planned.plan)
    assert report.status is RunStatus.COMPLETED  # the report of what ran, the gap named
    assert report.replans == 0 and len(llm.requests) == 1
    assert "Petrobras: 1.9%" in report.answer and "Não encontrei 'Valle'." in report.answer
