"""What the three round-4 domains share: round 3's helpers (round 2's defensive readers of typed
values, lookup resolution, the reply language, the reference day ``BENCH_TODAY``, default
2026-03-10, and an example builder), plus a reader of booking codes and a one-typo resolver."""

from __future__ import annotations

from bench.understanding.round3.domains._common import (
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


def code_of(value: object, prefix: str) -> str:
    """A booking code as the person wrote it ("cn 4821", "#CN4821", "4821") -> ``CN4821``."""
    code = "".join(ch for ch in str(value or "").upper() if ch.isalnum())
    return f"{prefix}{code}" if code.isdigit() else code


def _one_edit(a: str, b: str) -> bool:
    if abs(len(a) - len(b)) > 1 or a == b:
        return a == b
    if len(a) == len(b):
        return sum(x != y for x, y in zip(a, b, strict=True)) == 1
    short, long_ = sorted((a, b), key=len)
    return any(long_[:i] + long_[i + 1 :] == short for i in range(len(long_)))


def resolve_loose(text: object, table: dict[str, list[str]]) -> str | None:
    """`resolve`, then one typo in a name of five letters or more, then a name the words contain."""
    found = resolve(text, table)
    if found is not None or not text:
        return found
    words = fold(str(text))
    for value, aliases in table.items():
        for name in (value, *aliases):
            folded = fold(name)
            if len(folded) >= 5 and _one_edit(words, folded):
                return value
    for value, aliases in table.items():
        for name in (value, *aliases):
            folded = fold(name)
            if len(folded) >= 5 and f" {folded} " in f" {words} ":
                return value
    return None
