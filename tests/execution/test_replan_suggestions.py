"""A re-issue with a failure's suggestion: said in the report for a capability that only reads,
held for the person's yes for one that changes something (``confirm`` or not ``idempotent``)."""

from __future__ import annotations

from typing import Any

import pytest

from execution.runner import RunController
from planner import DeterministicRunPlanner
from shared.models import DomainOutput, Failure
from shared.planning import ParamChange
from shared.status import RunStatus
from tests.execution.runner_helpers import Scripted, catalog, intent, not_found, ok, plan, s
from tests.execution.test_runner import Events


def controller(domain: Scripted, max_replans: int = 1, **policies: dict[str, Any]) -> RunController:
    return RunController(
        catalog(**policies), domain, planner=DeterministicRunPlanner(), max_replans=max_replans
    )


def no_chat(suggested: str) -> DomainOutput:
    return DomainOutput(
        status="failure",
        explanation="No such chat.",
        failure=Failure(reason="chat_not_found", recoverable=True, suggestions=[{"chat": suggested}]),
    )


async def test_a_read_only_reissue_lists_the_values_it_changed() -> None:
    domain = Scripted(
        {"quote": [not_found("Aple", suggestions=[{"symbol": "AAPL"}]), ok(symbol="AAPL", price=1.0)]}
    )
    report = await controller(domain).run(intent(), plan=plan(s(1, symbol="Aple")), context={})
    assert report.status is RunStatus.COMPLETED and report.held is None
    assert report.changes == [ParamChange(1, "symbol", "Aple", "AAPL")]
    assert [c.parameters["symbol"] for c in domain.calls] == ["Aple", "AAPL"]


async def test_two_reissues_of_one_value_are_one_change_from_the_first() -> None:
    price_gone = DomainOutput(
        status="failure",
        explanation="No price.",
        failure=Failure(reason="no_price", recoverable=True, suggestions=[{"symbol": "AAPL.MX"}]),
    )
    script: dict[str, list[DomainOutput | BaseException]] = {
        "quote": [not_found("Aple", suggestions=[{"symbol": "AAPL"}]), price_gone, ok()]
    }
    domain = Scripted(script)
    report = await controller(domain, max_replans=2).run(intent(), plan=plan(s(1, symbol="Aple")), context={})
    assert report.status is RunStatus.COMPLETED
    assert report.changes == [ParamChange(1, "symbol", "Aple", "AAPL.MX")]


@pytest.mark.parametrize(
    ("policies", "step"),
    [
        ({}, s(2, "send", deps=[1], domain="notifier", chat="@ana", message="${1.explanation}")),
        ({"quote": {"confirm": True}}, s(2, "quote", deps=[1], chat="@ana", symbol="X")),
    ],
    ids=["not idempotent", "confirm"],
)
async def test_a_reissue_of_a_step_that_changes_something_waits_for_the_person(
    policies: dict[str, dict[str, Any]], step: Any
) -> None:
    domain, events = Scripted({step.capability: [no_chat("@ana.b")]}), Events()
    if step.capability == "quote":  # step 1 is a quote too: it answers, the second one fails
        domain.script["quote"] = [ok("A: 1"), no_chat("@ana.b")]
    report = await RunController(catalog(**policies), domain, planner=DeterministicRunPlanner()).run(
        intent(), plan=plan(s(1, symbol="A"), step), context={}, on_event=events
    )
    assert report.status is RunStatus.WAITING_INPUT
    assert events.runs() == ["executing", "replanning", "waiting_input"]
    held = report.held
    assert held is not None and held.step_id == 2 and held.explanation == "No such chat."
    assert held.changes == [ParamChange(2, "chat", "@ana", "@ana.b")]
    assert held.plan.steps[1].params["chat"] == "@ana.b"
    assert [t.id for t in held.kept] == [1]  # the step that answered is not called again on a yes
    # never called with the value nobody said
    assert [c.parameters.get("chat") for c in domain.calls if c.capability == step.capability][-1] == "@ana"
    assert sum(1 for c in domain.calls if c.parameters.get("chat")) == 1
    assert report.changes == []


async def test_a_plan_the_llm_wrote_waits_the_same_way_when_its_replan_is_a_reissue() -> None:
    """An LLM plan moves observing -> rewriting; the LLM planner falls back to the re-issue (here
    the deterministic planner stands in for a model that rewrote nothing)."""
    domain, events = Scripted({"send": [no_chat("@ana.b")]}), Events()
    written = plan(s(1, "send", domain="notifier", chat="@ana")).model_copy(update={"planner": "llm"})
    report = await controller(domain).run(intent(), plan=written, context={}, on_event=events)
    assert report.status is RunStatus.WAITING_INPUT and report.held is not None
    # rewriting -> waiting_input: the run does not pass through executing to ask
    assert events.runs() == ["executing", "observing", "rewriting", "waiting_input"]
    assert [c.parameters["chat"] for c in domain.calls] == ["@ana"]


async def test_a_reissue_held_after_a_read_only_one_carries_the_value_already_used() -> None:
    """The quote ran again with the suggested symbol (it only reads), then the send, which acts,
    failed suggesting another chat: the yes it waits for is given knowing both values, the one
    already used and the one asked about."""
    domain = Scripted(
        {
            "quote": [
                not_found("Aple", suggestions=[{"symbol": "AAPL"}]),
                ok("AAPL: 1", symbol="AAPL", price=1.0),
            ],
            "send": [no_chat("@ana.b")],
        }
    )
    send = s(2, "send", deps=[1], domain="notifier", chat="@ana", message="${1.explanation}")
    report = await controller(domain, max_replans=2).run(
        intent(), plan=plan(s(1, symbol="Aple"), send), context={}
    )
    assert report.status is RunStatus.WAITING_INPUT, report.reason
    held = report.held
    assert held is not None and held.changes == [ParamChange(2, "chat", "@ana", "@ana.b")]
    assert held.already_used == [ParamChange(1, "symbol", "Aple", "AAPL")]
    assert held.waiting == [2]  # the yes is for the send alone: the quote ran and is kept
    assert [t.id for t in held.kept] == [1]


async def test_the_run_after_the_yes_still_reports_the_suggestions_used_before_it() -> None:
    """The yes comes in another turn, which runs the held plan afresh: the plan carries the
    values used before the yes without asking, so that run's answer names them too (the one
    the yes approved was the question's own)."""
    domain = Scripted(
        {
            "quote": [
                not_found("Aple", suggestions=[{"symbol": "AAPL"}]),
                ok("AAPL: 1", symbol="AAPL", price=1.0),
            ],
            "send": [no_chat("@ana.b"), ok("sent")],
        }
    )
    send = s(2, "send", deps=[1], domain="notifier", chat="@ana", message="${1.explanation}")
    run_loop = controller(domain, max_replans=2)
    report = await run_loop.run(intent(), plan=plan(s(1, symbol="Aple"), send), context={})
    held = report.held
    assert held is not None
    used = [ParamChange(1, "symbol", "Aple", "AAPL")]
    assert held.plan.suggestions_used == used
    done = await run_loop.run(intent(), plan=held.plan, context={}, resume={t.id: t for t in held.kept})
    assert done.status is RunStatus.COMPLETED, done.reason
    assert done.changes == used
    assert done.plan is not None and done.plan.suggestions_used == used
    assert [c.parameters.get("chat") for c in domain.calls if c.capability == "send"] == ["@ana", "@ana.b"]
