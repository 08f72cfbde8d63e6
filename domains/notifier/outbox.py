"""A durable, append-only record of every message the notifier handled.

Without a Telegram bot the outbox *is* the delivery (``delivered_via="outbox"``) and can be read
back with ``GET /outbox``; with a bot, sent messages are recorded too (``"telegram"``), so the
outbox is always the full history. SQLite (stdlib) with one commit per message: a message is
either fully stored or not at all, and it survives a restart.

>>> import tempfile, pathlib
>>> box = Outbox(pathlib.Path(tempfile.mkdtemp()) / "o.sqlite3")
>>> box.add("hello", chat_id="42", delivered_via="outbox").message
'hello'
>>> [e.chat_id for e in box.entries()]
['42']
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
    delivered_via TEXT NOT NULL CHECK (delivered_via IN ('outbox', 'telegram'))
)
"""


@dataclass(frozen=True)
class OutboxEntry:
    id: int
    chat_id: str | None
    message: str
    created_at: str
    delivered_via: DeliveredVia

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

    def add(self, message: str, *, chat_id: str | None, delivered_via: DeliveredVia) -> OutboxEntry:
        created_at = utcnow().isoformat(timespec="milliseconds")
        with self._lock, self._transaction() as conn:
            cur = conn.execute(
                "INSERT INTO outbox (chat_id, message, created_at, delivered_via) VALUES (?, ?, ?, ?)",
                (chat_id, message, created_at, delivered_via),
            )
            entry_id = cur.lastrowid
        if entry_id is None:
            raise RuntimeError("sqlite did not return the outbox row id")
        return OutboxEntry(entry_id, chat_id, message, created_at, delivered_via)

    def entries(self, limit: int | None = None) -> list[OutboxEntry]:
        """Newest last; with ``limit``, the most recent ``limit`` entries."""
        with self._transaction() as conn:
            if limit is None:
                rows = conn.execute(
                    "SELECT id, chat_id, message, created_at, delivered_via FROM outbox ORDER BY id"
                ).fetchall()
            else:
                rows = conn.execute(
                    "SELECT * FROM (SELECT id, chat_id, message, created_at, delivered_via FROM outbox "
                    "ORDER BY id DESC LIMIT ?) ORDER BY id",
                    (limit,),
                ).fetchall()
        return [OutboxEntry(*row) for row in rows]
