"""What a turn knows of approvals, carried in the turn itself (``Turn.approval``).

The gateway hands it in with the message (the turn's time, the operator's default deadline and
reminder, a decision made outside the chat); ``understand`` writes back which approval the message
answered and how (:func:`dialogue.approval.answer_approval`); the gateway reads that from the
turn's final state when it stores the turn. Apart from :mod:`dialogue.approval` so that
:mod:`dialogue.state` can hold it without importing the approval rules.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from pydantic import BaseModel, ConfigDict


class Decision(StrEnum):
    """How a waiting approval ended."""

    APPROVED = "approved"
    REJECTED = "rejected"
    EXPIRED = "expired"
    #: The person moved on to another request (or corrected it, which asks again): nothing ran.
    SUPERSEDED = "superseded"


class ApprovalTurn(BaseModel):
    """One turn's view of approvals: what the gateway hands in (the time, the operator's
    defaults, a decision made outside the chat) and what the turn did (which approval it
    answered and how), read back when the turn is stored."""

    model_config = ConfigDict(frozen=True)

    #: The turn's time: an answer at or after a question's ``expires_at`` is refused.
    now: datetime | None = None
    #: The operator's deadline and reminder, for steps whose manifest sets none.
    default_expires_s: float | None = None
    default_reminder_s: float | None = None
    #: Decided outside the chat (an approver, the deadline), for the approval ``target_id``;
    #: ``None``: the person's message decides.
    decision: Decision | None = None
    target_id: str | None = None
    #: Who decided outside the chat, as the person reads it ("an approver").
    decided_by: str = ""
    #: A reminder on the person's behalf (for ``target_id``): the question is asked again.
    reminder: bool = False
    #: Set by the turn: the approval it answered (or dropped), and how it ended.
    answered_id: str | None = None
    outcome: Decision | None = None

    @property
    def from_person(self) -> bool:
        return self.decision is None and not self.reminder
