"""The typed turn state: its stored form, the trace it gives, and states of earlier releases."""

from __future__ import annotations

from typing import Any

from dialogue.state import TRANSCRIPT_WINDOW, Continuation, Message, TurnState, new_turn, recent_messages
from shared.models import (
    ClarificationQuestion,
    DomainOutput,
    ExecutionIntent,
    ExecutionPlan,
    ExecutionStep,
    IntentOutput,
    ResumePoint,
    RunResult,
    StepTrace,
)
from shared.status import RunStatus

#: A session state as the untyped gateway stored it before the typed state.
UNTYPED_STATE: dict[str, Any] = {
    "messages": [
        {"role": "user", "content": "qual o preço da Nordea?", "event_id": "evt-0001", "run_id": "run-a"},
        {
            "role": "assistant",
            "content": "Qual?",
            "event_id": "evt-0002",
            "run_id": "run-a",
            "status": "waiting_input",
        },
    ],
    "memory": {
        "last_intent": {"primary_domain": "finance", "goal": "GET_QUOTE", "confidence": 0.9},
        "last_execution_intent": None,
        "last_answer": "Apple: 190.00",
        "last_outputs": [{"status": "success", "explanation": "Apple: 190.00"}],
    },
    "question": {
        "kind": "domain_clarification",
        "text": "Qual?",
        "options": [{"symbol": "NDA-SE.ST", "aliases": ["sueca"]}],
        "resume": {
            "intent": {},
            "plan": {"steps": []},
            "step_id": 1,
            "domain": "finance",
            "choice_param": "symbol",
        },
    },
    "event_count": 2,
    "input": "qual o preço da Nordea?",
    "run_id": "run-a",
    "status": "waiting_input",
}


def test_an_untyped_state_of_an_earlier_release_still_loads() -> None:
    state = TurnState.model_validate(UNTYPED_STATE)
    # the waiting question is read into its typed form: the session can still be answered
    assert isinstance(state.question, ClarificationQuestion)
    assert state.question.resume.param == "symbol"
    assert [(o.value, o.aliases) for o in state.question.options] == [("NDA-SE.ST", ["sueca"])]
    assert state.memory.last_intent is not None and state.memory.last_intent.goal == "GET_QUOTE"
    assert [m.event_id for m in state.messages] == ["evt-0001", "evt-0002"]
    assert state.event_count == 2


def test_a_stored_trace_of_an_earlier_release_still_loads() -> None:
    trace = {
        "run_id": "run-a",
        "session_id": "s",
        "status": "waiting_input",
        "question": UNTYPED_STATE["question"],
    }
    run = RunResult.model_validate(trace)
    assert isinstance(run.question, ClarificationQuestion) and run.question.options[0].value == "NDA-SE.ST"


def test_a_typed_question_survives_its_json() -> None:
    question = ClarificationQuestion(
        text="Qual?",
        resume=ResumePoint(intent=IntentOutput(goal="GET_QUOTE"), plan=ExecutionPlan(), param="x"),
    )
    state = TurnState(session_id="s", question=question)
    assert TurnState.model_validate_json(state.model_dump_json()) == state


def test_the_trace_of_a_turn_comes_from_the_state() -> None:
    turn = new_turn("run-7", "oi").model_copy(
        update={
            "answer": "Olá!",
            "status": RunStatus.COMPLETED,
            "notes": ["n"],
            "assistant_event_id": "evt-0014",
        }
    )
    run = TurnState(session_id="s", turn=turn).run_result()
    assert (run.run_id, run.session_id, run.status, run.answer, run.event_id, run.notes) == (
        "run-7",
        "s",
        RunStatus.COMPLETED,
        "Olá!",
        "evt-0014",
        ["n"],
    )


def _ran(status: RunStatus, **more: Any) -> TurnState:
    """A turn that ran one quote step and ended (or paused) in ``status``."""
    step = ExecutionStep(id=1, domain="finance", capability="get_quote", params={"symbol": "AAPL"})
    turn = new_turn("run-8", "cotação da Apple").model_copy(
        update={
            "intent": IntentOutput(primary_domain="finance", goal="GET_QUOTE", confidence=0.9),
            "execution_intent": ExecutionIntent(domain="finance", capability="get_quote"),
            "plan": ExecutionPlan(steps=[step]),
            "steps": [StepTrace(id=1, domain="finance", capability="get_quote", status=status)],
            "output": DomainOutput(status="success", explanation="Apple: 190.00"),
            "notes": ["ran"],
            "answer": "Apple: 190.00",
            "status": status,
            **more,
        }
    )
    return TurnState(session_id="s", turn=turn)


def test_a_settled_turn_is_stored_without_its_run_record_which_its_trace_keeps() -> None:
    state = _ran(RunStatus.COMPLETED)
    stored = TurnState.model_validate_json(state.model_dump_json()).turn
    assert (stored.execution_intent, stored.plan, stored.steps, stored.output, stored.notes) == (
        None,
        None,
        [],
        None,
        [],
    )
    assert (stored.run_id, stored.input, stored.status, stored.answer) == (
        "run-8",
        "cotação da Apple",
        RunStatus.COMPLETED,
        "Apple: 190.00",
    )
    assert stored.intent is not None and stored.intent.goal == "GET_QUOTE"
    # the trace is taken from the state in memory, before it is stored: it has the record
    trace = state.run_result()
    assert [s.capability for s in trace.steps] == ["get_quote"] and trace.plan is not None
    assert trace.output is not None and trace.notes == ["ran"]


def test_a_turn_that_goes_on_is_stored_whole() -> None:
    waiting = _ran(RunStatus.WAITING_INPUT)
    continued = _ran(
        RunStatus.COMPLETED,
        continue_with=Continuation(domain="research", capability="reply", reply="", step_id=1),
    )
    for state in (waiting, continued):
        stored = TurnState.model_validate_json(state.model_dump_json()).turn
        assert stored == state.turn


def test_the_transcript_keeps_a_window_of_typed_or_stored_messages() -> None:
    stored = [{"role": "user", "content": str(i), "event_id": f"evt-{i}"} for i in range(TRANSCRIPT_WINDOW)]
    new = Message(role="assistant", content="last", event_id="evt-x")
    kept = recent_messages(stored, [new])
    assert len(kept) == TRANSCRIPT_WINDOW and kept[0]["content"] == "1" and kept[-1] is new
