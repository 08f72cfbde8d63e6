"""Parameters whose value is only known at run time: a ``${N.field}`` reference or a ``${= ...}``
selection over earlier steps. A schema check before the run skips them (they are present, but
their value is not yet) and checks everything else.

>>> split_late({"symbol_text": "${= step1.result.movers[0].symbol}", "limit": 3, "note": "$${= x}"})
({'limit': 3, 'note': '$${= x}'}, {'symbol_text'})
"""

from __future__ import annotations

from typing import Any

import jsonschema

from shared.expressions import expressions_in
from shared.references import references


def late_bound(value: Any) -> bool:
    return bool(references(value)) or bool(expressions_in(value))


def split_late(params: dict[str, Any]) -> tuple[dict[str, Any], set[str]]:
    """``params`` without the late-bound ones, and the names of those."""
    late = {name for name, value in params.items() if late_bound(value)}
    return {k: v for k, v in params.items() if k not in late}, late


def answered_late(error: jsonschema.ValidationError, late: set[str]) -> bool:
    """A ``required`` error (or a root ``anyOf``/``oneOf`` with one such branch) that only
    parameters bound at run time would answer: no error at all."""
    if not late:
        return False
    if error.validator == "required":
        present = error.instance if isinstance(error.instance, dict) else {}
        return {p for p in error.validator_value if p not in present} <= late
    if error.validator in ("anyOf", "oneOf") and not error.absolute_path:
        return any(answered_late(sub, late) for sub in error.context or [])
    return False
