"""The ``${N.field}`` reference syntax between plan steps: written by the planner, expanded by
the executor (``execution.references.resolve``), so it lives below both.

A reference names an earlier step's output: ``${1.explanation}``, ``${1.result.price}``,
``${1.result.items.0}``. ``$${`` is a literal ``${``: :func:`escape` makes text someone typed
literal, so only references the planner writes itself are ever expanded.

>>> reference(2, "result.price")
'${2.result.price}'
>>> escape({"q": "say ${1.explanation}"})
{'q': 'say $${1.explanation}'}
>>> sorted(references({"a": ["${2.status}", escape("${3.status}")], "b": reference(1, "result")}))
[1, 2]
"""

from __future__ import annotations

import re
from typing import TypeVar, cast

#: Whatever :func:`escape` is given (a parameter value: a string, a number, a dict, a list...).
Value = TypeVar("Value")

#: ``$${`` (an escaped literal) or ``${<step>.<field>(.<key>)*}``.
TOKEN = re.compile(r"\$\$\{|\$\{(\d+)\.([A-Za-z_]\w*(?:\.[\w\-]+)*)\}")


def reference(step_id: int, path: str) -> str:
    """The reference to ``path`` (``result.price``) in step ``step_id``'s output."""
    return f"${{{step_id}.{path}}}"


def escape(value: Value) -> Value:
    """Make every string in ``value`` literal (``${`` -> ``$${``), recursing into dicts and lists;
    the value keeps its shape (a dict stays a dict of the same keys)."""
    if isinstance(value, str):
        return cast(Value, value.replace("${", "$${"))
    if isinstance(value, dict):
        return cast(Value, {k: escape(v) for k, v in value.items()})
    if isinstance(value, list):
        return cast(Value, [escape(v) for v in value])
    return value


def references(value: object) -> set[int]:
    """Step ids referenced anywhere in ``value`` (escaped literals excluded)."""
    if isinstance(value, str):
        return {int(m.group(1)) for m in TOKEN.finditer(value) if m.group(1) is not None}
    if isinstance(value, dict):
        return set().union(*(references(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(references(v) for v in value)) if value else set()
    return set()
