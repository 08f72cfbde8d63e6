"""``${N.field}`` references between plan steps.

A reference names an earlier step's output: ``${1.explanation}``, ``${1.status}``,
``${1.confidence}``, ``${1.result}``, ``${1.result.price}``, ``${2.metadata.source}``; list items
are addressed by index (``${1.result.items.0}``).

* A string that is exactly one reference becomes the referenced value, with its type.
* References embedded in text are stringified (dicts and lists as JSON).
* Resolution is one pass: substituted values are never scanned again.
* ``$${`` is a literal ``${``. The planner escapes every value that came from the person with
  :func:`escape`, so text someone typed is never expanded, whatever it contains.

>>> from shared.models import DomainOutput
>>> outs = {1: DomainOutput(status="success", result={"price": 112.5}, explanation="Nordea 112.50")}
>>> resolve({"p": "${1.result.price}", "m": "Now: ${1.explanation}"}, outs)
{'p': 112.5, 'm': 'Now: Nordea 112.50'}
>>> resolve(escape("say ${1.explanation}"), outs)
'say ${1.explanation}'
>>> sorted(references({"a": ["${2.status}", escape("${3.status}")], "b": "${1.result}"}))
[1, 2]
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from shared.errors import PlanError
from shared.models import DomainOutput

#: ``$${`` (an escaped literal) or ``${<step>.<field>(.<key>)*}``.
_TOKEN = re.compile(r"\$\$\{|\$\{(\d+)\.([A-Za-z_]\w*(?:\.[\w\-]+)*)\}")
_FIELDS = frozenset({"explanation", "status", "result", "confidence", "metadata"})


class UnresolvedReference(PlanError):
    """A reference whose step has no output, or whose path does not exist in it."""


def escape(value: Any) -> Any:
    """Make every string in ``value`` literal (``${`` -> ``$${``), recursing into dicts and lists."""
    if isinstance(value, str):
        return value.replace("${", "$${")
    if isinstance(value, dict):
        return {k: escape(v) for k, v in value.items()}
    if isinstance(value, list):
        return [escape(v) for v in value]
    return value


def references(value: Any) -> set[int]:
    """Step ids referenced anywhere in ``value`` (escaped literals excluded)."""
    if isinstance(value, str):
        return {int(m.group(1)) for m in _TOKEN.finditer(value) if m.group(1) is not None}
    if isinstance(value, dict):
        return set().union(*(references(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(references(v) for v in value)) if value else set()
    return set()


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
    ref = f"${{{step_id}.{path}}}"
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
    whole = _TOKEN.fullmatch(text)
    if whole is not None and whole.group(1) is not None:
        return lookup(int(whole.group(1)), whole.group(2), outputs)

    def substitute(match: re.Match[str]) -> str:
        if match.group(1) is None:
            return "${"
        return _stringify(lookup(int(match.group(1)), match.group(2), outputs))

    return _TOKEN.sub(substitute, text)


def _stringify(value: Any) -> str:
    if isinstance(value, str):
        return value
    if value is None:
        return ""
    if isinstance(value, dict | list | bool):
        return json.dumps(value, ensure_ascii=False, default=str)
    return str(value)
