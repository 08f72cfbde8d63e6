"""What the three round-2 domains share: reading a typed entity's value defensively (the platform
sends it normalised, a direct caller may send the person's words), the reply language, and the
reference day the bench resolves dates against (``BENCH_TODAY``, default 2026-03-10)."""

from __future__ import annotations

from datetime import date

from bench.understanding.domains.common import (
    fold,
    language,
    parse_day,
    parse_money,
    parse_number,
    parse_time,
    today,
)
from shared.manifest import LookupEntry

__all__ = [
    "fold",
    "language",
    "lookup_entries",
    "read_day",
    "read_money",
    "read_number",
    "read_time",
    "resolve",
    "today",
]


def read_day(value: object) -> date | None:
    """An ISO date (what a `date` entity carries), else the person's words."""
    if value is None or value == "":
        return None
    text = str(value)
    try:
        return date.fromisoformat(text[:10])
    except ValueError:
        return parse_day(text)


def read_time(value: object) -> str | None:
    return parse_time(str(value)) if value not in (None, "") else None


def read_number(value: object) -> int | None:
    number = parse_number(value)
    return int(number) if number is not None and number == int(number) else None


def read_money(value: object, default_currency: str = "BRL") -> tuple[float, str] | None:
    """`{"amount", "currency"}` (a `money` entity; currency may be missing or null), else words."""
    if isinstance(value, dict):
        amount = value.get("amount")
        if not isinstance(amount, int | float):
            return None
        return float(amount), str(value.get("currency") or default_currency)
    return parse_money(value, default_currency)


def lookup_entries(table: dict[str, list[str]]) -> list[LookupEntry]:
    return [LookupEntry(value=value, aliases=aliases) for value, aliases in table.items()]


def resolve(text: object, table: dict[str, list[str]]) -> str | None:
    """The canonical value whose name or alias the words are (accent- and case-blind)."""
    if not text:
        return None
    wanted = fold(str(text))
    for value, aliases in table.items():
        if wanted in {fold(value), *(fold(a) for a in aliases)}:
            return value
    for value, aliases in table.items():  # a longer phrase that contains a name ("o kenzo da paulista")
        if any(f" {fold(n)} " in f" {wanted} " for n in (value, *aliases)):
            return value
    return None
