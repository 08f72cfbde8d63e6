"""The deterministic DAG engine: runs an ``ExecutionPlan`` step by step (``execution.dag``),
resolving ``${N.field}`` references (``execution.references``) and combining outputs
(``execution.combine``). ``execution.graph`` is the separate graph engine."""

from execution.dag import DagExecutor, ExecutionReport, StepRunner

__all__ = ["DagExecutor", "ExecutionReport", "StepRunner"]
