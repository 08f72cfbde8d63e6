"""The platform's one clock: timezone-aware UTC, so stored and compared times never mix naive and
aware values."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import overload


def utcnow() -> datetime:
    """Now, in UTC, timezone-aware.

    >>> utcnow().tzinfo is UTC
    True
    """
    return datetime.now(UTC)


@overload
def as_utc(stamp: datetime) -> datetime: ...
@overload
def as_utc(stamp: None) -> None: ...
def as_utc(stamp: datetime | None) -> datetime | None:
    """A stored time made aware: one without its zone (SQLite keeps none) was written in UTC; an
    aware one is returned as it is.

    >>> as_utc(datetime(2026, 1, 2, 3, 4)).isoformat()
    '2026-01-02T03:04:00+00:00'
    >>> as_utc(None) is None
    True
    """
    if stamp is None or stamp.tzinfo is not None:
        return stamp
    return stamp.replace(tzinfo=UTC)
