"""What the three round-3 domains share: round 2's defensive readers of typed values (the platform
sends them normalised, a direct caller may send the person's words), lookup resolution, the reply
language, the reference day (``BENCH_TODAY``, default 2026-03-10), and an example builder."""

from __future__ import annotations

from typing import Any

from bench.understanding.round2.domains._common import (
    fold,
    language,
    lookup_entries,
    read_day,
    read_money,
    read_number,
    read_time,
    resolve,
    today,
)

__all__ = [
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
    "say",
    "today",
]


def ex(text: str, **entities: Any) -> dict[str, Any]:
    """A goal example with its annotated entities (typed ones as written, enums as the value)."""
    return {"text": text, "entities": entities} if entities else {"text": text}


def lookup_spec(table: dict[str, list[str]]) -> list[dict[str, Any]]:
    return [e.model_dump() for e in lookup_entries(table)]


def say(lang: str, pt: str, en: str) -> str:
    return pt if lang == "pt" else en
