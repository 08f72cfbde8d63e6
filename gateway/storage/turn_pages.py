"""A session's stored turns a page at a time, the newest page first.

``GET /v1/sessions/{id}`` and ``…/history`` used to return the first turns (oldest first, up to a
fixed count): past that count the newest never appeared, and a client checking "is my turn in
the history?" would wrongly conclude it is not. Now the first page is the newest ``limit`` turns;
``before`` (the page's ``next_before``) asks for the page of older turns. Each page lists its
turns oldest first, as before, so a reader that pairs a turn with the next one keeps working.

The cursor is opaque to clients: the ``(created_at, id)`` of the oldest turn on the page, which
orders runs totally (two runs created in the same microsecond are told apart by id).
"""

from __future__ import annotations

import base64
import binascii
import json
from datetime import datetime
from typing import NamedTuple

from sqlalchemy import and_, or_, select
from sqlalchemy.ext.asyncio import AsyncEngine

from gateway.storage.runs import ENTRY_KEY, StoredTurn
from gateway.storage.tables import RunRow
from shared.db import session_factory
from shared.errors import InvalidRequest
from shared.models import RunResult
from shared.status import RunStatus


class TurnPage(NamedTuple):
    #: oldest first, within the page
    turns: list[StoredTurn]
    #: the cursor of the page of older turns; ``None`` when this page reaches the first turn
    next_before: str | None


def cursor_of(created_at: datetime, run_id: str) -> str:
    """
    >>> from datetime import UTC
    >>> decode_cursor(cursor_of(datetime(2026, 1, 2, tzinfo=UTC), "run-1"))[1]
    'run-1'
    """
    raw = json.dumps([created_at.isoformat(), run_id]).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_cursor(cursor: str) -> tuple[datetime, str]:
    """The ``(created_at, run id)`` of a cursor; a 400 naming ``before`` for anything else."""
    try:
        padded = cursor + "=" * (-len(cursor) % 4)
        stamp, run_id = json.loads(base64.urlsafe_b64decode(padded.encode("ascii")))
        return datetime.fromisoformat(stamp), str(run_id)
    except (ValueError, TypeError, UnicodeError, binascii.Error):
        raise InvalidRequest(
            "before: not a cursor this gateway gave (use a page's next_before)", param="before"
        ) from None


def _reserved_only(row: RunRow) -> bool:
    """A turn's reservation, not (yet) a turn: its row is written before its first domain call
    and filled in when the turn commits. Left by a gateway that died mid-turn, it is no answer:
    a client reading the history after a 502 must send that turn again (with its key, it runs
    under the same id). A background run keeps its entry until its turn commits, so it shows."""
    return row.status == RunStatus.EXECUTING.value and ENTRY_KEY not in (row.trace or {})


class TurnPages:
    def __init__(self, engine: AsyncEngine):
        self._sessions = session_factory(engine)

    async def page(self, session_id: str, *, limit: int, before: str | None = None) -> TurnPage:
        query = select(RunRow).where(RunRow.session_id == session_id)
        if before is not None:
            stamp, run_id = decode_cursor(before)
            query = query.where(
                or_(RunRow.created_at < stamp, and_(RunRow.created_at == stamp, RunRow.id < run_id))
            )
        # one more than asked: whether an older page exists, without counting
        query = query.order_by(RunRow.created_at.desc(), RunRow.id.desc()).limit(limit + 1)
        async with self._sessions() as db:
            rows = list(await db.scalars(query))
        older = len(rows) > limit
        rows = rows[:limit]
        turns = [
            StoredTurn(RunResult.model_validate(r.trace), r.input_text)
            for r in reversed(rows)
            if not _reserved_only(r)
        ]
        oldest = rows[-1] if rows else None
        return TurnPage(turns, cursor_of(oldest.created_at, oldest.id) if older and oldest else None)
