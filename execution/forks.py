"""Forks and merge (seed 002 ``ParallelPlanning`` -> ``ForkDispatch`` -> ``ForkContract`` -> ``Merge``).

* :func:`independent_branches` is ``ParallelPlanningState``: the plan's weakly connected
  components. One component = the "single" strategy (no fork); several = "parallel".
* The executor dispatches each branch as its own run over an ISOLATED copy of the run state
  (its own outputs, a deep copy of the context): a branch can neither read nor clobber another's
  state. That is ``ForkDispatchState``.
* A finished branch is reduced to a :class:`ForkContract` by a :data:`ContractStrategy`:
  ``simple`` (a text summary) or ``epistemic`` (claims with evidence and confidence, plus what
  stayed uncertain). That is ``ForkContractState``.
* :class:`MergeState` gathers the contracts, in branch order, for synthesis.

>>> from shared.models import ExecutionStep as S
>>> steps = [S(id=1, domain="d", capability="a"), S(id=2, domain="d", capability="b", depends_on=[1]),
...          S(id=3, domain="d", capability="c")]
>>> [[s.id for s in b] for b in independent_branches(steps, {1: set(), 2: {1}, 3: set()})]
[[1, 2], [3]]
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Literal

from pydantic import BaseModel, Field

from shared.models import ExecutionStep, StepTrace
from shared.status import RunStatus

ContractKind = Literal["simple", "epistemic"]


def independent_branches(
    steps: Sequence[ExecutionStep], deps: Mapping[int, set[int]]
) -> list[list[ExecutionStep]]:
    """The plan's independent sub-graphs (weakly connected components), each in plan order,
    ordered by their first step."""
    parent = {s.id: s.id for s in steps}

    def root(node: int) -> int:
        while parent[node] != node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    for step in steps:
        for dep in deps.get(step.id, set()):
            if dep in parent:
                parent[root(step.id)] = root(dep)
    groups: dict[int, list[ExecutionStep]] = {}
    for step in steps:
        groups.setdefault(root(step.id), []).append(step)
    return list(groups.values())


class Claim(BaseModel):
    claim: str
    evidence: list[str] = Field(default_factory=list)
    confidence: float = Field(ge=0.0, le=1.0)


class ForkContract(BaseModel):
    """What one branch found, in the shape the merge and the synthesis read."""

    branch: int
    steps: list[int]
    strategy: ContractKind
    status: RunStatus
    summary: str = ""
    claims: list[Claim] = Field(default_factory=list)
    uncertainty: list[str] = Field(default_factory=list)


class MergeState(BaseModel):
    """The passive aggregator: every branch's contract, in branch order."""

    contracts: list[ForkContract] = Field(default_factory=list)

    @property
    def succeeded(self) -> list[ForkContract]:
        return [c for c in self.contracts if c.status is RunStatus.COMPLETED]


ContractStrategy = Callable[[int, list[StepTrace]], ForkContract]


def _branch_status(traces: list[StepTrace]) -> RunStatus:
    if any(t.status is RunStatus.WAITING_INPUT for t in traces):
        return RunStatus.WAITING_INPUT
    if traces and all(t.status is RunStatus.COMPLETED for t in traces):
        return RunStatus.COMPLETED
    return RunStatus.FAILED


def simple_contract(branch: int, traces: list[StepTrace]) -> ForkContract:
    """Plain text: each step's explanation (or why it has none), one per line."""
    lines = [t.output.explanation if t.output else (t.error or t.status.value) for t in traces]
    return ForkContract(
        branch=branch,
        steps=[t.id for t in traces],
        strategy="simple",
        status=_branch_status(traces),
        summary="\n".join(line for line in lines if line),
    )


def epistemic_contract(branch: int, traces: list[StepTrace]) -> ForkContract:
    """Structured claims: one per successful step (the explanation, with the result's keys and the
    capability as evidence and the domain's confidence), and every unsuccessful step as an
    uncertainty."""
    claims: list[Claim] = []
    uncertainty: list[str] = []
    for trace in traces:
        if trace.status is RunStatus.COMPLETED and trace.output is not None:
            evidence = [f"{trace.domain}.{trace.capability}"] + [
                f"result.{key}" for key in sorted(trace.output.result) if not key.startswith("_")
            ]
            claims.append(
                Claim(claim=trace.output.explanation, evidence=evidence, confidence=trace.output.confidence)
            )
        else:
            uncertainty.append(
                f"step {trace.id} ({trace.capability}) {trace.status.value}: {trace.error or ''}".strip()
            )
    return ForkContract(
        branch=branch,
        steps=[t.id for t in traces],
        strategy="epistemic",
        status=_branch_status(traces),
        summary="\n".join(c.claim for c in claims if c.claim),
        claims=claims,
        uncertainty=uncertainty,
    )


CONTRACT_STRATEGIES: dict[ContractKind, ContractStrategy] = {
    "simple": simple_contract,
    "epistemic": epistemic_contract,
}


def merge(branches: list[list[StepTrace]], strategy: ContractKind = "simple") -> MergeState:
    reduce = CONTRACT_STRATEGIES[strategy]
    return MergeState(contracts=[reduce(i, traces) for i, traces in enumerate(branches, start=1)])
