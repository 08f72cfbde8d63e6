"""Running plans: the DAG executor (``execution.dag``) resolves ``${N.field}`` references
(``execution.references``), evaluates conditions and ``${= ...}`` selections
(``execution.expressions``) and combines outputs (``execution.combine``); the run loop
(``execution.runner.RunController``) adds validation, retry, replanning, policies and synthesis.
Planning comes in through ``shared.planning.RunPlanner``: this package never imports ``planner``.
``graph`` is the separate graph engine."""

from execution.dag import DagExecutor, ExecutionReport, StepRunner

__all__ = ["DagExecutor", "ExecutionReport", "StepRunner"]
