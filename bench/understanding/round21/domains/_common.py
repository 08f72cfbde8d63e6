"""What the three round-21 domains share: round 18's helpers, re-exported as they are (the ones
round 18's ``escape_room.py`` shows in use, plus ``amount_of`` for a typed ``money``)."""

from __future__ import annotations

from bench.understanding.round18.domains._common import (
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
