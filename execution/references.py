"""Expanding ``${N.field}`` references (syntax in :mod:`shared.references`) with step outputs.

``field`` is one of ``explanation``, ``status``, ``result``, ``confidence``, ``metadata``; list
items are addressed by index (``${1.result.items.0}``).

* A string that is exactly one reference becomes the referenced value, with its type.
* References embedded in text are stringified (dicts and lists as JSON).
* Resolution is one pass: substituted values are never scanned again.
* ``$${`` is a literal ``${`` (:func:`shared.references.escape`).
* ``${= <expression>}`` is a selection in JMESPath over earlier outputs
  (:mod:`execution.expressions`): typed when it is the whole string, text when embedded.

>>> from shared.models import DomainOutput
>>> outs = {1: DomainOutput(status="success", result={"price": 112.5}, explanation="Nordea 112.50")}
>>> resolve({"p": "${1.result.price}", "m": "Now: ${1.explanation}"}, outs)
{'p': 112.5, 'm': 'Now: Nordea 112.50'}
>>> resolve(escape("say ${1.explanation}"), outs)
'say ${1.explanation}'
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from execution.expressions import OPEN, Expression, compile_expression, evaluate, split_text
from shared.errors import PlanError
from shared.models import DomainOutput
from shared.references import TOKEN, escape, reference, references

# ``escape`` and ``references`` are re-exported for callers that still import them from here.
__all__ = ["UnresolvedReference", "escape", "lookup", "references", "resolve"]

_FIELDS = frozenset({"explanation", "status", "result", "confidence", "metadata"})


class UnresolvedReference(PlanError):
    """A reference whose step has no output, or whose path does not exist in it."""


def resolve(value: Any, outputs: Mapping[int, DomainOutput]) -> Any:
    """Replace references in ``value`` (recursing into dicts and lists) by step outputs."""
    if isinstance(value, str):
        return _resolve_text(value, outputs)
    if isinstance(value, dict):
        return {k: resolve(v, outputs) for k, v in value.items()}
    if isinstance(value, list):
        return [resolve(v, outputs) for v in value]
    return value


def lookup(step_id: int, path: str, outputs: Mapping[int, DomainOutput]) -> Any:
    """The value at ``path`` (``result.price``) in step ``step_id``'s output."""
    ref = reference(step_id, path)
    output = outputs.get(step_id)
    if output is None:
        raise UnresolvedReference(f"{ref}: step {step_id} has no output", param=ref)
    field, *keys = path.split(".")
    if field not in _FIELDS:
        raise UnresolvedReference(f"{ref}: '{field}' is not one of {sorted(_FIELDS)}", param=ref)
    current: Any = getattr(output, field)
    walked = field
    for key in keys:
        if isinstance(current, dict) and key in current:
            current = current[key]
        elif isinstance(current, list) and key.isdigit() and int(key) < len(current):
            current = current[int(key)]
        else:
            raise UnresolvedReference(f"{ref}: step {step_id}'s {walked} has no '{key}'", param=ref)
        walked = f"{walked}.{key}"
    return current


def _resolve_text(text: str, outputs: Mapping[int, DomainOutput]) -> Any:
    if OPEN not in text:
        return _resolve_references(text, outputs)
    parts = split_text(text)
    if len(parts) == 1 and isinstance(parts[0], Expression):
        return evaluate(compile_expression(parts[0].text), outputs)
    return "".join(
        _stringify(evaluate(compile_expression(part.text), outputs))
        if isinstance(part, Expression)
        else _stringify(_resolve_references(part, outputs))
        for part in parts
    )


def _resolve_references(text: str, outputs: Mapping[int, DomainOutput]) -> Any:
    whole = TOKEN.fullmatch(text)
    if whole is not None and whole.group(1) is not None:
        return lookup(int(whole.group(1)), whole.group(2), outputs)

    def substitute(match: re.Match[str]) -> str:
        if match.group(1) is None:
            return "${"
        return _stringify(lookup(int(match.group(1)), match.group(2), outputs))

    return TOKEN.sub(substitute, text)


def _stringify(value: Any) -> str:
    if isinstance(value, str):
        return value
    if value is None:
        return ""
    if isinstance(value, dict | list | bool):
        return json.dumps(value, ensure_ascii=False, default=str)
    return str(value)
