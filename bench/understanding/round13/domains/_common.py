"""What the three round-13 domains share: round 12's helpers (round 11's and round 4's),
re-exported as they are: readers of typed values, lookup resolution, the reply language, the
reference day ``BENCH_TODAY`` (default 2026-03-10), an example builder, a code reader and a
one-typo resolver."""

from __future__ import annotations

from bench.understanding.round12.domains._common import (
    code_of,
    ex,
    fold,
    language,
    lookup_entries,
    lookup_spec,
    read_day,
    read_money,
    read_number,
    read_time,
    resolve,
    resolve_loose,
    say,
    today,
)

__all__ = [
    "code_of",
    "ex",
    "fold",
    "language",
    "lookup_entries",
    "lookup_spec",
    "read_day",
    "read_money",
    "read_number",
    "read_time",
    "resolve",
    "resolve_loose",
    "say",
    "today",
]
