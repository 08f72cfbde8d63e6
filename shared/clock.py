"""The platform's one clock: timezone-aware UTC, so stored and compared times never mix naive and
aware values."""

from __future__ import annotations

from datetime import UTC, datetime


def utcnow() -> datetime:
    """Now, in UTC, timezone-aware.

    >>> utcnow().tzinfo is UTC
    True
    """
    return datetime.now(UTC)
