"""What the three round-18 domains share: round 16's helpers (and so round 15's and earlier),
re-exported as they are. Only the helpers whose use round 16's ``bakery.py`` shows are called
(``ex``, ``hhmm``, ``language``, ``norm_code``, ``read_day``, ``read_number``,
``resolve_name``, ``say``, ``table``, ``today``), plus round 16's ``amount_of`` for a typed
``money`` parameter."""

from __future__ import annotations

from bench.understanding.round16.domains._common import (
    amount_of,
    ex,
    hhmm,
    language,
    norm_code,
    read_day,
    read_number,
    resolve_name,
    say,
    table,
    today,
)

__all__ = [
    "amount_of",
    "ex",
    "hhmm",
    "language",
    "norm_code",
    "read_day",
    "read_number",
    "resolve_name",
    "say",
    "table",
    "today",
]
