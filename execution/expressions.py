"""Evaluating conditions and selections (syntax and parsing in :mod:`shared.expressions`) over
the outputs of the steps that ran.

>>> from shared.models import DomainOutput
>>> outputs = {1: DomainOutput(status="success", result={"movers": [
...     {"symbol": "VALE3", "change_pct": 2.1}, {"symbol": "PETR4", "change_pct": 3.4}]})}
>>> evaluate(compile_expression("max_by(step1.result.movers, &change_pct).symbol"), outputs)
'PETR4'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import jmespath.exceptions
from jmespath.parser import ParsedResult

from shared.expressions import (
    OPEN,
    Expression,
    ExpressionError,
    compile_expression,
    expressions_in,
    split_text,
    steps_named,
    truthy,
)
from shared.models import DomainOutput

__all__ = [
    "OPEN",
    "Expression",
    "ExpressionError",
    "compile_expression",
    "document",
    "evaluate",
    "expressions_in",
    "search",
    "split_text",
    "steps_named",
    "truthy",
]

_OUTPUT_FIELDS = ("status", "result", "explanation", "confidence", "metadata")


def document(outputs: Mapping[int, DomainOutput]) -> dict[str, Any]:
    """The document expressions read: ``{"step1": {...}, ...}`` for the steps with an output."""
    return {
        f"step{step_id}": output.model_dump(mode="json", include=set(_OUTPUT_FIELDS))
        for step_id, output in outputs.items()
    }


def evaluate(parsed: ParsedResult, outputs: Mapping[int, DomainOutput]) -> Any:
    """The expression's value over ``outputs``; ``ExpressionError`` when JMESPath cannot compute
    it (a function given the wrong type, comparing text with a number...)."""
    return search(parsed, document(outputs))


def search(parsed: ParsedResult, data: Any) -> Any:
    """The expression's value over any JSON-like ``data`` (a step's trace for a transition
    override); ``ExpressionError`` as :func:`evaluate`."""
    try:
        return parsed.search(data)
    except (jmespath.exceptions.JMESPathError, TypeError, ValueError) as exc:
        raise ExpressionError(
            f"expression {parsed.expression!r} failed: {_first_line(exc)}", param=parsed.expression
        ) from None


def _first_line(exc: Exception) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
