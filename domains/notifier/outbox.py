"""A durable, append-only record of every message the notifier handled.

Without a Telegram bot the outbox *is* the delivery (``delivered_via="outbox"``) and can be read
back with ``GET /outbox``; with a bot, sent messages are recorded too (``"telegram"``), so the
outbox is always the full history. SQLite (stdlib) with one commit per message: a message is
either fully stored or not at all, and it survives a restart.

Each message is stored with the ``Idempotency-Key`` of the call that sent it (unique): a call
re-run under the same key (a retry, a gateway's takeover, a replay after this service restarted)
finds its message instead of adding another.

>>> import tempfile, pathlib
>>> box = Outbox(pathlib.Path(tempfile.mkdtemp()) / "o.sqlite3")
>>> box.add("hello", chat_id="42", delivered_via="outbox").message
'hello'
>>> first = box.add("hi", chat_id="42", delivered_via="outbox", idempotency_key="run-1:2")
>>> box.add("hi", chat_id="42", delivered_via="outbox", idempotency_key="run-1:2").id == first.id
True
>>> [e.message for e in box.entries()]
['hello', 'hi']
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Literal

from shared.clock import utcnow

DeliveredVia = Literal["outbox", "telegram"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS outbox (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    chat_id TEXT,
    message TEXT NOT NULL,
    created_at TEXT NOT NULL,
    delivered_via TEXT NOT NULL CHECK (delivered_via IN ('outbox', 'telegram')),
    idempotency_key TEXT
)
"""
# outboxes created before keys were stored get the column on start
_ADD_KEY = "ALTER TABLE outbox ADD COLUMN idempotency_key TEXT"
_KEY_INDEX = "CREATE UNIQUE INDEX IF NOT EXISTS uq_outbox_idempotency_key ON outbox (idempotency_key)"
_COLUMNS = "id, chat_id, message, created_at, delivered_via, idempotency_key"


@dataclass(frozen=True)
class OutboxEntry:
    id: int
    chat_id: str | None
    message: str
    created_at: str
    delivered_via: DeliveredVia
    idempotency_key: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


class Outbox:
    def __init__(self, path: Path):
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()  # one writer at a time within the process
        with self._transaction() as conn:
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute(_SCHEMA)
            columns = {row[1] for row in conn.execute("PRAGMA table_info(outbox)")}
            if "idempotency_key" not in columns:
                conn.execute(_ADD_KEY)
            conn.execute(_KEY_INDEX)

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """A short-lived connection: commit on success, roll back on error, always closed."""
        conn = sqlite3.connect(self.path, timeout=5.0)
        try:
            conn.execute("PRAGMA synchronous=FULL")
            with conn:
                yield conn
        finally:
            conn.close()

    def add(
        self,
        message: str,
        *,
        chat_id: str | None,
        delivered_via: DeliveredVia,
        idempotency_key: str | None = None,
    ) -> OutboxEntry:
        """Store ``message``; with an ``idempotency_key`` already stored, return that entry."""
        created_at = utcnow().isoformat(timespec="milliseconds")
        with self._lock, self._transaction() as conn:
            if idempotency_key is not None:
                cur = conn.execute(
                    f"SELECT {_COLUMNS} FROM outbox WHERE idempotency_key = ?", (idempotency_key,)
                )
                row = cur.fetchone()
                if row is not None:
                    return OutboxEntry(*row)
            cur = conn.execute(
                "INSERT INTO outbox (chat_id, message, created_at, delivered_via, idempotency_key) "
                "VALUES (?, ?, ?, ?, ?)",
                (chat_id, message, created_at, delivered_via, idempotency_key),
            )
            entry_id = cur.lastrowid
        if entry_id is None:
            raise RuntimeError("sqlite did not return the outbox row id")
        return OutboxEntry(entry_id, chat_id, message, created_at, delivered_via, idempotency_key)

    def find(self, idempotency_key: str) -> OutboxEntry | None:
        """The message stored under ``idempotency_key``, if any."""
        with self._transaction() as conn:
            row = conn.execute(
                f"SELECT {_COLUMNS} FROM outbox WHERE idempotency_key = ?", (idempotency_key,)
            ).fetchone()
        return OutboxEntry(*row) if row is not None else None

    def entries(self, limit: int | None = None) -> list[OutboxEntry]:
        """Newest last; with ``limit``, the most recent ``limit`` entries."""
        with self._transaction() as conn:
            if limit is None:
                rows = conn.execute(f"SELECT {_COLUMNS} FROM outbox ORDER BY id").fetchall()
            else:
                rows = conn.execute(
                    f"SELECT * FROM (SELECT {_COLUMNS} FROM outbox ORDER BY id DESC LIMIT ?) ORDER BY id",
                    (limit,),
                ).fetchall()
        return [OutboxEntry(*row) for row in rows]
