"""Is a step's output what the capability promised?

Two checks, in order: the capability's declared ``output_schema`` (JSON Schema of
``DomainOutput.result``, checked on ``success`` only: a failure or a question carries no promised
shape), then the optional ``validation_fn`` hook. The answer is ``None`` (valid) or a one-line
reason with the field path.

>>> from shared.manifest import Capability
>>> cap = Capability(name="q", description="quote", output_schema={"type": "object",
...     "properties": {"price": {"type": "number"}}, "required": ["price"]})
>>> check_output(cap, DomainOutput(status="success", result={"price": "cheap"}), {})
"result.price: 'cheap' is not of type 'number'"
"""

from __future__ import annotations

from typing import Any

import jsonschema

from execution.policy import StepContext, ValidationFn
from shared.json_schema import SchemaValidators
from shared.manifest import Capability
from shared.models import DomainOutput


def schema_problem(compiled: SchemaValidators, result: dict[str, Any]) -> str | None:
    if compiled.check.is_valid(result):
        return None
    error = jsonschema.exceptions.best_match(compiled.explain.iter_errors(result))
    if error is None:
        return None
    path = ".".join(str(p) for p in error.absolute_path)
    return f"result{'.' + path if path else ''}: {error.message}"


def check_output(
    capability: Capability | None,
    output: DomainOutput,
    context: dict[str, Any],
    validation_fn: ValidationFn | None = None,
) -> str | None:
    compiled = capability.output_validators if capability is not None else None
    if output.status == "success" and compiled is not None:
        problem = schema_problem(compiled, output.result)
        if problem is not None:
            return problem
    if validation_fn is not None:
        verdict = validation_fn(StepContext.of(context), capability, output)
        if verdict is False:
            return "rejected by validation_fn"
        if isinstance(verdict, str) and verdict:
            return verdict
    return None
