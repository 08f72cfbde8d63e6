"""RunController: statuses, validation/retry, replanning, policies, hooks, faults, events."""

from __future__ import annotations

from typing import Any

import pytest

from execution.policy import ContextPolicy, Hooks, StepContext, TransitionOverride
from execution.runner import RunController
from planner import DeterministicRunPlanner
from shared.errors import DomainUnavailable
from shared.events import RUN_EVENT, RunStatusEvent, StepEvent
from shared.manifest import Capability
from shared.models import CallContext, DomainOutput, ExecutionIntent, Failure, StepTrace
from shared.status import RunStatus
from tests.execution.runner_helpers import Scripted, catalog, intent, not_found, ok, plan, s


class Events(list[RunStatusEvent | StepEvent]):
    async def __call__(self, event: RunStatusEvent | StepEvent) -> None:
        assert RUN_EVENT.validate_json(event.model_dump_json()) == event  # every event travels as JSON
        self.append(event)

    def runs(self) -> list[str]:
        return [e.status for e in self if isinstance(e, RunStatusEvent)]

    def steps(self, step: int) -> list[str]:
        return [e.status for e in self if isinstance(e, StepEvent) and e.step_id == step]


def controller(domain: Scripted, **kwargs: Any) -> RunController:
    policies = kwargs.pop("policies", {})
    kwargs.setdefault("planner", DeterministicRunPlanner())
    return RunController(catalog(**policies), domain, **kwargs)


# ------------------------------------------------------------------ statuses


@pytest.mark.parametrize(
    ("steps", "words"),
    [
        ([s(1, deps=[2]), s(2, deps=[1])], "cycle: 1 -> 2 -> 1"),
        ([s(1, deps=[9])], "depends on unknown step 9"),
    ],
)
async def test_cycle_or_missing_dependency_is_refused_as_deadlock(steps: list[Any], words: str) -> None:
    domain, events = Scripted(), Events()
    report = await controller(domain).run(
        intent(), plan=plan(*steps), context={"run_id": "r1"}, on_event=events
    )
    assert report.status is RunStatus.DEADLOCK
    assert report.reason is not None and words in report.reason
    assert report.answer.startswith("O plano não pode ser executado")
    assert domain.calls == [] and events.runs() == ["deadlock"]


async def test_plan_deadline_gives_timeout_cancels_in_flight_and_skips_pending() -> None:
    domain, events = Scripted(delay=0.3), Events()
    report = await controller(domain, deadline_s=0.05).run(
        intent(), plan=plan(s(1), s(2, deps=[1])), context={}, on_event=events
    )
    assert report.status is RunStatus.TIMEOUT
    assert [t.status for t in report.steps] == [RunStatus.CANCELLED, RunStatus.SKIPPED]
    assert events.runs() == ["executing", "timeout"]
    assert events.steps(1) == ["executing", "cancelled"] and events.steps(2) == ["skipped"]
    assert "demorou demais" in report.answer


async def test_every_step_and_run_status_change_is_an_event() -> None:
    domain, events = Scripted(), Events()
    report = await controller(domain).run(
        intent(), plan=plan(s(1), s(2, deps=[1])), context={}, on_event=events
    )
    assert report.status is RunStatus.COMPLETED
    assert events.runs() == ["executing", "completed"]
    assert events.steps(1) == ["executing", "completed"] and events.steps(2) == ["executing", "completed"]
    settled = [e for e in events if isinstance(e, StepEvent) and e.status == "completed"]
    assert [e.decision for e in settled] == ["next_step", "last_step_completed"]


# ------------------------------------------------------------------ validation and retry


async def test_settled_steps_of_an_earlier_run_are_kept_and_feed_the_steps_that_waited() -> None:
    """A plan that paused for the person goes on: what settled before is not called again, and
    the step that waited reads it through its reference."""
    earlier = StepTrace(
        id=1, domain="market", capability="quote", status=RunStatus.COMPLETED, output=ok("A: 1.0")
    )
    waiting_before = StepTrace(id=2, domain="market", capability="news", status=RunStatus.PENDING)
    domain = Scripted()
    paused = plan(s(1, symbol="A"), s(2, "news", deps=[1], text="${1.explanation}"), combine="report")
    report = await controller(domain).run(
        intent(), plan=paused, context={"run_id": "r"}, resume={1: earlier, 2: waiting_before, 9: earlier}
    )
    assert report.status is RunStatus.COMPLETED
    assert [c.capability for c in domain.calls] == ["news"]  # step 1 is not called again
    assert domain.calls[0].parameters == {"text": "A: 1.0"}
    assert [(t.id, t.status) for t in report.steps] == [(1, RunStatus.COMPLETED), (2, RunStatus.COMPLETED)]


async def test_invalid_output_is_retried_with_a_fresh_key_then_accepted() -> None:
    bad = DomainOutput(status="success", result={"symbol": "A", "price": "cheap"}, explanation="A: cheap")
    domain = Scripted({"quote": [bad, ok("A: 1.0")]})
    report = await controller(domain).run(intent(), plan=plan(s(1)), context={"run_id": "r"})
    assert report.status is RunStatus.COMPLETED and report.answer == "A: 1.0"
    assert report.steps[0].attempts == 2
    assert [c.idempotency_key for c in domain.call_contexts] == ["r:1", "r:1:v1"]
    assert all("idempotency_suffix" not in c.context for c in domain.calls)  # not the domain's business


async def test_output_that_never_validates_fails_with_the_field_path() -> None:
    bad = DomainOutput(status="success", result={"symbol": "A"}, explanation="A")
    domain = Scripted({"quote": [bad]})
    report = await controller(domain).run(intent(), plan=plan(s(1)), context={})
    assert report.status is RunStatus.FAILED and report.steps[0].attempts == 3
    assert report.steps[0].error == "invalid output: result: 'price' is a required property"


async def test_validation_fn_hook_rejects_with_its_reason() -> None:
    def must_be_positive(
        context: StepContext, capability: Capability | None, output: DomainOutput
    ) -> bool | str:
        return output.result.get("price", 0) > 0 or "price must be positive"

    domain = Scripted({"quote": [ok("A: 0", symbol="A", price=0.0)]})
    rc = controller(domain, hooks=Hooks(validation_fn=must_be_positive), policies={"quote": {"attempts": 2}})
    report = await rc.run(intent(), plan=plan(s(1)), context={})
    assert report.steps[0].error == "invalid output: price must be positive" and len(domain.calls) == 2


async def test_unreachable_idempotent_capability_is_retried_reusing_the_key() -> None:
    domain = Scripted({"quote": [DomainUnavailable("connection reset"), ok()]})
    report = await controller(domain).run(intent(), plan=plan(s(1)), context={"run_id": "r"})
    assert report.status is RunStatus.COMPLETED and report.steps[0].attempts == 2
    assert [c.idempotency_key for c in domain.call_contexts] == ["r:1", "r:1"]


async def test_non_idempotent_capability_is_not_retried_after_a_possible_delivery() -> None:
    domain = Scripted({"send": [DomainUnavailable("read timeout"), ok("sent")]})
    report = await controller(domain).run(intent(), plan=plan(s(1, "send", domain="notifier")), context={})
    assert report.status is RunStatus.FAILED and domain.count("send") == 1
    assert report.steps[0].attempts == 1 and report.steps[0].error == "read timeout"


async def test_non_idempotent_capability_is_retried_when_the_call_never_left() -> None:
    refused = DomainUnavailable("could not connect", details={"delivered": False})
    domain = Scripted({"send": [refused, ok("sent")]})
    report = await controller(domain).run(intent(), plan=plan(s(1, "send", domain="notifier")), context={})
    assert report.status is RunStatus.COMPLETED and domain.count("send") == 2


async def test_step_timeout_from_the_capability_policy() -> None:
    domain = Scripted(delay=0.3)
    rc = controller(domain, policies={"slow": {"timeout_s": 0.02, "attempts": 1}})
    report = await rc.run(intent(), plan=plan(s(1, "slow")), context={})
    assert report.status is RunStatus.FAILED
    assert report.steps[0].error == "'market' did not answer slow within 0.02 s"


# ------------------------------------------------------------------ replanning


async def test_recoverable_failure_with_suggestions_replans_and_reissues_the_step() -> None:
    first = not_found("Aple", suggestions=[{"symbol": "AAPL"}])
    domain, events = Scripted({"quote": [first, ok("Apple: 190", symbol="AAPL", price=190.0)]}), Events()
    report = await controller(domain).run(
        intent(),
        plan=plan(
            s(1, symbol_text="Aple"),
            s(2, "send", deps=[1], required=False, domain="notifier", message="${1.explanation}"),
        ),
        context={"run_id": "r9"},
        on_event=events,
    )
    assert report.status is RunStatus.COMPLETED and report.replans == 1
    assert events.runs() == ["executing", "replanning", "executing", "completed"]
    quotes = [i for i, c in enumerate(domain.calls) if c.capability == "quote"]
    second = domain.calls[quotes[1]]
    assert second.parameters == {"symbol_text": "Aple", "symbol": "AAPL"}
    assert domain.call_contexts[quotes[1]].idempotency_key == "r9:1:r1"
    assert "idempotency_suffix" not in second.context and second.context["run_id"] == "r9"
    sent = [c for c in domain.calls if c.capability == "send"]
    assert len(sent) == 1 and sent[0].parameters["message"] == "Apple: 190"


async def test_same_failure_after_a_replan_is_stagnated() -> None:
    domain = Scripted({"quote": [not_found("Aple", suggestions=[{"symbol": "AAPL"}, {"symbol": "APLE"}])]})
    report = await controller(domain, max_replans=3).run(
        intent(), plan=plan(s(1, symbol_text="Aple")), context={}
    )
    assert report.status is RunStatus.STAGNATED and report.replans == 1
    assert report.reason == "step 1 (quote) failed again with symbol_not_found"
    assert report.answer == "Parei: o novo plano falhou do mesmo jeito (I could not find 'Aple')."


async def test_past_max_replans_the_run_fails_plainly_in_the_persons_language() -> None:
    price_gone = DomainOutput(
        status="failure",
        explanation="No price for AAPL.",
        failure=Failure(reason="no_price", recoverable=True),
    )
    domain = Scripted({"quote": [not_found("Aple", suggestions=[{"symbol": "AAPL"}]), price_gone]})
    report = await controller(domain).run(
        intent("what is the price of Aple?", language="en"), plan=plan(s(1, symbol_text="Aple")), context={}
    )
    assert report.status is RunStatus.FAILED and report.replans == 1
    assert report.reason == "max_replans_exceeded: No price for AAPL."
    assert (
        report.answer == "I could not complete the request after 1 replanning attempt(s): No price for AAPL."
    )


async def test_recoverable_failure_without_a_way_forward_gives_up() -> None:
    domain = Scripted({"quote": [not_found("Zzz")]})
    report = await controller(domain).run(intent(), plan=plan(s(1, symbol_text="Zzz")), context={})
    assert report.status is RunStatus.FAILED and report.replans == 1
    # the trace keeps the operator's reason; the person is told what the domain said
    assert report.reason == "no alternative plan after step 1 failed: I could not find 'Zzz'."
    assert report.answer == "Não consegui concluir o pedido: I could not find 'Zzz'."


async def test_override_sends_a_failure_to_replanning_which_drops_the_failed_branch() -> None:
    rule = TransitionOverride.model_validate(
        {
            "when_status": "failed",
            "if": "output.failure.reason == 'symbol_not_found'",
            "goto": "replanning",
        }
    )
    failing = DomainOutput(
        status="failure", explanation="unknown Zzz", failure=Failure(reason="symbol_not_found")
    )
    domain = Scripted({"news": [failing]})
    report = await controller(domain, hooks=Hooks(transition_overrides=[rule])).run(
        intent(), plan=plan(s(1), s(2, "news"), mode="parallel", combine="report"), context={}
    )
    assert report.status is RunStatus.COMPLETED and report.replans == 1
    assert domain.count("news") == 1 and domain.count("quote") == 1  # nothing ran twice
    assert report.synthesis is not None and [g.step for g in report.synthesis.gaps] == [2]


async def test_override_to_a_terminal_status_ends_the_run() -> None:
    rule = TransitionOverride.model_validate(
        {"when_status": "completed", "if": "output.result.price == `10.0`", "goto": "failed"}
    )
    report = await controller(Scripted(), hooks=Hooks(transition_overrides=[rule])).run(
        intent(), plan=plan(s(1)), context={}
    )
    assert report.status is RunStatus.FAILED
    assert report.reason == "transition override: step 1 completed -> failed"


# ------------------------------------------------------------------ policy and hooks


@pytest.mark.parametrize(
    ("policy", "words", "calls"),
    [
        (ContextPolicy(max_steps=1), "policy max_steps: the plan has 2 steps (limit 1)", 0),
        (ContextPolicy(max_domain_calls=1), "policy max_domain_calls: calling quote would exceed 1", 1),
        (ContextPolicy(max_payload_bytes=20), "policy max_payload_bytes: output of step 1", 1),
    ],
)
async def test_context_policy_stops_the_run_cleanly(policy: ContextPolicy, words: str, calls: int) -> None:
    domain = Scripted()
    report = await controller(domain, policy=policy).run(
        intent(), plan=plan(s(1), s(2, deps=[1])), context={}
    )
    assert report.status is RunStatus.FAILED
    assert report.reason is not None and words in report.reason
    assert len(domain.calls) == calls
    assert report.answer.startswith("O pedido foi interrompido por um limite de execução")


async def test_policy_plan_duration_fails_rather_than_times_out() -> None:
    report = await controller(Scripted(delay=0.3), policy=ContextPolicy(max_plan_duration_s=0.05)).run(
        intent(), plan=plan(s(1)), context={}
    )
    assert report.status is RunStatus.FAILED
    assert report.reason == "policy max_plan_duration_s: the plan did not finish within 0.05 s"


async def test_post_resolve_hook_overrides_the_resolver() -> None:
    def always_news(_: Any, ei: ExecutionIntent) -> ExecutionIntent | None:
        return ei.model_copy(update={"capability": "news", "capabilities": ["news"]})

    domain = Scripted()
    ei = ExecutionIntent(
        domain="market", capability="quote", capabilities=["quote"], parameters={"symbol_text": "A"}
    )
    report = await controller(domain, hooks=Hooks(post_resolve_hook=always_news)).run(
        intent(), ei, None, context={}
    )
    assert report.status is RunStatus.COMPLETED and [c.capability for c in domain.calls] == ["news"]


# ------------------------------------------------------------------ domain faults


async def test_down_domain_fails_required_steps_fast_and_skips_optional_ones() -> None:
    domain, events = Scripted(), Events()
    rc = controller(domain, availability=lambda d: "circuit open" if d == "notifier" else None)
    report = await rc.run(
        intent(),
        plan=plan(
            s(1),
            s(2, "send", domain="notifier", required=False),
            s(3, "send", domain="notifier"),
            combine="report",
        ),
        context={},
        on_event=events,
    )
    assert [t.status for t in report.steps] == [RunStatus.COMPLETED, RunStatus.SKIPPED, RunStatus.FAILED]
    assert report.steps[2].error == "O serviço 'notifier' não está acessível no momento."
    assert [c.capability for c in domain.calls] == ["quote"]
    assert events.steps(3) == ["failed"]
    assert report.status is RunStatus.COMPLETED  # the run still answers, naming the gaps
    # the domain's reason once, in the person's words, for both steps it stopped
    down = "O serviço 'notifier' não está acessível no momento."
    assert report.answer == f"X: 10.0\nNão consegui responder:\n- {down}"


# ------------------------------------------------------------------ forks, synthesis, language


async def test_independent_branches_run_as_isolated_forks() -> None:
    seen: dict[str, list[str]] = {}

    class Noting(Scripted):
        async def __call__(self, ei: ExecutionIntent, step: Any, call: CallContext) -> DomainOutput:
            ei.context["notes"].append(ei.capability)
            seen[ei.capability] = list(ei.context["notes"])
            return await super().__call__(ei, step, call)

    rc = RunController(catalog(), Noting())
    report = await rc.run(
        intent(),
        plan=plan(s(1), s(2, "news", deps=[1]), s(3, "slow"), mode="parallel", combine="report"),
        # a key no caller sets, mutable, to watch each fork's own copy
        context={"notes": []},  # type: ignore[arg-type]
    )
    # a branch sees its own context changes, never another branch's
    assert seen == {"quote": ["quote"], "news": ["quote", "news"], "slow": ["slow"]}
    assert report.status is RunStatus.COMPLETED


async def test_report_synthesis_names_gaps_in_english() -> None:
    domain = Scripted({"news": [DomainOutput(status="failure", explanation="feed down")]})
    report = await controller(domain).run(
        intent("price and news", language="en"), plan=plan(s(1), s(2, "news"), combine="report"), context={}
    )
    assert report.synthesis is not None and report.synthesis.strategy == "concat"
    assert report.answer == "X: 10.0\nCould not answer:\n- feed down"
    assert report.synthesis.confidence == 0.5


async def test_language_is_detected_when_the_context_has_none() -> None:
    domain = Scripted({"quote": [not_found("Zzz")]})
    report = await controller(domain, max_replans=0).run(
        intent("what is the price of Zzz?", language="pt"), plan=plan(s(1)), context={}
    )
    assert report.answer.startswith("I could not complete the request after 0 replanning")


async def test_one_capability_without_a_plan_is_planned_as_one_step() -> None:
    domain, events = Scripted(), Events()
    ei = ExecutionIntent(
        domain="market", capability="quote", capabilities=["quote"], parameters={"symbol_text": "B"}
    )
    report = await controller(domain).run(intent(), ei, None, context={}, on_event=events)
    assert report.status is RunStatus.COMPLETED and report.answer == "B: 10.0"
    assert report.plan is not None and [s.params for s in report.plan.steps] == [{"symbol_text": "B"}]
    assert report.steps[0].attempts == 1


async def test_one_capability_without_a_plan_is_replanned_after_a_recoverable_failure() -> None:
    """What a direct call would lose: the domain's "did you mean" is followed."""
    first = not_found("Aple", suggestions=[{"symbol": "AAPL"}])
    domain = Scripted({"quote": [first, ok("Apple: 190", symbol="AAPL", price=190.0)]})
    ei = ExecutionIntent(
        domain="market", capability="quote", capabilities=["quote"], parameters={"symbol_text": "Aple"}
    )
    report = await controller(domain).run(intent(), ei, None, context={})
    assert report.status is RunStatus.COMPLETED and report.replans == 1 and domain.count("quote") == 2


# ------------------------------------------------------------------ without a planner


async def test_without_a_planner_a_request_without_a_plan_is_a_planning_error() -> None:
    domain = Scripted()
    ei = ExecutionIntent(domain="market", capability="quote", capabilities=["quote"])
    report = await controller(domain, planner=None).run(intent(), ei, None, context={})
    assert report.status is RunStatus.FAILED and report.decision == "planning_error"
    assert report.reason is not None and "no planner" in report.reason and domain.calls == []


async def test_without_a_planner_a_recoverable_failure_is_final() -> None:
    domain = Scripted({"quote": [not_found("Aple", suggestions=[{"symbol": "AAPL"}])]})
    report = await controller(domain, planner=None).run(
        intent(), plan=plan(s(1, symbol_text="Aple")), context={}
    )
    assert report.status is RunStatus.FAILED and domain.count("quote") == 1
    assert report.reason == "no alternative plan after step 1 failed: I could not find 'Aple'."


# ------------------------------------------------------------------ typed failures


async def test_a_domain_known_to_be_down_fails_an_unplanned_call_without_calling_it() -> None:
    domain = Scripted()
    ei = ExecutionIntent(
        domain="market", capability="quote", capabilities=["quote"], parameters={"symbol_text": "B"}
    )
    report = await controller(domain, availability=lambda d: "circuit open").run(
        intent(), ei, None, context={}
    )
    assert report.status is RunStatus.FAILED and domain.calls == []
    assert report.steps[0].error == "O serviço 'market' não está acessível no momento."
    assert report.output is not None and report.output.failure is not None
    assert not report.output.failure.recoverable


async def test_an_output_that_never_validates_is_a_typed_invalid_output_failure() -> None:
    domain = Scripted({"quote": [DomainOutput(status="success", result={"symbol": "A"}, explanation="A")]})
    report = await controller(domain).run(intent(), plan=plan(s(1)), context={})
    output = report.steps[0].output
    assert output is not None and output.failure is not None
    assert output.failure.reason == "invalid_output" and not output.recoverable
    assert "error" not in output.metadata and output.metadata["rejected"]["result"] == {"symbol": "A"}


async def test_suggestions_alone_make_a_failure_worth_replanning() -> None:
    """The typed ``recoverable`` reads suggestions too: a domain that says "did you mean" is heard
    even when it does not flag the failure recoverable."""
    suggested = DomainOutput(
        status="failure",
        explanation="unknown Aple",
        failure=Failure(reason="symbol_not_found", suggestions=[{"symbol": "AAPL"}]),
    )
    domain = Scripted({"quote": [suggested, ok("Apple: 190")]})
    report = await controller(domain).run(intent(), plan=plan(s(1, symbol_text="Aple")), context={})
    assert report.status is RunStatus.COMPLETED and report.replans == 1
    assert domain.calls[1].parameters["symbol"] == "AAPL"
