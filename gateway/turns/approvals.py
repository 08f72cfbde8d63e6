"""Approvals around a turn: the turn gets the time, the operator's default deadline and reminder,
and any decision made outside the chat, in its message (``Turn.approval``, which
:mod:`dialogue.approval` reads and writes back which approval it answered); when the turn is
stored, the approval it asked or settled (read from its final state) is written in the same
transaction (:class:`~gateway.storage.approvals.ApprovalStore`).

The time is the ledger's ``clock`` (the platform's :func:`shared.clock.utcnow` unless a test
hands in its own), read once per turn: an answer at or after a question's deadline is refused
whether or not anything has noticed the deadline yet.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

from dialogue.approval_turn import ApprovalTurn, Decision
from dialogue.state import TurnState
from gateway.storage.approvals import (
    ApprovalStatus,
    ApprovalStep,
    ApprovalStore,
    StoredApproval,
    TurnWrite,
)
from shared.clock import utcnow
from shared.models import ApprovalQuestion

Clock = Callable[[], datetime]

log = logging.getLogger(__name__)


class ApprovalSettings(BaseSettings):
    """The operator's approval policy, for capabilities whose manifest sets none."""

    model_config = SettingsConfigDict(env_prefix="APPROVAL_", extra="ignore")

    #: Seconds an approval waits before it is cancelled with nothing run; unset: no deadline.
    expires_s: float | None = Field(default=None, gt=0)
    #: Seconds after the question when the person is reminded; unset: no reminder.
    reminder_s: float | None = Field(default=None, gt=0)


@dataclass(frozen=True, slots=True)
class OutsideDecision:
    """A decision on approval ``approval_id`` made outside the chat."""

    approval_id: str
    #: ``None`` with ``reminder``: the question is asked again, nothing decided.
    decision: Decision | None
    #: Stored as ``decided_by`` ("key:<id>", "expiry").
    by: str
    #: How the person reads who decided ("an approver").
    said_as: str = ""
    reminder: bool = False


class TurnApprovals:
    """One turn's approvals: :attr:`current` goes into the turn with its message, :meth:`writes`
    reads the turn's final state when it is stored."""

    def __init__(
        self, current: ApprovalTurn, *, run_id: str, by: str, session_id: str, tenant: str, channel: str
    ):
        #: What the turn is handed (its time, the defaults, a decision made outside the chat).
        self.current = current
        self.run_id = run_id
        self._by = by
        self._session_id = session_id
        self._tenant = tenant
        self._channel = channel
        #: The approval this turn asked (set when the turn is stored).
        self.asked: StoredApproval | None = None

    def writes(self, state: TurnState) -> list[TurnWrite]:
        """The approval rows this turn changes, for the transaction that stores it."""
        # what the turn answered is in its state; a turn that replaced it carries what it was handed
        current = state.turn.approval or self.current
        run_id = self.run_id
        now = current.now or utcnow()
        question = state.question
        waiting = question if isinstance(question, ApprovalQuestion) else None
        waiting_id = waiting.approval_id if waiting is not None else None
        writes: list[TurnWrite] = []
        answered = current.answered_id
        if answered is not None and answered != waiting_id:
            status: ApprovalStatus = (current.outcome or Decision.SUPERSEDED).value
            writes.append(ApprovalStore.decided_write(answered, status, by=self._by, run_id=run_id, now=now))
        if not current.from_person and answered is None and current.target_id is not None:
            # decided outside the chat, but the session no longer waits for it: settle it
            writes.append(
                ApprovalStore.decided_write(
                    current.target_id, "superseded", by=self._by, run_id=run_id, now=now
                )
            )
        if waiting is not None and waiting_id is not None and waiting_id != answered:
            self.asked = self._stored(waiting, waiting_id, state, now)
            writes.append(ApprovalStore.superseded_in_session_write(self._session_id, now, run_id))
            writes.append(ApprovalStore.asked_write(self.asked))
        return writes

    def _stored(
        self, question: ApprovalQuestion, approval_id: str, state: TurnState, now: datetime
    ) -> StoredApproval:
        plan = question.resume.plan
        steps = [
            ApprovalStep(step=step.id, domain=step.domain, capability=step.capability)
            for step in (plan.steps if plan is not None else [])
            if step.id in question.steps
        ]
        return StoredApproval(
            id=approval_id,
            tenant=self._tenant,
            session_id=self._session_id,
            run_id=self.run_id,
            status="pending",
            question=question.text,
            language=question.resume.language,
            channel=state.channel or self._channel,
            steps=steps,
            created_at=now,
            expires_at=question.expires_at,
            remind_at=question.remind_at,
        )


class ApprovalLedger:
    """Hands each turn its :class:`TurnApprovals`; ``clock`` is the time every turn reads."""

    def __init__(
        self,
        store: ApprovalStore | None,
        settings: ApprovalSettings | None = None,
        clock: Clock = utcnow,
    ):
        #: ``None``: approvals are not stored (a turn service built without a database of its own)
        self.store = store
        self.settings = settings or ApprovalSettings()
        self.clock = clock
        #: Starts the proactive reminder and expiry of an approval once it is stored (the
        #: durable engine's workflow); ``None``: only answers check the deadline.
        self.on_asked: Callable[[StoredApproval], Awaitable[None]] | None = None

    def begin(
        self,
        session_id: str,
        run_id: str,
        *,
        tenant: str,
        channel: str,
        outside: OutsideDecision | None = None,
    ) -> TurnApprovals:
        """The approvals of turn ``run_id``; ``outside``: the decision it carries out, made
        outside the chat (``None``: the person's message decides)."""
        now, expires_s, reminder_s = self.clock(), self.settings.expires_s, self.settings.reminder_s
        current = ApprovalTurn(now=now, default_expires_s=expires_s, default_reminder_s=reminder_s)
        by = "owner"
        if outside is not None:
            current = ApprovalTurn(
                now=now,
                default_expires_s=expires_s,
                default_reminder_s=reminder_s,
                decision=outside.decision,
                target_id=outside.approval_id,
                decided_by=outside.said_as,
                reminder=outside.reminder,
            )
            by = outside.by
        return TurnApprovals(
            current, run_id=run_id, by=by, session_id=session_id, tenant=tenant, channel=channel
        )

    def writes(self, approvals: TurnApprovals, state: TurnState) -> list[TurnWrite]:
        return approvals.writes(state) if self.store is not None else []

    async def stored(self, approvals: TurnApprovals) -> None:
        """After the turn is stored: the approval it asked, if any, gets its reminder and expiry
        (a failure here loses neither: a gateway's start-up starts them for every pending one)."""
        asked = approvals.asked
        if asked is None or self.on_asked is None:
            return
        if asked.expires_at is None and asked.remind_at is None:
            return
        try:
            await self.on_asked(asked)
        except Exception:
            log.warning("approval timers not started; the next gateway start starts them", exc_info=True)

    async def settle(self, approval_id: str, status: ApprovalStatus, *, by: str) -> bool:
        """Settle an approval its session no longer waits for (no turn to carry it)."""
        if self.store is None:
            return False
        return await self.store.settle(approval_id, status, by=by, now=self.clock())
