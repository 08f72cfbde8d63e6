"""The optional LLM planner (plan-and-execute over the catalog), off unless ``PLANNER_LLM`` is
set: :func:`build_run_planner` wires it into the run loop, :func:`plan_with_llm` is what the
dialogue calls before a turn runs. See docs/planning.md."""

from planner.llm.planner import LlmPlanner, Planned, PlanRequest
from planner.llm.run_planner import LlmRunPlanner, build_run_planner, plan_with_llm
from planner.llm.settings import PlannerLlmSettings

__all__ = [
    "LlmPlanner",
    "LlmRunPlanner",
    "PlanRequest",
    "Planned",
    "PlannerLlmSettings",
    "build_run_planner",
    "plan_with_llm",
]
