"""Turn the steps' outputs into the one ``DomainOutput`` a turn answers with.

Steps arrive in topological order (dependencies first, then plan order).

* ``last``   -> the last successful step's output.
* ``report`` -> every step's explanation, one per line; ``result={"steps": [...]}``; success when
  any required step succeeded (so one unknown company in a list of three still answers).
* ``merge``  -> the successful steps' results dict-merged (later steps win a key clash).

Whatever the mode, a step asking for clarification wins (the run waits for the person), and for
``last``/``merge`` a failed required step makes the answer that failure (a step its condition
switched off is no failure).
"""

from __future__ import annotations

from shared.models import CombineMode, DomainOutput, ExecutionStep, Failure, StepTrace
from shared.status import RunStatus


def combine(mode: CombineMode, steps: list[ExecutionStep], traces: dict[int, StepTrace]) -> DomainOutput:
    ordered = [traces[s.id] for s in steps]
    required = {s.id: s.required for s in steps}
    waiting = [t for t in ordered if t.status is RunStatus.WAITING_INPUT and t.output is not None]
    if waiting:
        return waiting[0].output  # type: ignore[return-value]  # filtered on not None above
    succeeded = [t for t in ordered if t.status is RunStatus.COMPLETED and t.output is not None]
    if mode == "report":
        return _report(ordered, required, succeeded)
    failed = [
        t
        for t in ordered
        # a step its condition switched off did what the plan asked: nothing
        if required[t.id] and t.status in (RunStatus.FAILED, RunStatus.SKIPPED) and not t.skipped_by_condition
    ]
    if failed:
        return failed[0].output or _failure(failed[0])
    if not succeeded:
        return DomainOutput(
            status="failure", explanation="No step produced an answer.", failure=Failure(reason="no_answer")
        )
    if mode == "last":
        return succeeded[-1].output  # type: ignore[return-value]
    merged: dict = {}
    for trace in succeeded:
        merged.update(trace.output.result)  # type: ignore[union-attr]
    return DomainOutput(
        status="success",
        result=merged,
        explanation="\n".join(t.output.explanation for t in succeeded if t.output and t.output.explanation),
        confidence=min(t.output.confidence for t in succeeded if t.output),
        metadata={"combine_mode": "merge", "steps": [t.id for t in succeeded]},
    )


def _report(ordered: list[StepTrace], required: dict[int, bool], succeeded: list[StepTrace]) -> DomainOutput:
    # a skipped step says nothing to the person; a step that failed without output says why
    lines = [
        t.output.explanation if t.output else (t.error or "") if t.status is RunStatus.FAILED else ""
        for t in ordered
    ]
    switched_off = {t.id for t in ordered if t.skipped_by_condition}
    counted = {i for i, r in required.items() if r and i not in switched_off}
    wanted = [t for t in succeeded if t.id in counted] if counted else succeeded
    return DomainOutput(
        status="success" if wanted else "failure",
        result={
            "steps": [
                {
                    "id": t.id,
                    "domain": t.domain,
                    "capability": t.capability,
                    "status": t.status.value,
                    "explanation": t.output.explanation if t.output else (t.error or ""),
                    "result": t.output.result if t.output else {},
                }
                for t in ordered
            ]
        },
        explanation="\n".join(line for line in lines if line),
        confidence=min((t.output.confidence for t in succeeded if t.output), default=0.0),
        metadata={"combine_mode": "report"},
    )


def _failure(trace: StepTrace) -> DomainOutput:
    return DomainOutput(
        status="failure",
        explanation=trace.error or f"Step {trace.id} ({trace.capability}) did not run.",
        failure=Failure(reason="step_failed" if trace.status is RunStatus.FAILED else "step_skipped"),
        metadata={"step": trace.id},
    )
