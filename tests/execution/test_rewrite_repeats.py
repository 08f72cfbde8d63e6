"""A rewrite that would call a capability that changes something (the notifier's send: not
idempotent) once more than the person's plan does waits for their yes, whatever its values: the
send already went out, and sending it again is a second message nobody asked for. A send the
rewrite only puts in place of one that never ran, or a second call of a capability that only
reads, runs. The LLM is the only thing faked (a scripted server on loopback), over the real
finance and notifier manifests."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from execution.dag import ExecutionReport
from execution.runner import RunController
from planner.llm import LlmRunPlanner
from shared.models import ExecutionPlan, ExecutionStep
from shared.planning import repeated_actions
from shared.status import RunStatus
from tests.planner.scripted_llm import ScriptedLlm, ToolCall, serve
from tests.planner.test_llm_planner import CATALOG, FAILED, QUOTE_P, QUOTE_V, Domains, planner, quote, request

SEND = "send_telegram_message"
#: What the person's plan sends: the first quote's answer, as soon as it is there.
SENT_FIRST = {
    "id": 2,
    "domain": "notifier",
    "capability": SEND,
    "params": {"message": "${1.explanation}"},
    "depends_on": [1],
}
#: The LLM's plan: the Petrobras quote, sent; the Vale quote with a typo (it fails, nothing needs it).
SEND_THEN_TYPO = {
    "steps": [QUOTE_P, SENT_FIRST, {**QUOTE_V, "id": 3, "params": {"symbol_text": "Valle"}}],
    "combine_mode": "report",
}
#: The rest of the plan the model writes: the quote again, spelled right.
QUOTE_AGAIN = {**QUOTE_V, "id": 4}


@pytest.fixture
def llm() -> Iterator[ScriptedLlm]:
    with serve(ScriptedLlm()) as server:
        yield server
    assert server.wire_errors == []


async def run(
    llm: ScriptedLlm, rewritten: dict[str, Any], proposed: dict[str, Any] = SEND_THEN_TYPO
) -> tuple[ExecutionReport, Domains, RunController]:
    """The model's plan (``proposed``: the one above, whose step 2 sends and step 3 fails),
    then its rewrite, ``rewritten``."""
    llm.queue = [ToolCall(proposed), ToolCall(rewritten)]
    asked = request()
    llm_planner = planner(llm)
    planned = await llm_planner.plan(asked, "test")
    domains = Domains(
        {"Petrobras": [quote("Petrobras", 1.9)], "Valle": [FAILED], "Vale": [quote("Vale", 2.6)]}
    )
    controller = RunController(CATALOG, domains, planner=LlmRunPlanner(llm_planner), max_replans=2)
    report = await controller.run(asked.intent, asked.execution_intent, planned.plan)
    return report, domains, controller


def sends(domains: Domains) -> list[dict[str, Any]]:
    return [c.parameters for c in domains.calls if c.capability == SEND]


@pytest.mark.parametrize(
    "message",
    ["${1.explanation}", "${4.explanation}"],
    ids=["the same values", "the same computation over the new quote"],
)
async def test_a_rewrite_that_sends_again_what_was_sent_waits_for_the_yes(
    llm: ScriptedLlm, message: str
) -> None:
    again = {**SENT_FIRST, "id": 5, "params": {"message": message}, "depends_on": [1, 4]}
    report, domains, _ = await run(llm, {"steps": [QUOTE_AGAIN, again]})
    assert report.status is RunStatus.WAITING_INPUT, report.reason
    held = report.held
    assert held is not None and held.action == "rewrite"
    # every value of the send was said (the plan the person approved had it): not a change
    assert held.changes == [] and held.added == []
    assert held.repeated == [5] and held.waiting == [5]
    assert [s.id for s in held.plan.steps] == [1, 2, 3, 4, 5]
    assert sorted(t.id for t in held.kept) == [1, 2, 3]
    assert report.reason is not None and "calls again in steps 5" in report.reason
    assert sends(domains) == [{"message": "Petrobras: 1.9%"}]  # the first send only, once


async def test_the_yes_sends_the_second_message(llm: ScriptedLlm) -> None:
    again = {**SENT_FIRST, "id": 5, "depends_on": [1, 4]}
    report, domains, controller = await run(llm, {"steps": [QUOTE_AGAIN, again]})
    held = report.held
    assert held is not None
    asked = request()
    done = await controller.run(
        asked.intent, asked.execution_intent, held.plan, resume={t.id: t for t in held.kept}
    )
    assert done.status is RunStatus.COMPLETED, done.reason
    assert sends(domains) == [{"message": "Petrobras: 1.9%"}] * 2


async def test_a_rewrite_that_calls_again_a_capability_that_only_reads_runs(llm: ScriptedLlm) -> None:
    """The Petrobras quote asked for a second time: reading twice changes nothing."""
    report, domains, _ = await run(llm, {"steps": [QUOTE_AGAIN, {**QUOTE_P, "id": 5}]})
    assert report.status is RunStatus.COMPLETED, report.reason
    assert report.held is None
    assert [c.parameters.get("symbol_text") for c in domains.calls].count("Petrobras") == 2
    assert len(sends(domains)) == 1


async def test_a_send_in_place_of_one_that_never_ran_is_no_repeat(llm: ScriptedLlm) -> None:
    """The send waits on the quote that fails: the rewrite's send is the first, as planned."""
    waits = {
        "steps": [
            QUOTE_P,
            {**QUOTE_V, "params": {"symbol_text": "Valle"}},
            {**SENT_FIRST, "id": 3, "depends_on": [2]},
        ],
        "combine_mode": "report",
    }
    report, domains, _ = await run(
        llm, {"steps": [QUOTE_AGAIN, {**SENT_FIRST, "id": 5, "depends_on": [4]}]}, waits
    )
    assert report.status is RunStatus.COMPLETED, report.reason
    assert report.held is None
    assert sends(domains) == [{"message": "Petrobras: 1.9%"}]


def send(step_id: int, message: str) -> ExecutionStep:
    return ExecutionStep(id=step_id, domain="notifier", capability=SEND, params={"message": message})


READ = ExecutionStep(id=1, domain="finance", capability="get_stock_price", params={"symbol_text": "Vale"})


@pytest.mark.parametrize(
    ("planned", "done", "rewrite", "repeated"),
    [
        # the send that went out, sent again: the same values, or the same computation
        ([send(2, "oi")], {2}, [send(5, "oi")], [5]),
        ([send(2, "${1.explanation}")], {2}, [send(5, "${4.explanation}")], [5]),
        # the same values as the one that went out, while another send is still owed: a repeat
        ([send(2, "oi"), send(3, "tchau")], {2}, [send(5, "oi")], [5]),
        # new values in place of a send still owed: it stands for that one (values are not this rule's)
        ([send(2, "oi"), send(3, "tchau")], {2}, [send(5, "adeus")], []),
        # new values, no send owed: one more than asked for
        ([send(2, "oi")], {2}, [send(5, "adeus")], [5]),
        # the person asked for the same send twice, one went out: the second is theirs
        ([send(2, "oi"), send(3, "oi")], {2}, [send(5, "oi")], []),
        # a step the rewrite calls again (not kept) that had gone out
        ([send(2, "oi")], {2}, [send(2, "oi")], [2]),
        # a capability the plan never called is an added action, not a repeat; reads count too
        ([READ], {1}, [send(5, "oi"), READ.model_copy(update={"id": 6})], [6]),
    ],
    ids=[
        "same values",
        "same computation",
        "same values with another owed",
        "new values for one owed",
        "new values none owed",
        "asked twice",
        "rerun",
        "added and read",
    ],
)
def test_which_calls_a_rewrite_repeats(
    planned: list[ExecutionStep], done: set[int], rewrite: list[ExecutionStep], repeated: list[int]
) -> None:
    plan = ExecutionPlan(steps=rewrite)
    called = {step.id for step in rewrite}
    found = repeated_actions(plan, ExecutionPlan(steps=planned), done, called)
    assert [step.id for step in found] == repeated
