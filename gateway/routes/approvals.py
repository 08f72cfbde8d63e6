"""Approvals waiting for a yes, for the tenant's approvers: list, approve, reject.

``GET /v1/approvals`` lists the caller's tenant's pending approvals; ``POST
/v1/approvals/{id}/approve`` runs the steps that waited, in the approval's session, as the
person's own yes would (the result is stored in their conversation); ``.../reject`` cancels with
nothing run. Past its deadline an approval is refused ("this request expired, nothing was done")
and recorded expired in its session. Every route needs an ``approver`` key (or the open mode's
anonymous caller, who owns every session anyway); another tenant's approval is a 404, word for
word the answer for one that does not exist.
"""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Path, Query
from pydantic import BaseModel

from dialogue.approval import Decision
from gateway.deps import PrincipalDep, TurnsDep
from gateway.storage.approvals import ApprovalStore, StoredApproval
from gateway.storage.principals import Principal
from gateway.turns.approval_decisions import ApprovalNotPending, decide
from gateway.turns.turn import TurnService
from shared import i18n
from shared.errors import Conflict, Forbidden, NotFound, SetupError
from shared.models import RunResult

router = APIRouter(prefix="/v1/approvals", tags=["approvals"])

ApprovalIdParam = Annotated[str, Path(min_length=1, max_length=40, pattern=r"^[A-Za-z0-9_\-]+$")]


class ApprovalList(BaseModel):
    object: Literal["list"] = "list"
    data: list[StoredApproval]


class ApprovalDecided(BaseModel):
    """The approval after the decision, and the run that carried it out in its session."""

    approval: StoredApproval
    run: RunResult


class ApprovalExpired(Conflict):
    code = "approval_expired"


def _approver(principal: PrincipalDep) -> Principal:
    if principal.is_approver or not principal.authenticated:
        return principal
    raise Forbidden(f"This API key has the {principal.role} role: approvals need an approver key.")


ApproverDep = Annotated[Principal, Depends(_approver)]


def _store(turns: TurnService) -> ApprovalStore:
    store = turns.approvals.store
    if store is None:  # every gateway app builds one; a bare turn service has none
        raise SetupError("approvals are not stored by this gateway")
    return store


def _who(principal: Principal) -> str:
    return f"key:{principal.key_id}" if principal.key_id else f"tenant:{principal.tenant}"


@router.get("", response_model=ApprovalList)
async def list_approvals(
    approver: ApproverDep,
    turns: TurnsDep,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
) -> ApprovalList:
    """The caller's tenant's approvals still waiting (past their deadline ones are not)."""
    pending = await _store(turns).pending(approver.tenant, turns.approvals.clock(), limit=limit)
    return ApprovalList(data=pending)


async def _decide(
    approval_id: str, decision: Decision, approver: Principal, turns: TurnService
) -> ApprovalDecided:
    store = _store(turns)
    approval = await store.get(approval_id, approver.tenant)
    if approval is None:
        raise NotFound(f"No approval '{approval_id}'.")
    if approval.status == "pending" and approval.expired_at(turns.approvals.clock()):
        # the session is told and the run recorded, whether or not the expiry had run yet
        run = await decide(turns, approval, Decision.EXPIRED, by="expiry")
        raise ApprovalExpired(f"This request expired, nothing was done (run {run.run_id}).")
    if approval.status == "expired":
        raise ApprovalExpired("This request expired, nothing was done.")
    said_as = i18n.t("dialogue.approval_an_approver", approval.language)
    run = await decide(turns, approval, decision, by=_who(approver), said_as=said_as)
    settled = await store.get(approval_id, approver.tenant)
    if settled is not None and settled.status == "expired":
        # the deadline passed between the check and the turn: the turn refused it
        raise ApprovalExpired(f"This request expired, nothing was done (run {run.run_id}).")
    if settled is None or settled.decision_run_id != run.run_id:
        # decided by someone else (the person's own answer) between the check and the turn
        raise ApprovalNotPending("This approval was decided meanwhile; nothing more was done.")
    return ApprovalDecided(approval=settled, run=run)


@router.post("/{approval_id}/approve", response_model=ApprovalDecided)
async def approve(approval_id: ApprovalIdParam, approver: ApproverDep, turns: TurnsDep) -> ApprovalDecided:
    """Run the steps that waited, in the approval's session, as the person's yes would."""
    return await _decide(approval_id, Decision.APPROVED, approver, turns)


@router.post("/{approval_id}/reject", response_model=ApprovalDecided)
async def reject(approval_id: ApprovalIdParam, approver: ApproverDep, turns: TurnsDep) -> ApprovalDecided:
    """Cancel the request with nothing run."""
    return await _decide(approval_id, Decision.REJECTED, approver, turns)
