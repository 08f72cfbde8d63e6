"""Deciding an approval outside the chat: an approver's yes or no, or its deadline.

A decision is a turn of the approval's session, run as its owner: a yes runs the steps that
waited and stores their result in the session exactly as the person's own yes would; a no or the
deadline cancels with nothing run. The person reads the outcome in their conversation. The
message the turn records says who decided ("Aprovado por um aprovador."), in the conversation's
language, so the history tells the person what happened on their behalf.
"""

from __future__ import annotations

from dialogue.approval import Decision
from gateway.storage.approvals import StoredApproval
from gateway.turns.approvals import OutsideDecision
from gateway.turns.turn import TurnService
from graph import SessionNotFoundError
from shared import i18n
from shared.errors import Conflict
from shared.models import ApprovalQuestion, EntryRequest, RunResult


def _note(decision: Decision, language: str, said_as: str) -> str:
    if decision is Decision.APPROVED:
        return i18n.t("dialogue.approval_approved_by", language, who=said_as)
    if decision is Decision.REJECTED:
        return i18n.t("dialogue.approval_rejected_note", language, who=said_as)
    return i18n.t("dialogue.approval_deadline_note", language)


class ApprovalNotPending(Conflict):
    code = "approval_not_pending"


async def still_waiting(turns: TurnService, approval: StoredApproval) -> bool:
    """Whether the session still waits for ``approval`` (its graph's pending question is it).
    A session that moved on without the row being settled (a corrected request that asked for
    a missing value instead) has its row settled here, as superseded."""
    try:
        state = (await turns.engine.get_session(approval.session_id)).state
    except SessionNotFoundError:  # a session reset or gone waits for nothing
        state = None
    question = state.question if state is not None else None
    if isinstance(question, ApprovalQuestion) and question.approval_id == approval.id:
        return True
    await turns.approvals.settle(approval.id, "superseded", by="owner")
    return False


async def decide(
    turns: TurnService,
    approval: StoredApproval,
    decision: Decision,
    *,
    by: str,
    said_as: str = "",
) -> RunResult:
    """Run the turn that carries ``decision`` out in ``approval``'s session, as its owner.
    ``ApprovalNotPending`` (409) when the session no longer waits for it."""
    if approval.status != "pending" or not await still_waiting(turns, approval):
        raise ApprovalNotPending("This approval no longer waits for a decision; nothing was done.")
    entry = EntryRequest.model_validate(
        {
            "session_id": approval.session_id,
            "input_text": _note(decision, approval.language, said_as),
            "channel": approval.channel,
        }
    )
    outside = OutsideDecision(approval_id=approval.id, decision=decision, by=by, said_as=said_as)
    return await turns.handle(entry, tenant=approval.tenant, outside=outside)


async def remind(turns: TurnService, approval: StoredApproval) -> RunResult:
    """Ask ``approval``'s question again in its session, on the person's behalf (a reminder):
    nothing is decided and nothing runs."""
    if approval.status != "pending" or not await still_waiting(turns, approval):
        raise ApprovalNotPending("This approval no longer waits for a decision; nothing was done.")
    entry = EntryRequest.model_validate(
        {
            "session_id": approval.session_id,
            "input_text": i18n.t("dialogue.approval_reminder_note", approval.language),
            "channel": approval.channel,
        }
    )
    outside = OutsideDecision(approval_id=approval.id, decision=None, by="reminder", reminder=True)
    return await turns.handle(entry, tenant=approval.tenant, outside=outside)
