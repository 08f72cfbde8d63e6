"""The structure of a plan: each step's dependencies (declared, referenced with ``${N.field}``,
read by a condition or a selection), and the checks that it can finish at all: known steps, no
cycle, expressions that parse and read only steps listed before theirs. The planner validates
proposed plans with it; the executor refuses to start one that fails it.
"""

from __future__ import annotations

from shared.errors import PlanError
from shared.expressions import ExpressionError, compile_expression, expressions_in, steps_named
from shared.models import ExecutionPlan, ExecutionStep
from shared.references import references


class PlanDeadlock(PlanError):
    """The plan can never finish: a ``depends_on`` cycle or a dependency on a missing step."""


def validate_plan(plan: ExecutionPlan) -> dict[int, set[int]]:
    """Return each step's dependencies (declared + referenced); raise ``PlanError`` for duplicate
    ids, unknown dependencies or references, and cycles (naming the cycle)."""
    if not plan.steps:
        raise PlanError("the plan has no steps", param="steps")
    ids = [s.id for s in plan.steps]
    if len(set(ids)) != len(ids):
        raise PlanError(f"duplicate step ids in {ids}", param="steps")
    deps: dict[int, set[int]] = {}
    for index, step in enumerate(plan.steps):
        declared, referenced = set(step.depends_on), references(step.params)
        for dep in sorted(declared - set(ids)):
            raise PlanDeadlock(
                f"step {step.id} depends on unknown step {dep}", param=f"steps.{index}.depends_on"
            )
        for ref in sorted(referenced - set(ids)):
            raise PlanDeadlock(f"step {step.id} references unknown step {ref}", param=f"steps.{index}.params")
        earlier = set(ids[:index])
        deps[step.id] = declared | referenced | _expression_steps(step, index, earlier)
    _reject_cycles(deps)
    return deps


def _expression_steps(step: ExecutionStep, index: int, earlier: set[int]) -> set[int]:
    """The steps ``step``'s condition and selections read; each must parse and name only steps
    listed before it (an expression is read once those have settled)."""
    found: set[int] = set()
    sources = [("when", step.when)] if step.when is not None else []
    sources += [("params", text) for text in expressions_in(step.params)]
    for where, text in sources:
        named = steps_named(compile_expression(text))
        for ref in sorted(named - earlier):
            whose = "condition" if where == "when" else "selection"
            raise ExpressionError(
                f"step {step.id}'s {whose} {text!r} reads step{ref}, which is not a step listed before it",
                param=f"steps.{index}.{where}",
            )
        found |= named
    return found


def _reject_cycles(deps: dict[int, set[int]]) -> None:
    state: dict[int, int] = {}  # 1 = on the current path, 2 = done

    def visit(node: int, path: list[int]) -> None:
        state[node] = 1
        for dep in sorted(deps[node]):
            if state.get(dep) == 1:
                cycle = [*path[path.index(dep) :], dep] if dep in path else [node, dep]
                raise PlanDeadlock(f"the plan has a cycle: {' -> '.join(map(str, cycle))}", param="steps")
            if dep not in state:
                visit(dep, [*path, dep])
        state[node] = 2

    for node in sorted(deps):
        if node not in state:
            visit(node, [node])
