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

import json
from functools import lru_cache
from typing import Any

import jsonschema
import jsonschema_rs

from execution.policy import ValidationFn
from shared.manifest import Capability
from shared.models import DomainOutput


class _Validators:
    """One schema, two validators: the fast jsonschema-rs answers "valid?" on every step;
    jsonschema words the problem when there is one (its ``best_match`` picks the most relevant
    error, e.g. inside an ``anyOf``)."""

    __slots__ = ("check", "explain")

    def __init__(self, schema: dict[str, Any]):
        self.check = jsonschema_rs.Draft202012Validator(schema)
        self.explain = jsonschema.Draft202012Validator(schema)


@lru_cache(maxsize=256)
def _validators_for(schema_json: str) -> _Validators:
    return _Validators(json.loads(schema_json))


#: id(schema) -> (schema, validators): a manifest's schema dict is checked on every call, and
#: serialising it for the key above costs more than validating a small result. The schema is
#: kept referenced so its id cannot be reused while cached.
_by_identity: dict[int, tuple[dict[str, Any], _Validators]] = {}
_MAX_BY_IDENTITY = 256


def _validators(schema: dict[str, Any]) -> _Validators:
    hit = _by_identity.get(id(schema))
    if hit is not None and hit[0] is schema:
        return hit[1]
    if len(_by_identity) >= _MAX_BY_IDENTITY:
        _by_identity.clear()
    validators = _validators_for(json.dumps(schema, sort_keys=True))
    _by_identity[id(schema)] = (schema, validators)
    return validators


def schema_problem(schema: dict[str, Any], result: dict[str, Any]) -> str | None:
    validators = _validators(schema)
    if validators.check.is_valid(result):
        return None
    error = jsonschema.exceptions.best_match(validators.explain.iter_errors(result))
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
    if output.status == "success" and capability is not None and capability.output_schema:
        problem = schema_problem(capability.output_schema, output.result)
        if problem is not None:
            return problem
    if validation_fn is not None:
        verdict = validation_fn(context, capability, output)
        if verdict is False:
            return "rejected by validation_fn"
        if isinstance(verdict, str) and verdict:
            return verdict
    return None
