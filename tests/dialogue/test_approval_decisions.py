"""The approval question and its answers, without a gateway: one language per question (an MCP
tool's English-only description is quoted as the tool's own words in a Portuguese question), the
deadline (the manifest's or the operator's; an answer at or after it runs nothing), decisions made
outside the chat (an approver's, for the question waiting and no other) and the reminder."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from dialogue.approval import ApprovalAnswer, ApprovalTurn, Decision, answer_approval, approval_question
from dialogue.state import new_turn
from shared.catalog import Catalog
from shared.manifest import validate_manifest
from shared.models import ApprovalQuestion, ExecutionIntent, ExecutionPlan, ExecutionStep, IntentOutput
from shared.status import RunStatus

NOW = datetime(2030, 1, 6, 9, 0, tzinfo=UTC)

FILES: dict[str, Any] = {
    "domain": "files",
    "version": "1",
    "description": "Files on a server (an MCP server's tools)",
    "capabilities": [
        {
            # an MCP tool's description: the tool's own words, English only
            "name": "delete_file",
            "description": "Deletes the file at the given path permanently",
            "parameters": {"type": "object", "properties": {"path": {"type": "string"}}},
            "metadata": {"policy": {"confirm": True, "approval_expires_s": 600, "approval_reminder_s": 60}},
        },
        {
            "name": "archive_file",
            "description": {"pt": "Arquiva um arquivo", "en": "Archive a file"},
            "parameters": {"type": "object", "properties": {"path": {"type": "string"}}},
            "metadata": {"policy": {"confirm": True}},
        },
    ],
    "goals": [
        {"goal": "DELETE_FILE", "description": "Delete a file", "capabilities": ["delete_file"]},
        {
            "goal": "ARCHIVE_FILE",
            "description": {"pt": "Arquivar um arquivo", "en": "Archive a file"},
            "capabilities": ["archive_file"],
        },
    ],
}


def files() -> Catalog:
    return Catalog([validate_manifest(FILES)])


def _intent(language: str, goal: str = "DELETE_FILE") -> IntentOutput:
    return IntentOutput(primary_domain="files", goal=goal, confidence=0.9, language=language)


def _ask(
    language: str, capability: str = "delete_file", current: ApprovalTurn | None = None
) -> ApprovalQuestion:
    step = ExecutionStep(id=1, domain="files", capability=capability, params={"path": "/tmp/report.txt"})
    plan = ExecutionPlan(steps=[step])
    goal = "DELETE_FILE" if capability == "delete_file" else "ARCHIVE_FILE"
    execution = ExecutionIntent(domain="files", capability=capability, goal=goal)
    return approval_question([step], _intent(language, goal), execution, plan, files(), current)


def test_an_english_tool_description_is_quoted_as_the_tools_words_in_a_portuguese_question() -> None:
    question = _ask("pt")
    assert question.text.startswith("Antes de seguir, preciso da sua confirmação.")
    assert "a ação “delete file” (nas palavras da própria ferramenta: “deletes the file" in question.text
    assert question.text.endswith("Confirma? (sim/não)")


def test_the_same_tool_in_english_is_described_plainly() -> None:
    question = _ask("en")
    assert "Next step: deletes the file at the given path permanently (“/tmp/report.txt”)" in question.text
    assert "own words" not in question.text


def test_a_description_in_the_persons_language_is_not_quoted() -> None:
    assert "arquiva um arquivo (“/tmp/report.txt”)" in _ask("pt", "archive_file").text


def test_the_manifest_deadline_and_reminder_apply_else_the_operators() -> None:
    own = _ask("en", current=ApprovalTurn(now=NOW, default_expires_s=3600))
    assert own.approval_id is not None
    assert own.expires_at == NOW + timedelta(seconds=600) and own.remind_at == NOW + timedelta(seconds=60)
    operator = _ask(
        "en",
        "archive_file",
        ApprovalTurn(now=NOW, default_expires_s=3600, default_reminder_s=5),
    )
    assert operator.expires_at == NOW + timedelta(seconds=3600)
    assert operator.remind_at == NOW + timedelta(seconds=5)
    assert _ask("en", "archive_file", ApprovalTurn(now=NOW)).expires_at is None
    assert _ask("en").expires_at is None  # no clock given: it waits until answered


def _answer(
    question: ApprovalQuestion, text: str, current: ApprovalTurn, intent: IntentOutput | None = None
) -> ApprovalAnswer:
    turn = new_turn("run-2", text, approval=current)
    return answer_approval(question, text, intent or IntentOutput(language="pt"), turn, threshold=0.7)


def _answered(reply: ApprovalAnswer) -> ApprovalTurn:
    """What the turn hands back to the gateway: which approval it answered, and how."""
    assert reply.turn.approval is not None
    return reply.turn.approval


def test_a_yes_at_the_deadline_runs_nothing() -> None:
    question = _ask("pt", current=ApprovalTurn(now=NOW))
    assert question.expires_at is not None
    in_time = ApprovalTurn(now=question.expires_at - timedelta(seconds=1))
    answered = _answer(question, "sim", in_time)
    assert answered.turn.route == "execute" and answered.turn.confirmed and answered.question is None
    assert _answered(answered).outcome is Decision.APPROVED
    assert _answered(answered).answered_id == question.approval_id

    late = ApprovalTurn(now=question.expires_at)
    refused = _answer(question, "sim", late)
    turn, still = refused.turn, refused.question
    assert still is None and turn.route == "respond" and turn.status == RunStatus.CANCELLED
    assert turn.answer == "Este pedido expirou sem aprovação; nada foi feito."
    assert _answered(refused).outcome is Decision.EXPIRED


def test_a_new_request_after_the_deadline_is_answered_and_the_approval_recorded_expired() -> None:
    question = _ask("pt", current=ApprovalTurn(now=NOW))
    assert question.expires_at is not None
    late = ApprovalTurn(now=question.expires_at + timedelta(days=3))
    request = IntentOutput(primary_domain="files", goal="ARCHIVE_FILE", confidence=0.95, language="pt")
    moved_on = _answer(question, "arquiva o relatório", late, request)
    assert moved_on.new_request and moved_on.question is None
    assert _answered(moved_on).outcome is Decision.EXPIRED
    assert _answered(moved_on).answered_id == question.approval_id


def _by_approver(decision: Decision, target_id: str | None) -> ApprovalTurn:
    """A turn carrying a decision an approver made through the API, at ``NOW``."""
    return ApprovalTurn(now=NOW, decision=decision, target_id=target_id, decided_by="um aprovador")


def test_an_approvers_decision_applies_to_the_question_waiting_only() -> None:
    question = _ask("pt", current=ApprovalTurn(now=NOW))
    other = _by_approver(Decision.APPROVED, "apr-another")
    kept = _answer(question, "Aprovado por um aprovador.", other)
    assert kept.question == question and kept.turn.status == RunStatus.WAITING_INPUT
    assert _answered(kept).outcome is None and _answered(kept).answered_id is None

    approver = _by_approver(Decision.APPROVED, question.approval_id)
    approved = _answer(question, "Aprovado por um aprovador.", approver)
    assert approved.turn.route == "execute" and approved.question is None
    assert _answered(approved).outcome is Decision.APPROVED

    rejecter = _by_approver(Decision.REJECTED, question.approval_id)
    rejected = _answer(question, "Recusado por um aprovador.", rejecter)
    assert rejected.turn.status == RunStatus.CANCELLED and _answered(rejected).outcome is Decision.REJECTED
    assert rejected.turn.answer == "Um aprovador recusou o pedido; nada foi feito."


def test_a_reminder_asks_again_and_decides_nothing() -> None:
    question = _ask("pt", current=ApprovalTurn(now=NOW))
    reminder = ApprovalTurn(now=NOW, target_id=question.approval_id, reminder=True)
    reminded = _answer(question, "Lembrete de aprovação.", reminder)
    assert reminded.question == question
    assert reminded.turn.answer == f"Lembrete: um pedido seu ainda espera aprovação. {question.text}"
    assert _answered(reminded).outcome is None


@pytest.mark.parametrize("text", ["sim", "não"])
def test_without_a_turn_context_the_chat_answers_as_before(text: str) -> None:
    question = _ask("pt")
    turn = new_turn("run-9", text)
    answered = answer_approval(question, text, IntentOutput(language="pt"), turn, threshold=0.7)
    assert not answered.new_request and answered.question is None
    assert answered.turn.approval is None  # nothing handed in, nothing handed back
