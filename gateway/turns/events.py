"""Live run events for SSE: every status change of a run and its steps, in order.

In-process: a run's events are kept while it runs and, after it ends, for ``retain_s`` and among
the ``keep_finished`` latest finished runs, so a client that connects late still sees everything;
an older run is replayed from its stored trace. The count bound matters under load: every kept
run is a dozen objects the garbage collector's full passes walk, and at a hundred turns a second
two minutes of them made those passes take tens of milliseconds (the turns' p99).
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

from shared.events import TERMINAL_EVENT, RunEvent, RunFinished

__all__ = ["TERMINAL_EVENT", "RunEventHub"]


@dataclass(slots=True)
class _RunLog:
    events: list[RunEvent] = field(default_factory=list)
    finished_at: float | None = None
    #: set (and dropped) by the next event; made by a follower that waits, so a run nobody
    #: follows (most) costs no event object per publish
    changed: asyncio.Event | None = None


class RunEventHub:
    def __init__(self, retain_s: float = 120.0, keep_finished: int = 256):
        self.retain_s = retain_s
        self.keep_finished = keep_finished
        self._runs: dict[str, _RunLog] = {}
        #: (finished at, run id), oldest first: expiry looks at the front only
        self._finished: deque[tuple[float, str]] = deque()

    def open(self, run_id: str) -> None:
        self._gc()
        self._runs.setdefault(run_id, _RunLog())

    def has(self, run_id: str) -> bool:
        return run_id in self._runs

    async def publish(self, event: RunEvent) -> None:
        log = self._runs.get(event.run_id)
        if log is None:
            log = self._runs[event.run_id] = _RunLog()
        # kept as published: its place in the list is its number, given to a follower's copy
        # (most runs have none, so most events are never copied)
        log.events.append(event)
        if isinstance(event, RunFinished) and log.finished_at is None:
            log.finished_at = time.monotonic()
            self._finished.append((log.finished_at, event.run_id))
        changed, log.changed = log.changed, None
        if changed is not None:
            changed.set()

    async def follow(self, run_id: str) -> AsyncIterator[RunEvent]:
        """Every event of the run so far, then new ones until it finishes."""
        log = self._runs[run_id]
        sent = 0
        while True:
            while sent < len(log.events):
                event = log.events[sent]
                sent += 1
                yield event.model_copy(update={"seq": sent})
                if isinstance(event, RunFinished):
                    return
            if log.changed is None:
                log.changed = asyncio.Event()
            await log.changed.wait()

    def _gc(self) -> None:
        expired = time.monotonic() - self.retain_s
        finished = self._finished
        while finished and (finished[0][0] < expired or len(finished) > self.keep_finished):
            _, run_id = self._finished.popleft()
            self._runs.pop(run_id, None)
