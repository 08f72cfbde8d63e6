"""Nothing acts before it can be recorded: a turn's run is stored (reserved) before its first
domain call, not only when the turn ends.

:class:`ReservedDomains` stands between the run loop's steps and the orchestrator. A turn announces
its run (:meth:`ReservedDomains.expect`) with how to reserve it; the run's first domain call
makes the reservation (concurrent first calls wait on the same one) and only then goes out. A
reservation that fails stops the run before any step has run (:class:`~execution.dag.RunStopped`)
and the turn answers :class:`~gateway.errors.StorageUnavailable`. A turn that calls no domain (a
question, a chat answer) costs no extra write.

A background run can be cancelled from any gateway (its stored status): before each of its
domain calls the run's status is read, and a cancelled run starts no further step.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager

from execution.dag import RunStopped
from orchestrator.orchestrator import Orchestrator
from shared.models import CallContext, DomainOutput, ExecutionIntent, ExecutionStep
from shared.status import RunStatus

log = logging.getLogger(__name__)

#: Why a run stopped when its reservation could not be stored (the run's notes say it).
NOT_RECORDED = "The run could not be recorded (storage unavailable); nothing was run."
#: Why a cancelled run stopped.
CANCELLED = "The run was cancelled; no further step was started."


class _Reservation:
    def __init__(
        self, reserve: Callable[[], Awaitable[None]], cancelled: Callable[[], Awaitable[bool]] | None
    ):
        self._reserve = reserve
        self._cancelled = cancelled
        self._task: asyncio.Task[None] | None = None
        self.failed: BaseException | None = None

    async def before_step(self) -> None:
        await self.ensure()
        if self._cancelled is not None and await self._cancelled():
            raise RunStopped(RunStatus.CANCELLED, CANCELLED)

    async def ensure(self) -> None:
        if self._task is None:
            self._task = asyncio.ensure_future(self._reserve())
        try:
            await asyncio.shield(self._task)
        except Exception as exc:
            self.failed = exc
            raise RunStopped(RunStatus.FAILED, NOT_RECORDED) from exc


class ReservedDomains:
    """The orchestrator behind each expected run's reservation: the turn's graph reads its gate
    (:class:`~dialogue.graph.Domains`), and :meth:`dispatch` is the step runner the gateway gives
    the run loop once."""

    def __init__(self, domains: Orchestrator):
        self._domains = domains
        self._expected: dict[str, _Reservation] = {}
        self.threshold = domains.threshold

    def gate_blocks(self, intent: ExecutionIntent) -> bool:
        return self._domains.gate_blocks(intent)

    @contextmanager
    def expect(
        self,
        run_id: str,
        reserve: Callable[[], Awaitable[None]],
        cancelled: Callable[[], Awaitable[bool]] | None = None,
    ) -> Iterator[_Reservation]:
        """While the block runs, ``run_id``'s first domain call awaits ``reserve()`` first, and
        every call asks ``cancelled()`` (when given) before it goes out."""
        reservation = self._expected[run_id] = _Reservation(reserve, cancelled)
        try:
            yield reservation
        finally:
            self._expected.pop(run_id, None)

    async def dispatch(
        self, intent: ExecutionIntent, step: ExecutionStep | None = None, call: CallContext | None = None
    ) -> DomainOutput:
        run_id = call.run_id if call is not None else intent.context.get("run_id")
        reservation = self._expected.get(run_id) if isinstance(run_id, str) else None
        if reservation is not None:
            await reservation.before_step()
        return await self._domains.dispatch(intent, step, call)
