"""What the three round-14 domains share: round 13's helpers (round 12's, round 11's and round
4's), re-exported as they are: readers of typed values, lookup resolution, the reply language,
the reference day ``BENCH_TODAY`` (default 2026-03-10), an example builder, a code reader and a
one-typo resolver. Three small readers of this round's own are added below (a code, an
``HH:MM`` time and a money object), so that only the re-exported helpers whose use round 13's
``florist.py`` shows are called."""

from __future__ import annotations

import re

from bench.understanding.round13.domains._common import (
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


def norm_code(value: object) -> str:
    """A booking, order or contract code upper-cased, without spaces, dashes or ``#``."""
    return re.sub(r"[\s#-]", "", str(value or "")).upper()


def hhmm(value: object) -> tuple[int, int] | None:
    """``"14:00"`` (the platform's time form) or loose words ("14h", "3pm") as (hour, minute)."""
    text = str(value or "").strip().lower()
    m = re.search(r"(\d{1,2})(?:[:h](\d{2}))?\s*(am|pm|h)?", text)
    if not m:
        return None
    hour, minute = int(m.group(1)), int(m.group(2) or 0)
    if m.group(3) == "pm" and hour < 12:
        hour += 12
    if m.group(3) == "am" and hour == 12:
        hour = 0
    if hour > 23 or minute > 59:
        return None
    return hour, minute


def money_of(value: object) -> tuple[float, str | None] | None:
    """A ``money`` parameter (``{"amount", "currency"}``) as (amount, currency or None)."""
    if isinstance(value, dict) and value.get("amount") is not None:
        try:
            return float(value["amount"]), (value.get("currency") or None)
        except (TypeError, ValueError):
            return None
    return None


__all__ = [
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
    "say",
    "today",
]
