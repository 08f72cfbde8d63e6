"""A plan the LLM rewrote after a failure never calls a step that changes something (the
notifier's send: not idempotent) with a value the person did not say: the run waits for the
person's yes instead (``report.held``). The same new value on a step that only reads runs, and
so does a rewrite that only reuses what was said (the request's entities, the planned values,
computed values read from earlier steps). The LLM is the only thing faked (a scripted server on
loopback), over the real finance and notifier manifests."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from execution.dag import ExecutionReport
from execution.runner import RunController
from planner.llm import LlmRunPlanner
from shared.events import RunStatusEvent, StepEvent
from shared.models import DomainOutput, IntentOutput
from shared.planning import ParamChange
from shared.status import RunStatus
from tests.planner.scripted_llm import ScriptedLlm, ToolCall, serve
from tests.planner.test_llm_planner import (
    CATALOG,
    FAILED,
    QUOTE_P,
    QUOTE_V,
    SEND_BEST,
    TYPO,
    Domains,
    planner,
    quote,
    request,
)

#: What step 3 of the plan (``TYPO``) sends: the name of the one that rose most, computed.
PLANNED_MESSAGE = "Subiu mais: ${= max_by([step1.result, step2.result], &change_pct).name}"
#: The same computation over the rewritten quote (step 4 in place of step 2).
REWRITTEN_MESSAGE = "Subiu mais: ${= max_by([step1.result, step4.result], &change_pct).name}"


#: The LLM's plan with a typo that only reads: the two quotes, nothing sent.
QUOTES_ONLY = {"steps": [QUOTE_P, {**QUOTE_V, "params": {"symbol_text": "Valle"}}], "combine_mode": "report"}
#: What the catalog's symbol search answers for "Vale".
FOUND_VALE = DomainOutput(
    status="success",
    result={
        "query": "Vale",
        "matches": [{"symbol": "VALE3", "name": "Vale", "exchange": "B3", "score": 1.0}],
    },
    explanation="Vale: VALE3",
)


def rewrite(quote_params: dict[str, Any], send_params: dict[str, Any]) -> dict[str, Any]:
    """The model's rest of the plan: the quote again (step 4), then the send (step 5)."""
    return {
        "steps": [
            {**QUOTE_V, "id": 4, "params": quote_params},
            {**SEND_BEST, "id": 5, "params": send_params},
        ]
    }


@pytest.fixture
def llm() -> Iterator[ScriptedLlm]:
    with serve(ScriptedLlm()) as server:
        yield server
    assert server.wire_errors == []


async def run(
    llm: ScriptedLlm,
    rewritten: dict[str, Any],
    entities: dict[str, Any] | None = None,
    proposed: dict[str, Any] = TYPO,
) -> tuple[ExecutionReport, Domains, list[str], RunController]:
    """The LLM's plan with a typo (``proposed``: step 2 fails), rewritten as ``rewritten``."""
    llm.queue = [ToolCall(proposed), ToolCall(rewritten)]
    asked = request()
    intent: IntentOutput = asked.intent
    if entities is not None:
        intent = intent.model_copy(update={"entities": {**intent.entities, **entities}})
    llm_planner = planner(llm)
    planned = await llm_planner.plan(asked, "test")
    domains = Domains(
        {
            "Petrobras": [quote("Petrobras", 1.9)],
            "Valle": [FAILED],
            "Vale": [quote("Vale", 2.6)],
            "VALE3": [quote("Vale", 2.6)],
            "search_symbol": [FOUND_VALE],
        }
    )
    controller = RunController(CATALOG, domains, planner=LlmRunPlanner(llm_planner), max_replans=2)
    runs: list[str] = []

    async def on_event(event: RunStatusEvent | StepEvent) -> None:
        if isinstance(event, RunStatusEvent):
            runs.append(event.status)

    report = await controller.run(intent, asked.execution_intent, planned.plan, on_event=on_event)
    return report, domains, runs, controller


def sends(domains: Domains) -> list[dict[str, Any]]:
    return [c.parameters for c in domains.calls if c.capability == "send_telegram_message"]


@pytest.mark.parametrize(
    ("send_params", "change"),
    [
        (
            {"message": REWRITTEN_MESSAGE, "chat_id": "@vale_fans"},
            ParamChange(5, "chat_id", None, "@vale_fans"),
        ),
        (
            {"message": "Subiu mais: Vale"},  # a literal where the person's plan computed it
            ParamChange(5, "message", PLANNED_MESSAGE, "Subiu mais: Vale"),
        ),
        (
            {"message": "${4.explanation}"},  # computed, but not the way the person's plan did
            ParamChange(5, "message", PLANNED_MESSAGE, "${4.explanation}"),
        ),
    ],
    ids=["a new parameter", "a literal in place of a computed value", "another computation"],
)
async def test_a_rewrite_with_a_value_nobody_said_for_a_step_that_acts_waits_for_the_yes(
    llm: ScriptedLlm, send_params: dict[str, Any], change: ParamChange
) -> None:
    report, domains, runs, _ = await run(llm, rewrite({"symbol_text": "Vale"}, send_params))
    assert report.status is RunStatus.WAITING_INPUT, report.reason
    assert runs == ["executing", "observing", "rewriting", "waiting_input"]  # no detour
    held = report.held
    assert held is not None and held.action == "rewrite" and held.step_id == 2
    assert held.changes == [change]
    assert held.explanation == "Não encontrei 'Valle'."
    assert [s.id for s in held.plan.steps] == [1, 2, 4, 5]
    assert sorted(t.id for t in held.kept) == [1, 2]  # what ran is not called again on a yes
    # nothing of the rewritten plan was called: the send never, the quote it would read neither
    assert sends(domains) == []
    assert [c.parameters["symbol_text"] for c in domains.calls] in (
        ["Petrobras", "Valle"],
        ["Valle", "Petrobras"],
    )


async def test_the_same_new_value_on_a_step_that_only_reads_runs(llm: ScriptedLlm) -> None:
    rewritten = rewrite({"symbol_text": "VALE3"}, {"message": REWRITTEN_MESSAGE})
    report, domains, runs, _ = await run(llm, rewritten)
    assert report.status is RunStatus.COMPLETED, report.reason
    assert report.held is None and runs[-2:] == ["executing", "completed"]
    assert domains.calls[-2].parameters == {"symbol_text": "VALE3"}
    assert sends(domains) == [{"message": "Subiu mais: Vale"}]


async def test_a_rewrite_that_reuses_what_was_said_runs(llm: ScriptedLlm) -> None:
    """The chat named in the request (an entity), and the planned message over the new quote."""
    said = rewrite({"symbol_text": "Vale"}, {"message": REWRITTEN_MESSAGE, "chat_id": "@ana"})
    report, domains, _, _ = await run(llm, said, entities={"chat_id": "@ana"})
    assert report.status is RunStatus.COMPLETED, report.reason
    assert report.held is None
    assert sends(domains) == [{"message": "Subiu mais: Vale", "chat_id": "@ana"}]


async def test_the_yes_runs_the_rewritten_plan_with_what_ran_kept(llm: ScriptedLlm) -> None:
    """The dialogue's yes runs ``held.plan`` resuming ``held.kept`` (``dialogue.approval``)."""
    rewritten = rewrite({"symbol_text": "Vale"}, {"message": REWRITTEN_MESSAGE, "chat_id": "@vale_fans"})
    report, domains, _, controller = await run(llm, rewritten)
    held = report.held
    assert held is not None and sends(domains) == []
    calls_before = len(domains.calls)
    asked = request()
    done = await controller.run(
        asked.intent, asked.execution_intent, held.plan, resume={t.id: t for t in held.kept}
    )
    assert done.status is RunStatus.COMPLETED, done.reason
    # only the rewritten steps were called: the quote it reads, then the send with the approved chat
    assert [c.parameters for c in domains.calls[calls_before:]] == [
        {"symbol_text": "Vale"},
        {"message": "Subiu mais: Vale", "chat_id": "@vale_fans"},
    ]


def test_the_planned_message_is_the_one_the_plan_sends() -> None:
    assert SEND_BEST["params"] == {"message": PLANNED_MESSAGE}


async def test_a_rewrite_that_adds_an_action_nobody_asked_for_waits_for_the_yes(llm: ScriptedLlm) -> None:
    """The person asked for two quotes; the rewrite also sends a message. Every value of the send
    was said (the message is the request's own entity), but nothing the person asked for led to
    sending anything: the send waits for the yes, named as the step the yes is for."""
    send = {**SEND_BEST, "id": 5, "depends_on": [1, 4], "params": {"message": "Petrobras e Vale"}}
    rewritten = {"steps": [{**QUOTE_V, "id": 4}, send]}
    report, domains, runs, _ = await run(
        llm, rewritten, entities={"message": "Petrobras e Vale"}, proposed=QUOTES_ONLY
    )
    assert report.status is RunStatus.WAITING_INPUT, report.reason
    assert runs == ["executing", "observing", "rewriting", "waiting_input"]
    held = report.held
    assert held is not None and held.action == "rewrite"
    assert held.changes == [] and held.added == [5] and held.waiting == [5]
    assert [s.id for s in held.plan.steps] == [1, 2, 4, 5]
    assert sorted(t.id for t in held.kept) == [1, 2]
    assert report.reason is not None and "adds steps 5" in report.reason
    assert sends(domains) == []  # nothing of the rewrite was called, the send never
    assert len(domains.calls) == 2


async def test_a_rewrite_that_adds_an_action_that_only_reads_runs(llm: ScriptedLlm) -> None:
    """A capability the plan never had, which only reads (the symbol search), runs as any read."""
    search = {"id": 4, "domain": "finance", "capability": "search_symbol", "params": {"query": "Vale"}}
    rewritten = {"steps": [search, {**QUOTE_V, "id": 5, "depends_on": [4]}]}
    report, domains, _, _ = await run(llm, rewritten, proposed=QUOTES_ONLY)
    assert report.status is RunStatus.COMPLETED, report.reason
    assert report.held is None
    assert [c.capability for c in domains.calls][-2:] == ["search_symbol", "get_stock_price"]
