"""What the three round-16 domains share: round 15's helpers (round 14's and earlier rounds'),
re-exported as they are: readers of typed values, the reply language, the reference day
``BENCH_TODAY`` (default 2026-03-10), an example builder, a code reader, an ``HH:MM`` time
reader, and round 15's own ``table`` / ``resolve_name`` for lookup tables. Only the helpers
whose use round 15's ``driving_school.py`` shows are called (``ex``, ``hhmm``, ``language``,
``norm_code``, ``read_day``, ``read_number``, ``resolve_name``, ``say``, ``table``,
``today``); a money value (``{"amount", "currency"}``, as the docs give it) is read by
``amount_of`` below, since the re-exported money readers' use was not read."""

from __future__ import annotations

from typing import Any

from bench.understanding.round15.domains._common import (
    code_of,
    ex,
    fold,
    hhmm,
    language,
    lookup_entries,
    lookup_spec,
    money_of,
    norm_code,
    read_day,
    read_money,
    read_number,
    read_time,
    resolve,
    resolve_loose,
    resolve_name,
    say,
    table,
    today,
)


def amount_of(value: Any) -> tuple[float, str | None] | None:
    """A typed ``money`` parameter (``{"amount": 50, "currency": "BRL"}``, currency ``None``
    when not said) as ``(amount, currency)``; a bare number is an amount with no currency."""
    if isinstance(value, dict):
        try:
            amount = float(value["amount"])
        except (KeyError, TypeError, ValueError):
            return None
        currency = value.get("currency")
        return amount, (str(currency).upper() if currency else None)
    number = read_number(value)
    if number is None:
        return None
    return float(number), None


__all__ = [
    "amount_of",
    "code_of",
    "ex",
    "fold",
    "hhmm",
    "language",
    "lookup_entries",
    "lookup_spec",
    "money_of",
    "norm_code",
    "read_day",
    "read_money",
    "read_number",
    "read_time",
    "resolve",
    "resolve_loose",
    "resolve_name",
    "say",
    "table",
    "today",
]
