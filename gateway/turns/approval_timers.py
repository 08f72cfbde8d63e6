"""The proactive side of an approval's deadline, as a durable workflow: at ``remind_at`` the
person is reminded (the question asked again in their conversation), at ``expires_at`` the
approval is expired and the person told ("this request expired, nothing was done"), with the
run recorded cancelled and nothing run.

Nothing here is needed for correctness: an answer after the deadline is refused by the turn
itself (:mod:`dialogue.approval`). The workflow only makes the telling happen without an answer.
It is a DBOS workflow (``approvals.wait``) started under ``approval:<id>`` when the approval is
stored, so it survives restarts of every gateway (its sleeps are durable) and is taken over from a
dead one; a gateway's start-up starts it again for every approval still pending (the id makes
that a no-op for those that have one), which covers a gateway that died between storing the
approval and starting its workflow. Each reminder and expiry is a step that first checks the
approval is still pending, so an answered one ends its workflow quietly.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime

from dbos import DBOS

from dialogue.approval import Decision
from gateway.durable import DurableEngine, current_engine
from gateway.storage.approvals import ApprovalStore, StoredApproval
from gateway.turns.approval_decisions import ApprovalNotPending, decide, remind
from gateway.turns.turn import TurnService

log = logging.getLogger(__name__)

#: Approvals whose workflows a start-up (re)starts at most: the oldest deadlines first.
RESUME_MAX = 1000


def workflow_id(approval_id: str) -> str:
    return f"approval:{approval_id}"


@dataclass(frozen=True)
class ApprovalWait:
    """What an approval's workflow is started with (stored by the engine as its input)."""

    approval_id: str
    tenant: str
    remind_at: datetime | None
    expires_at: datetime | None


@DBOS.workflow(name="approvals.wait")
async def wait_for_approval(wait: ApprovalWait) -> str:
    """Sleep (durably) until the reminder, remind; until the deadline, expire. What it did."""
    timers = await current_engine().get(ApprovalTimers)
    done = "waited"
    if wait.remind_at is not None and (wait.expires_at is None or wait.remind_at < wait.expires_at):
        delay = await DBOS.run_step_async({"name": "until-reminder"}, timers.seconds_until, wait.remind_at)
        await DBOS.sleep_async(delay)
        done = await DBOS.run_step_async({"name": "remind"}, timers.remind, wait)
    if wait.expires_at is not None:
        delay = await DBOS.run_step_async({"name": "until-deadline"}, timers.seconds_until, wait.expires_at)
        await DBOS.sleep_async(delay)
        done = await DBOS.run_step_async({"name": "expire"}, timers.expire, wait)
    return done


class ApprovalTimers:
    """What the workflow does, with the gateway's services."""

    def __init__(self, turns: TurnService, store: ApprovalStore, engine: DurableEngine):
        self._turns = turns
        self._store = store
        self._engine = engine

    async def start(self) -> None:
        """Provide the workflow its services, start each new approval's workflow when it is
        stored, and (re)start those of approvals already pending."""
        self._engine.provide(ApprovalTimers, self)
        self._turns.approvals.on_asked = self.follow
        for approval in await self._store.waiting_with_timers(limit=RESUME_MAX):
            await self.follow(approval)

    async def follow(self, approval: StoredApproval) -> None:
        wait = ApprovalWait(approval.id, approval.tenant, approval.remind_at, approval.expires_at)
        await self._engine.start(wait_for_approval, workflow_id(approval.id), wait)

    async def seconds_until(self, when: datetime) -> float:
        return max(0.0, (when - self._turns.approvals.clock()).total_seconds())

    async def remind(self, wait: ApprovalWait) -> str:
        approval = await self._store.get(wait.approval_id, wait.tenant)
        if approval is None or approval.status != "pending":
            return "settled"
        now = self._turns.approvals.clock()
        if approval.expired_at(now):
            return "expired"  # the expiry step tells the person
        # marked first: a reminder is said at most once, even if this step runs again
        if not await self._store.mark_reminded(approval.id, now):
            return "settled"
        try:
            await remind(self._turns, approval)
        except ApprovalNotPending:
            return "settled"
        return "reminded"

    async def expire(self, wait: ApprovalWait) -> str:
        approval = await self._store.get(wait.approval_id, wait.tenant)
        if approval is None or approval.status != "pending":
            return "settled"
        if not approval.expired_at(self._turns.approvals.clock()):
            return (
                "pending"  # the deadline moved on a clock the workflow does not keep: answers still check it
            )
        try:
            await decide(self._turns, approval, Decision.EXPIRED, by="expiry")
        except ApprovalNotPending:
            return "settled"
        return "expired"
