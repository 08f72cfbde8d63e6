"""analyzeResult: each of the seven stop cases and three continue cases."""

from __future__ import annotations

import pytest

from execution.analysis import Observation, analyze_result
from shared.status import RunStatus

CASES = [
    # (observation, case, is_complete, is_successful, should_continue)
    (Observation(has_plan=False), "no_plan", True, True, False),
    (Observation(plan_status=RunStatus.WAITING_INPUT, current_step=1), "waiting_input", True, True, False),
    (Observation(final_answer="42", current_step=1), "final_answer", True, True, False),
    (Observation(current_step=None), "no_current_step", True, True, False),
    (
        Observation(current_step=2, failure="definitive", failure_reason="permission_denied"),
        "definitive_failure",
        True,
        False,
        False,
    ),
    (Observation(current_step=3, remaining_steps=0), "last_step_completed", True, True, False),
    (Observation(planning_error="cycle 1 -> 2 -> 1"), "planning_error", True, False, False),
    (
        Observation(current_step=1, failure="recoverable", replans=0, max_replans=1),
        "replanning",
        False,
        False,
        True,
    ),
    (Observation(current_step=1, remaining_steps=2), "next_step", False, True, True),
    (
        Observation(current_step=1, remaining_steps=1, failure="optional"),
        "recoverable_failure",
        False,
        False,
        True,
    ),
]


@pytest.mark.parametrize(("obs", "case", "complete", "successful", "go_on"), CASES, ids=[c[1] for c in CASES])
def test_each_case(obs: Observation, case: str, complete: bool, successful: bool, go_on: bool) -> None:
    result = analyze_result(obs)
    assert (result.case, result.is_complete, result.is_successful, result.should_continue) == (
        case,
        complete,
        successful,
        go_on,
    )
    assert result.feedback


def test_seven_stop_and_three_continue_cases() -> None:
    results = [analyze_result(c[0]) for c in CASES]
    assert sum(r.is_complete for r in results) == 7
    assert sum(r.should_continue for r in results) == 3


def test_recoverable_failure_past_the_bound_is_definitive_max_replans_exceeded() -> None:
    result = analyze_result(
        Observation(
            current_step=1, failure="recoverable", failure_reason="symbol_not_found", replans=1, max_replans=1
        )
    )
    assert result.case == "definitive_failure" and not result.should_continue
    assert result.feedback == "max_replans_exceeded: symbol_not_found"


def test_final_answer_feedback_is_the_answer_and_waiting_input_beats_it() -> None:
    assert (
        analyze_result(Observation(final_answer="Petrobras: R$ 38", current_step=1)).feedback
        == "Petrobras: R$ 38"
    )
    waiting = Observation(plan_status=RunStatus.WAITING_INPUT, final_answer="x", current_step=1)
    assert analyze_result(waiting).case == "waiting_input"
