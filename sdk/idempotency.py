"""Durable ``Idempotency-Key`` records for ``/execute``: a repeated call (a retry, a takeover by
another gateway, a duplicate delivery) gets the first call's answer instead of running the
capability again, across restarts of the domain.

One table in the domain's own store (``DOMAIN_IDEMPOTENCY_URL``: a SQLite file by default, or
PostgreSQL), one row per key:

- a call *claims* its key by inserting the row (``running``) before the capability runs; the
  primary key makes exactly one claimant win, in this process or in another one;
- the winner stores the answer (``done``); a call that raised deletes its claim, so the caller may
  retry with the same key;
- a call that finds the key ``running`` waits for it; a claim older than ``claim_ttl_s`` belongs
  to a process that died mid-call and is taken over;
- the key names a step, not its parameters: a step re-run after a crash may carry other values
  (a fresher quote in its message) and still gets the first answer; the difference is logged;
- rows older than ``retention_s`` are deleted (a retry after that runs again).

>>> import asyncio
>>> from shared.models import DomainOutput
>>> async def demo():
...     store = IdempotencyStore("sqlite://")
...     calls = []
...     async def call():
...         calls.append(1)
...         return DomainOutput(status="success", explanation="sent")
...     first = await store.run("run-1:1", "fp", call)
...     again = await store.run("run-1:1", "fp", call)
...     await store.close()
...     return first[1], again[1], len(calls)
>>> asyncio.run(demo())
(False, True, 1)
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import time
import uuid
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from pydantic import Field
from sqlalchemy import Column, Float, MetaData, String, Table, Text, delete, insert, select, update
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.sql import Executable

from sdk.idempotency_db import KeyDatabase, key_database
from shared.models import DomainOutput, ExecutionIntent
from shared.settings import ServiceSettings

log = logging.getLogger(__name__)

#: Keys longer than this are refused: a key names a call (``<run id>:<step id>``), not a payload.
MAX_KEY_LENGTH = 255

_metadata = MetaData()
idempotency_keys = Table(
    "sdk_idempotency_keys",
    _metadata,
    Column("key", String(MAX_KEY_LENGTH), primary_key=True),
    # sha256 of the capability and its parameters: a replay for other values is logged
    Column("fingerprint", String(64), nullable=False),
    Column("state", String(8), nullable=False),  # running | done
    Column("output", Text, nullable=True),
    # which store instance holds a running claim (a process, or a test's store)
    Column("owner", String(32), nullable=False),
    Column("created_at", Float, nullable=False, index=True),
    Column("claimed_at", Float, nullable=False),
)


class IdempotencyStoreUnavailable(RuntimeError):
    """The store cannot be read or written: nothing may run until it can record the call."""


@contextmanager
def _store_errors() -> Iterator[None]:
    try:
        yield
    except IntegrityError:
        raise  # a key claimed by another call: an answer, not an outage
    except (SQLAlchemyError, OSError) as exc:
        raise IdempotencyStoreUnavailable(f"idempotency store unavailable: {type(exc).__name__}") from exc


#: Where a domain process started with ``serve`` keeps its keys unless told otherwise.
DEFAULT_URL = "sqlite:///var/idempotency/{domain}.sqlite3"


class IdempotencySettings(ServiceSettings):
    """``DOMAIN_IDEMPOTENCY_URL`` (``{domain}`` is replaced by the domain's name; unset: the
    :data:`DEFAULT_URL` file for a process started with ``serve``, memory for an app embedded in
    another program), ``DOMAIN_IDEMPOTENCY_RETENTION_S``, ``DOMAIN_IDEMPOTENCY_CLAIM_TTL_S``."""

    domain_idempotency_url: str | None = None
    #: How long a key is remembered; keep it longer than any retry or takeover of a run.
    domain_idempotency_retention_s: float = Field(default=7 * 86400, gt=0)
    #: A ``running`` claim older than this is a crashed call's, taken over by the next caller;
    #: keep it longer than the slowest capability.
    domain_idempotency_claim_ttl_s: float = Field(default=300.0, gt=0)

    def store(self, domain: str, *, served: bool) -> IdempotencyStore:
        """The store for ``domain``; ``served``: the process was started with ``serve``."""
        url = self.domain_idempotency_url or (DEFAULT_URL if served else "sqlite://")
        return IdempotencyStore(
            url.replace("{domain}", domain),
            retention_s=self.domain_idempotency_retention_s,
            claim_ttl_s=self.domain_idempotency_claim_ttl_s,
        )


def fingerprint(intent: ExecutionIntent) -> str:
    """The capability and its parameters (not the context, which carries per-attempt data such as
    trace ids), kept to tell a replay for other values in the logs."""
    payload = intent.capability.encode() + b"\n" + _canonical(intent.parameters)
    return hashlib.sha256(payload).hexdigest()


def _canonical(value: dict[str, Any]) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str).encode()


class IdempotencyStore:
    """See the module docstring. ``url`` ``sqlite://`` is an in-memory store (one process, gone
    at exit: for services embedded in tests and benchmarks), anything else is durable."""

    #: How often a waiting call looks at another process's claim again (seconds, doubling).
    poll_s = (0.02, 0.5)
    #: Old rows are deleted at most this often (seconds).
    purge_every_s = 60.0

    def __init__(
        self,
        url: str,
        *,
        retention_s: float = 7 * 86400,
        claim_ttl_s: float = 300.0,
        clock: Callable[[], float] = time.time,
    ):
        self.url = url
        self.retention_s = retention_s
        self.claim_ttl_s = claim_ttl_s
        self._clock = clock
        self._owner = uuid.uuid4().hex
        self._database: KeyDatabase | None = None
        self._running: dict[str, asyncio.Event] = {}
        self._purged_at = 0.0

    async def open(self) -> None:
        if self._database is not None:
            return
        database = key_database(self.url)
        try:
            with _store_errors():
                await database.open(_metadata)
        except BaseException:
            await database.close()
            raise
        self._database = database

    async def close(self) -> None:
        if self._database is not None:
            database, self._database = self._database, None
            await database.close()

    async def run(
        self, key: str, fingerprint: str, call: Callable[[], Awaitable[DomainOutput]]
    ) -> tuple[DomainOutput, bool]:
        """Run ``call`` once for ``key``; return ``(output, replayed)``."""
        if len(key) > MAX_KEY_LENGTH:
            raise ValueError(f"Idempotency-Key is longer than {MAX_KEY_LENGTH} characters")
        await self.open()
        await self._purge_old()
        delay = self.poll_s[0]
        while True:
            if await self._claim(key, fingerprint):
                return await self._run_claimed(key, call), False
            row = await self._read(key)
            if row is None:
                continue  # its claimant failed and let go: claim it again
            if row["state"] == "done":
                if row["fingerprint"] != fingerprint:
                    log.warning("idempotency key %s replayed for other parameters", key)
                return DomainOutput.model_validate_json(row["output"]), True
            if self._clock() - row["claimed_at"] > self.claim_ttl_s and await self._take_over(key, row):
                return await self._run_claimed(key, call), False
            event = self._running.get(key)
            if event is not None:  # claimed in this process: wake up when it ends
                await event.wait()
            else:
                await asyncio.sleep(delay)
                delay = min(delay * 2, self.poll_s[1])

    async def _run_claimed(self, key: str, call: Callable[[], Awaitable[DomainOutput]]) -> DomainOutput:
        event = self._running[key] = asyncio.Event()
        try:
            try:
                output = await call()
            except BaseException:
                # a failure is not remembered: the caller may retry with the same key
                await asyncio.shield(self._release(key))
                raise
            await asyncio.shield(self._finish(key, output))
            return output
        finally:
            del self._running[key]
            event.set()

    async def _execute(self, statement: Executable) -> int:
        assert self._database is not None
        with _store_errors():
            return await self._database.write(statement)

    async def _claim(self, key: str, fingerprint: str) -> bool:
        now = self._clock()
        statement = insert(idempotency_keys).values(
            key=key,
            fingerprint=fingerprint,
            state="running",
            owner=self._owner,
            created_at=now,
            claimed_at=now,
        )
        try:
            await self._execute(statement)
        except IntegrityError:
            return False
        return True

    async def _take_over(self, key: str, row: dict[str, Any]) -> bool:
        statement = (
            update(idempotency_keys)
            .where(
                idempotency_keys.c.key == key,
                idempotency_keys.c.state == "running",
                idempotency_keys.c.claimed_at == row["claimed_at"],
            )
            .values(owner=self._owner, claimed_at=self._clock())
        )
        return await self._execute(statement) == 1

    async def _finish(self, key: str, output: DomainOutput) -> None:
        statement = (
            update(idempotency_keys)
            .where(idempotency_keys.c.key == key, idempotency_keys.c.owner == self._owner)
            .values(state="done", output=output.model_dump_json())
        )
        await self._execute(statement)

    async def _release(self, key: str) -> None:
        statement = delete(idempotency_keys).where(
            idempotency_keys.c.key == key,
            idempotency_keys.c.owner == self._owner,
            idempotency_keys.c.state == "running",
        )
        await self._execute(statement)

    async def _read(self, key: str) -> dict[str, Any] | None:
        assert self._database is not None
        statement = select(
            idempotency_keys.c.fingerprint,
            idempotency_keys.c.state,
            idempotency_keys.c.output,
            idempotency_keys.c.claimed_at,
        ).where(idempotency_keys.c.key == key)
        with _store_errors():
            row = await self._database.read_one(statement)
        return dict(row) if row is not None else None

    async def _purge_old(self) -> None:
        now = self._clock()
        if now - self._purged_at < self.purge_every_s:
            return
        self._purged_at = now
        await self._execute(
            delete(idempotency_keys).where(
                idempotency_keys.c.created_at < now - self.retention_s,
                idempotency_keys.c.state == "done",
            )
        )


_current: ContextVar[str | None] = ContextVar("idempotency_key", default=None)


def current_key() -> str | None:
    """The ``Idempotency-Key`` of the ``/execute`` call being run (``None`` without one): a
    capability that keeps its own record of what it did (an outbox, a booking) stores it with a
    unique constraint, so even a call re-run after a crash acts once."""
    return _current.get()


@contextmanager
def using_key(key: str | None) -> Iterator[None]:
    token = _current.set(key)
    try:
        yield
    finally:
        _current.reset(token)
