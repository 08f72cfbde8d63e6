"""What the three round-15 domains share: round 14's helpers (round 13's and earlier rounds'),
re-exported as they are: readers of typed values, lookup resolution, the reply language, the
reference day ``BENCH_TODAY`` (default 2026-03-10), an example builder, a code reader, an
``HH:MM`` time reader and a money reader. Only the helpers whose use round 14's
``photo_studio.py`` shows are called (``ex``, ``hhmm``, ``language``, ``norm_code``,
``read_day``, ``read_number``, ``say``, ``today``); this round's lookup tables are written and
resolved by two small helpers of its own below (``table``, ``resolve_name``), since the
re-exported lookup helpers' use was not read."""

from __future__ import annotations

import unicodedata

from bench.understanding.round14.domains._common import (
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
    say,
    today,
)


def _plain(text: object) -> str:
    """Lower case, no accents, single spaces."""
    raw = unicodedata.normalize("NFKD", str(text or "")).encode("ascii", "ignore").decode()
    return " ".join(raw.lower().replace("-", " ").split())


def table(entries: dict[str, list[str]]) -> list[dict[str, object]]:
    """A lookup table as the manifest writes it: ``[{"value", "aliases"}]``."""
    return [{"value": value, "aliases": list(aliases)} for value, aliases in entries.items()]


def _one_typo(a: str, b: str) -> bool:
    if a == b:
        return True
    if abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        return sum(x != y for x, y in zip(a, b, strict=True)) == 1
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    return any(long_[:i] + long_[i + 1 :] == short for i in range(len(long_)))


def resolve_name(entries: dict[str, list[str]], text: object) -> str | None:
    """The canonical value a person's words name: the value or an alias (accent- and
    case-blind), a plural "s", or one typo in a word of five letters or more."""
    said = _plain(text)
    if not said:
        return None
    for value, aliases in entries.items():
        for name in [value, *aliases]:
            plain = _plain(name)
            if said == plain or said.rstrip("s") == plain.rstrip("s"):
                return value
    for value, aliases in entries.items():
        for name in [value, *aliases]:
            plain = _plain(name)
            if len(plain) >= 5 and _one_typo(said, plain):
                return value
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
    "resolve_name",
    "say",
    "table",
    "today",
]
