"""Approval gates: a step whose capability needs the person's yes (``policy.confirm``: the
manifest says so, an MCP tool is ``destructiveHint``, or the operator lists it in
``DOMAIN_CONFIRM_CAPABILITIES``) does not run until the person approves the plan.

The question says in plain words what will happen ("Próximo passo: envia uma mensagem pelo
Telegram (com o resultado de “cotação atual de uma ação…”)"), in the person's language, and is stored
with the session like every pending question, so it survives a restart and works in any chat
client. A yes runs the stored plan as it is; a no cancels it (nothing ran); a reply that is
neither asks once more, unless it is a confident new request, which drops the question.
"""

from __future__ import annotations

from typing import Any

from dialogue.choice import is_no, is_yes
from dialogue.slots import describe
from dialogue.state import Turn
from intent.base import guessed
from shared import i18n
from shared.catalog import Catalog
from shared.expressions import compile_expression, expressions_in, steps_named
from shared.models import (
    ApprovalQuestion,
    ExecutionIntent,
    ExecutionPlan,
    ExecutionStep,
    IntentOutput,
    ResumePoint,
)
from shared.references import TOKEN
from shared.status import RunStatus

#: How much of a literal parameter value the question quotes.
QUOTE_CHARS = 120


def steps_needing_approval(plan: ExecutionPlan, catalog: Catalog) -> list[ExecutionStep]:
    """The plan's steps whose capability's policy asks for the person's yes."""
    needing = []
    for step in plan.steps:
        ref = catalog.find_capability(step.capability, step.domain)
        if ref is not None and ref.capability.metadata.policy.confirm:
            needing.append(step)
    return needing


def _capability_text(step: ExecutionStep, catalog: Catalog, language: str) -> str:
    ref = catalog.find_capability(step.capability, step.domain)
    description = ref.capability.description if ref is not None else ""
    return describe(description, language) if description else step.capability.replace("_", " ")


def _value_text(value: Any, plan: ExecutionPlan, catalog: Catalog, language: str) -> str:
    """A parameter as the person can read it: a value an earlier step makes is named by that
    step ("with the result of ..."), a literal is quoted (shortened)."""
    if isinstance(value, str):
        match = TOKEN.search(value)
        # a ${= ...} selection reads earlier steps too: named by the first one it reads
        read = sorted(n for e in expressions_in(value) for n in steps_named(compile_expression(e)))
        source_id = int(match.group(1)) if match is not None and match.group(1) is not None else None
        if source_id is None and read:
            source_id = read[0]
        if source_id is not None:
            source = next((s for s in plan.steps if s.id == source_id), None)
            if source is not None:
                what = _capability_text(source, catalog, language)
                return i18n.t("dialogue.approval_result_of", language, what=what)
        text = value.replace("$${", "${")
    else:
        text = str(value)
    return f"“{text[:QUOTE_CHARS]}{'…' if len(text) > QUOTE_CHARS else ''}”"


def _action_text(step: ExecutionStep, plan: ExecutionPlan, catalog: Catalog, language: str) -> str:
    what = _capability_text(step, catalog, language)
    details = ", ".join(_value_text(value, plan, catalog, language) for value in step.params.values())
    return f"{what} ({details})" if details else what


def approval_question(
    steps: list[ExecutionStep],
    intent: IntentOutput,
    execution_intent: ExecutionIntent,
    plan: ExecutionPlan,
    catalog: Catalog,
) -> ApprovalQuestion:
    """The question for ``steps`` (the plan's steps that wait for the yes)."""
    language = intent.language
    actions = "; ".join(_action_text(step, plan, catalog, language) for step in steps)
    return ApprovalQuestion(
        text=i18n.t("dialogue.approval_ask", language, actions=actions),
        steps=[step.id for step in steps],
        resume=ResumePoint(intent=intent, execution_intent=execution_intent, plan=plan, language=language),
    )


def answer_approval(
    question: ApprovalQuestion, text: str, intent: IntentOutput, turn: Turn, threshold: float
) -> tuple[Turn, ApprovalQuestion | None] | None:
    """``turn`` after ``text`` answered ``question``, with the question still pending (asked
    again) or None; ``None`` when the message is a new request (the question is dropped)."""
    resume = question.resume
    language = resume.language
    if is_yes(text):
        approved = {
            "intent": resume.intent,
            "execution_intent": resume.execution_intent,
            "plan": resume.plan,
            "route": "execute",
            "confirmed": True,
            "notes": [f"the person approved steps {question.steps}"],
        }
        return turn.model_copy(update=approved), None
    if is_no(text):
        declined = {
            "route": "respond",
            "status": RunStatus.CANCELLED,
            "answer": i18n.t("dialogue.approval_declined", language),
            "intent": None,
            "notes": [f"the person declined steps {question.steps}: nothing ran"],
        }
        return turn.model_copy(update=declined), None
    if intent.goal is not None and intent.confidence >= threshold and not guessed(intent):
        return None  # a new request: the plan that waited is dropped, nothing of it ran
    again = question.model_copy(
        update={"text": i18n.t("dialogue.approval_again", language, question=question.text)}
    )
    waiting = {"route": "respond", "status": RunStatus.WAITING_INPUT, "answer": again.text, "intent": None}
    # the question keeps its first wording: asking again does not nest the reminder
    return turn.model_copy(update=waiting), question
