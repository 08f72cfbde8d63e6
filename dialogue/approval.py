"""Approval gates: a step whose capability needs the person's yes (``policy.confirm``: the
manifest says so, an MCP tool is ``destructiveHint``, or the operator lists it in
``DOMAIN_CONFIRM_CAPABILITIES``) does not run until the person approves the plan.

The question says in plain words what will happen ("Próximo passo: envia uma mensagem pelo
Telegram (com o resultado de “cotação atual de uma ação…”)"), in the person's language, and is stored
with the session like every pending question, so it survives a restart and works in any chat
client. A goal entity's value reads the way the person talks ("o tipo de ausência: “dia de
folga”, o primeiro dia: “sexta, 13/03”, só meio período: sim"): an enum by its synonym in the
person's language, a boolean as a yes or a no, a date with its weekday, 2.0 as "2". A yes runs
the stored plan as it is; a no cancels it (nothing ran); a reply that is
neither asks once more, unless it is a confident new request, which drops the question.

A run that would re-issue a step that changes something with a failure's suggestion (a value the
person did not say), or whose rewritten plan would call such a step with a value nobody said, add
such an action the person's plan never had, or do such an action again, asks the same way
(:func:`replan_question`): the question names the failure, the action added or done again (once,
with its values), the values nobody said, and any value an earlier re-issue of the run already
used; a yes runs the new plan with the steps that already answered kept.

Each question has an ``approval_id``: the gateway lists it for the tenant's approvers, who may
decide it instead of the person, and holds its deadline: an answer after it is refused and nothing
runs (the turn's ``approval``, an :class:`~dialogue.approval_turn.ApprovalTurn`, carries what the
gateway knows into the turn, and what the turn decided back out). The question is in the person's
language throughout: a capability description written only in another language (an MCP tool's)
gives way to the description of the goal that asks for that capability alone, when the manifest
writes it in the person's language, and is otherwise quoted as the tool's own words.
"""

from __future__ import annotations

import uuid
from datetime import datetime, time, timedelta
from typing import Any, NamedTuple

from dialogue.approval_turn import ApprovalTurn, Decision
from dialogue.choice import is_no, is_yes, opens_with_no
from dialogue.slots import describe, enum_words, literal_text
from dialogue.state import Turn
from graph import StateUpdate
from intent.base import guessed
from planner.slots import own_steps
from shared import i18n
from shared.catalog import Catalog
from shared.entities import Entities
from shared.expressions import compile_expression, expressions_in, steps_named
from shared.i18n.languages import as_language
from shared.manifest import EntitySpec, Goal, LocalizedText
from shared.models import (
    ApprovalQuestion,
    ExecutionIntent,
    ExecutionPlan,
    ExecutionStep,
    IntentOutput,
    ResumePoint,
)
from shared.planning import HeldReplan, ParamChange
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


class ApprovalAnswer(NamedTuple):
    """A message's reply to a pending approval question."""

    #: The turn after it; its ``approval`` says which approval it answered and how.
    turn: Turn
    #: The question, still pending (asked again); ``None``: settled or dropped.
    question: ApprovalQuestion | None
    #: The message is a new request: the question is dropped, ``turn`` goes on to be understood.
    new_request: bool = False


class _Answered(StateUpdate, state=ApprovalTurn):
    answered_id: str | None
    outcome: Decision | None


class _Marked(StateUpdate, state=Turn):
    approval: ApprovalTurn | None


def _marked(turn: Turn, answered_id: str | None, outcome: Decision | None) -> Turn:
    """``turn`` noting that it answered ``answered_id`` as ``outcome`` (for the gateway, which
    stores the decision with the turn); unchanged for a turn the gateway handed nothing."""
    if turn.approval is None:
        return turn
    approval = _Answered(answered_id=answered_id, outcome=outcome).apply(turn.approval)
    return _Marked(approval=approval).apply(turn)


def new_approval_id() -> str:
    return f"apr-{uuid.uuid4().hex}"


def approval_policy(question: ApprovalQuestion, catalog: Catalog) -> tuple[float | None, float | None]:
    """The waiting steps' manifest deadline and reminder, in seconds: the shortest any of them
    asks for (``None`` where none sets one: the operator's default applies)."""
    expires: list[float] = []
    reminders: list[float] = []
    plan = question.resume.plan
    for step in plan.steps if plan is not None else []:
        if step.id not in question.steps:
            continue
        ref = catalog.find_capability(step.capability, step.domain)
        if ref is None:
            continue
        policy = ref.capability.metadata.policy
        if policy.approval_expires_s is not None:
            expires.append(policy.approval_expires_s)
        if policy.approval_reminder_s is not None:
            reminders.append(policy.approval_reminder_s)
    return (min(expires) if expires else None, min(reminders) if reminders else None)


def _said_in(description: LocalizedText, language: str) -> str | None:
    """``description`` in ``language`` when the manifest gives it in that language (a text by
    language with its key, or one string whose words vote for that language), else None."""
    if isinstance(description, dict) and as_language(language) not in description:
        return None  # describe would fall back to another language's text
    text = describe(description, language)
    if isinstance(description, dict):
        return text or None  # the manifest says which language it is
    return text if i18n.vote(text) == as_language(language) else None


def _goal_text(step: ExecutionStep, catalog: Catalog, language: str) -> str | None:
    """What the one goal of the step's domain that asks for its capability alone (none of its
    entities routing elsewhere) says it is for, when the manifest says it in ``language``: what
    a person asks for is what the capability does."""
    goals = [
        ref.goal
        for ref in catalog.goals(step.domain)
        if ref.goal.capabilities == [step.capability]
        and not any(spec.capability_map for spec in ref.goal.entities_schema.values())
    ]
    return _said_in(goals[0].description, language) if len(goals) == 1 else None


def _capability_text(step: ExecutionStep, catalog: Catalog, language: str) -> str:
    ref = catalog.find_capability(step.capability, step.domain)
    description = ref.capability.description if ref is not None else ""
    action = step.capability.replace("_", " ")
    if not description:
        return action
    text = describe(description, language)
    written_in = i18n.vote(text)
    if written_in is None or written_in == as_language(language):
        return text
    # another language's words (an MCP tool's English description): the goal that asks for
    # this capability says it in the person's language when its manifest does; else the words
    # are quoted as the tool's own, inside a sentence in the person's language
    return _goal_text(step, catalog, language) or i18n.t(
        "dialogue.approval_tool_words", language, action=action, words=text
    )


def _yes_no(value: object, language: str) -> str | None:
    """A boolean as a yes or a no in ``language`` (a planner may write it as "true"); None for
    anything else."""
    if isinstance(value, str) and value.lower() in ("true", "false"):
        value = value.lower() == "true"
    if not isinstance(value, bool):
        return None
    return i18n.t("dialogue.value_yes" if value else "dialogue.value_no", language)


def _number(value: float) -> str:
    """A number as people write it: 2.0 is "2"."""
    return str(int(value)) if value.is_integer() else str(value)


def _date_words(moment: datetime, language: str) -> str:
    weekday = i18n.t(f"dialogue.weekday_{moment.weekday()}", language)
    month = i18n.t(f"dialogue.month_{moment.month}", language)
    return i18n.t("dialogue.value_date", language, weekday=weekday, day=moment.day, month=month)


def _moment_words(value: str, kind: str, language: str) -> str | None:
    """An ISO date, time or datetime as the person reads it ("sexta, 13/03", "Fri 13 Mar",
    "14:00"); a datetime keeps the offset it was written in (the person's zone, as the
    extractor writes it). None when ``value`` is not ISO (shown as written)."""
    try:
        if kind == "time":
            return time.fromisoformat(value).strftime("%H:%M")
        moment = datetime.fromisoformat(value)
    except ValueError:
        return None
    if kind == "date" or len(value) <= len("2026-03-13"):
        return _date_words(moment, language)  # (a datetime entity given only its day)
    at = moment.strftime("%H:%M")
    return i18n.t("dialogue.value_date_time", language, date=_date_words(moment, language), time=at)


def _readable(value: object, spec: EntitySpec, language: str) -> str | None:
    """A literal value of a goal's entity in the person's words, or None when ``spec`` gives
    nothing better than the value as written."""
    if isinstance(value, list):
        return ", ".join(_readable(item, spec, language) or literal_text(item) for item in value)
    if spec.type == "boolean":
        return _yes_no(value, language)
    if isinstance(value, str):
        if spec.type == "enum":
            return enum_words(value, spec, language)
        if spec.type in ("date", "time", "datetime"):
            return _moment_words(value, spec.type, language)
        return None
    if isinstance(value, float):
        return _number(value)
    if isinstance(value, dict) and isinstance(value.get("amount"), float):
        return literal_text({**value, "amount": _number(value["amount"])})
    return None


def _value_text(
    value: Any,
    plan: ExecutionPlan,
    catalog: Catalog,
    language: str,
    spec: EntitySpec | None = None,
) -> str:
    """A parameter as the person can read it: a value an earlier step makes is named by that
    step ("with the result of ..."), a literal is quoted (shortened), in the person's words
    when ``spec`` (the goal's entity it is) says how (an enum's synonym, a yes, a weekday)."""
    readable = _readable(value, spec, language) if spec is not None else None
    if readable is not None:
        text = readable
    elif isinstance(value, str):
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
        text = literal_text(value)
    return f"“{text[:QUOTE_CHARS]}{'…' if len(text) > QUOTE_CHARS else ''}”"


def _param_text(
    name: str, value: Any, goal: Goal | None, plan: ExecutionPlan, catalog: Catalog, language: str
) -> str:
    """A parameter as the person reads it: named by the description of the goal's entity it
    is ("a quantidade de caixas: “1”"), so a value nobody said (a declared default) is not a
    bare figure; its value alone when the goal describes no such entity. A described switch
    reads as its description answered ("só meio período: sim"), unquoted: nobody typed it."""
    spec = goal.entities_schema.get(name) if goal is not None else None
    text = _value_text(value, plan, catalog, language, spec)
    if spec is None or not spec.description:
        return text
    answer = _yes_no(value, language) if spec.type == "boolean" else None
    return f"{describe(spec.description, language)}: {answer or text}"


def _action_text(
    step: ExecutionStep, plan: ExecutionPlan, catalog: Catalog, language: str, goal: Goal | None
) -> str:
    """What the step will do, with its parameters; ``goal``: the request's goal when the step is
    one of its own capabilities (its parameters are then the goal's entities)."""
    what = _capability_text(step, catalog, language)
    details = ", ".join(
        _param_text(name, value, goal, plan, catalog, language) for name, value in step.params.items()
    )
    return f"{what} ({details})" if details else what


def _goal_of(
    step_id: int, execution_intent: ExecutionIntent, plan: ExecutionPlan, catalog: Catalog
) -> Goal | None:
    """The request's goal when ``step_id`` is one of its own capabilities (its parameters are
    then the goal's entities), else None."""
    if step_id not in {step.id for step in own_steps(execution_intent, plan)}:
        return None
    return catalog.find_goal(execution_intent.domain, execution_intent.goal or "")


def _actions_text(
    steps: list[ExecutionStep],
    execution_intent: ExecutionIntent,
    plan: ExecutionPlan,
    catalog: Catalog,
    language: str,
) -> str:
    return "; ".join(
        _action_text(step, plan, catalog, language, _goal_of(step.id, execution_intent, plan, catalog))
        for step in steps
    )


def changes_text(
    changes: list[ParamChange],
    execution_intent: ExecutionIntent,
    plan: ExecutionPlan,
    catalog: Catalog,
    language: str,
) -> str:
    """Values a re-issue used that the person did not say, each beside the one it replaced and
    named as the approval names parameters ("“500 BRL” no lugar de “100 USD” (quanto quer
    gastar)")."""
    parts = []
    for change in changes:
        goal = _goal_of(change.step_id, execution_intent, plan, catalog)
        spec = goal.entities_schema.get(change.param) if goal is not None else None
        what = describe(spec.description, language) if spec is not None and spec.description else change.param
        after = _value_text(change.after, plan, catalog, language, spec)
        if change.before is None:
            parts.append(i18n.t("dialogue.replan_change_added", language, after=after, what=what))
            continue
        before = _value_text(change.before, plan, catalog, language, spec)
        parts.append(i18n.t("dialogue.replan_change", language, after=after, before=before, what=what))
    return "; ".join(parts)


def _listed(parts: list[str], language: str) -> str:
    """``parts`` as one clause list: "a; b; e c"."""
    if len(parts) < 2:
        return "".join(parts)
    return f"{'; '.join(parts[:-1])}; {i18n.t('word.and', language)} {parts[-1]}"


def _rewrite_text(
    held: HeldReplan, execution_intent: ExecutionIntent, catalog: Catalog, language: str
) -> str:
    """A held rewrite's question: what the new plan does that the person did not ask for (the
    actions it adds, those it does again, the values nobody said), then the other steps the
    yes is for; each action is named once, with its parameters."""
    plan = held.plan
    # an added or repeated action is named whole, its values with it: nothing of it was asked for
    named = set(held.added) | set(held.repeated)

    def actions(ids: set[int]) -> str:
        steps = [step for step in plan.steps if step.id in ids]
        return _actions_text(steps, execution_intent, plan, catalog, language)

    what = []
    if held.added:
        what.append(i18n.t("dialogue.rewrite_adds", language, actions=actions(set(held.added))))
    if held.repeated:
        what.append(i18n.t("dialogue.rewrite_repeats", language, actions=actions(set(held.repeated))))
    unsaid = [change for change in held.changes if change.step_id not in named]
    if unsaid:
        changes = changes_text(unsaid, execution_intent, plan, catalog, language)
        what.append(i18n.t("dialogue.rewrite_uses", language, changes=changes))
    rest = set(held.waiting) - named
    if not rest:
        return i18n.t(
            "dialogue.rewrite_named_ask", language, reason=held.explanation, what=_listed(what, language)
        )
    return i18n.t(
        "dialogue.rewrite_ask",
        language,
        reason=held.explanation,
        what=_listed(what, language),
        actions=actions(rest),
    )


def replan_question(
    held: HeldReplan,
    intent: IntentOutput,
    execution_intent: ExecutionIntent,
    catalog: Catalog,
    current: ApprovalTurn | None = None,
) -> ApprovalQuestion:
    """The yes a re-issue (or a rewrite) of a step that changes something waits for: the question
    names the failure and what the suggestion (or the new plan) changes; a yes runs ``held.plan``
    (the steps that settled before kept), a no cancels it, as for any approval."""
    language = intent.language
    plan = held.plan
    # the steps the yes is for: the failed one for a re-issue, a rewrite's new ones
    steps = [step for step in plan.steps if step.id in held.waiting]
    if held.action == "rewrite":
        text = _rewrite_text(held, execution_intent, catalog, language)
    else:
        text = i18n.t(
            "dialogue.replan_ask",
            language,
            reason=held.explanation,
            changes=changes_text(held.changes, execution_intent, plan, catalog, language),
            actions=_actions_text(steps, execution_intent, plan, catalog, language),
        )
    if held.already_used:
        # a value an earlier re-issue of this run used is named too: the yes knows every change
        used = changes_text(held.already_used, execution_intent, plan, catalog, language)
        text = f"{i18n.t('dialogue.replan_used', language, changes=used)}\n{text}"
    changed = _changed_entities(held.changes, execution_intent, plan, catalog)
    intent = intent.model_copy(update={"entities": {**intent.entities, **changed}}) if changed else intent
    asked = approval_question(steps, intent, execution_intent, plan, catalog, current)
    resume = asked.resume.model_copy(update={"steps": held.kept})
    return asked.model_copy(update={"text": text, "resume": resume})


def _changed_entities(
    changes: list[ParamChange], execution_intent: ExecutionIntent, plan: ExecutionPlan, catalog: Catalog
) -> Entities:
    """The goal's entities a re-issue changes, at their new values: once the person says yes, the
    request is the one that runs ("6 no lugar de 8"), and a follow-up builds on it."""
    changed: Entities = {}
    for change in changes:
        goal = _goal_of(change.step_id, execution_intent, plan, catalog)
        literal = not (isinstance(change.after, str) and TOKEN.search(change.after))
        if goal is not None and change.param in goal.entities_schema and literal:
            changed[change.param] = change.after
    return changed


def approval_question(
    steps: list[ExecutionStep],
    intent: IntentOutput,
    execution_intent: ExecutionIntent,
    plan: ExecutionPlan,
    catalog: Catalog,
    current: ApprovalTurn | None = None,
) -> ApprovalQuestion:
    """The question for ``steps`` (the plan's steps that wait for the yes); ``current`` (the
    turn's ``approval``) gives the time its deadline and reminder count from."""
    language = intent.language
    actions = _actions_text(steps, execution_intent, plan, catalog, language)
    question = ApprovalQuestion(
        approval_id=new_approval_id(),
        text=i18n.t("dialogue.approval_ask", language, actions=actions),
        steps=[step.id for step in steps],
        resume=ResumePoint(intent=intent, execution_intent=execution_intent, plan=plan, language=language),
    )
    if current is None or current.now is None:
        return question  # no clock given (a turn outside the gateway): it waits until answered
    expires_s, reminder_s = approval_policy(question, catalog)
    expires_s = expires_s if expires_s is not None else current.default_expires_s
    reminder_s = reminder_s if reminder_s is not None else current.default_reminder_s
    now = current.now
    return question.model_copy(
        update={
            "expires_at": now + timedelta(seconds=expires_s) if expires_s is not None else None,
            "remind_at": now + timedelta(seconds=reminder_s) if reminder_s is not None else None,
        }
    )


def _expired(turn: Turn, question: ApprovalQuestion) -> Turn:
    """Past the approval's deadline: the request is cancelled, nothing of it runs."""
    expired = {
        "route": "respond",
        "status": RunStatus.CANCELLED,
        "answer": i18n.t("dialogue.approval_expired", question.resume.language),
        "intent": None,
        "notes": [f"the approval of steps {question.steps} expired: nothing ran"],
    }
    return turn.model_copy(update=expired)


def _approved(turn: Turn, question: ApprovalQuestion, who: str) -> Turn:
    """A yes (the person's, or ``who`` approved it): the plan that waited runs."""
    resume = question.resume
    approved = {
        "intent": resume.intent,
        "execution_intent": resume.execution_intent,
        "plan": resume.plan,
        # steps that settled before the question (a re-issue that waited) are not called again
        "steps": resume.steps,
        "route": "execute",
        "confirmed": True,
        "notes": [f"{who or 'the person'} approved steps {question.steps}"],
    }
    return turn.model_copy(update=approved)


def _declined(turn: Turn, question: ApprovalQuestion, who: str) -> Turn:
    """A no (the person's, or ``who`` rejected it): the request is cancelled, nothing runs."""
    language = question.resume.language
    answer = (
        i18n.t("dialogue.approval_rejected_by", language, who=who[:1].upper() + who[1:])
        if who
        else i18n.t("dialogue.approval_declined", language)
    )
    declined = {
        "route": "respond",
        "status": RunStatus.CANCELLED,
        "answer": answer,
        "intent": None,
        "notes": [f"{who or 'the person'} declined steps {question.steps}: nothing ran"],
    }
    return turn.model_copy(update=declined)


def answer_approval(
    question: ApprovalQuestion, text: str, intent: IntentOutput, turn: Turn, threshold: float
) -> ApprovalAnswer:
    """``turn`` after ``text`` answered ``question``, with the question still pending (asked
    again) or None; ``new_request`` when the message is a new request (the question is dropped).
    A decision made outside the chat comes in ``turn.approval``, and what was answered goes
    back out in it."""
    language = question.resume.language
    current = turn.approval
    decision = current.decision if current is not None else None
    new_request = intent.goal is not None and intent.confidence >= threshold and not guessed(intent)
    answered_id: str | None = question.approval_id

    def answer(
        result: Turn, pending: ApprovalQuestion | None, outcome: Decision | None = None, *, new: bool = False
    ) -> ApprovalAnswer:
        return ApprovalAnswer(_marked(result, answered_id, outcome), pending, new)

    if current is not None:
        if not current.from_person and question.approval_id != current.target_id:
            # decided for another question than the one waiting now: nothing to do
            kept = {
                "route": "respond",
                "status": RunStatus.WAITING_INPUT,
                "answer": i18n.t("dialogue.approval_not_pending", language),
                "intent": None,
            }
            answered_id = None
            return answer(turn.model_copy(update=kept), question)
        late = (
            current.now is not None and question.expires_at is not None and current.now >= question.expires_at
        )
        if decision is Decision.EXPIRED or late:
            # correctness never waits for a timer: past the deadline, no answer runs anything
            if current.from_person and new_request:
                # the person moved on: their new request is answered as usual
                return answer(turn, None, Decision.EXPIRED, new=True)
            return answer(_expired(turn, question), None, Decision.EXPIRED)
        if current.reminder:
            reminded = {
                "route": "respond",
                "status": RunStatus.WAITING_INPUT,
                "answer": i18n.t("dialogue.approval_reminder", language, question=question.text),
                "intent": None,
            }
            return answer(turn.model_copy(update=reminded), question)
    who = current.decided_by if current is not None and decision is not None else ""
    if decision is Decision.APPROVED or (decision is None and is_yes(text)):
        return answer(_approved(turn, question, who), None, Decision.APPROVED)
    # corrections were read before ("não, pra segunda"): a first clause that says no is a no,
    # whatever reason follows ("no wait, I'll stay")
    if decision is Decision.REJECTED or (decision is None and (is_no(text) or opens_with_no(text))):
        return answer(_declined(turn, question, who), None, Decision.REJECTED)
    if new_request:
        return answer(turn, None, new=True)  # a new request: the plan that waited is dropped, nothing ran
    again = question.model_copy(
        update={"text": i18n.t("dialogue.approval_again", language, question=question.text)}
    )
    waiting = {"route": "respond", "status": RunStatus.WAITING_INPUT, "answer": again.text, "intent": None}
    # the question keeps its first wording: asking again does not nest the reminder
    return answer(turn.model_copy(update=waiting), question)
