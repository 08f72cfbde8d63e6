"""Slot filling: asking for an entity the goal needs before any domain is called, and reading the
answer.

The planner's :func:`~planner.slots.check_slots` says what a plan lacks; here it becomes a
:class:`~shared.models.SlotQuestion` in the person's language, made from the entity's description
(by language, ``{"pt": …, "en": …}``, or one "texto em português (English text)" string; the text
in the person's language is used, see :func:`shared.i18n.bilingual.text_in`). The reply is read
by the goal's own entity extractor, preferring the entity asked for ("reais" answers "which
currency to?"); whatever else it names replaces what was said before ("não, em euros"). A
confident request for another goal drops the question, unless the reply says nothing but the
value asked for ("order 50017" to "which order number?" is no order-status request); a reply
that names nothing is asked again once, then the platform says what it needs and stops asking.
"""

from __future__ import annotations

from dialogue.choice import choose, listed
from dialogue.state import Turn
from intent.base import guessed, lone_value
from intent.entities import NOT_ENTITY, GoalEntityExtractor, value_words
from intent.text import words
from intent.typed import Clock
from planner.slots import SlotProblem
from shared import i18n
from shared.entities import Entities
from shared.i18n.bilingual import Localized, all_texts, text_in
from shared.i18n.languages import as_language
from shared.manifest import EntitySpec, Goal
from shared.models import (
    ClarificationOption,
    DomainOutput,
    ExecutionIntent,
    ExecutionPlan,
    IntentOutput,
    ResumePoint,
    SlotQuestion,
)
from shared.status import RunStatus

#: Replies that name nothing before the platform stops asking.
MAX_ATTEMPTS = 2
#: The values of a goal named in the question for what a request is about: a few, not a form.
OBJECT_WORDS = 3
#: Words an answer stands in for the thing asked about, beside its value ("the full day *one*").
STAND_IN = frozenset({"one", "ones"})


def describe(description: Localized, language: str) -> str:
    """A description (an entity's, a goal's) in ``language``, ready to go inside a sentence.

    >>> describe({"pt": "A moeda de destino", "en": "The currency to convert to"}, "en")
    'the currency to convert to'
    >>> describe("A moeda de destino (the currency to convert to)", "en")
    'the currency to convert to'
    >>> describe("A moeda de destino (the currency to convert to)", "pt")
    'a moeda de destino'
    >>> describe("CNPJ da empresa", "en")
    'CNPJ da empresa'
    """
    text = text_in(description, language)
    if len(text) > 1 and text[0].isupper() and not text[1].isupper():
        text = text[0].lower() + text[1:]
    return text


def goal_described(goal: Goal | None, goal_id: str, language: str) -> str:
    """What a goal is for, in ``language``. People never see a goal's id: a goal without a
    description (or gone from the catalog) is named by its id's words.

    >>> goal_described(None, "TOP_MOVERS", "en")
    'top movers'
    """
    described = describe(goal.description, language) if goal is not None else ""
    return described or goal_id.replace("_", " ").lower()


def _what(spec: EntitySpec, entity: str, language: str) -> str:
    return describe(spec.description, language) if spec.description else entity.replace("_", " ")


def enum_words(value: str, spec: EntitySpec, language: str) -> str | None:
    """An enum value in the entity's own words: its first synonym written in ``language`` (by
    the words' vote, :func:`shared.i18n.vote`), else the value in lower case.
    None for a value the entity does not declare (a planner's own text, shown as written)."""
    if value not in (spec.values or []):
        return None
    said = [word for word in spec.synonyms.get(value, []) if i18n.vote(word) == as_language(language)]
    return said[0] if said else value.lower().replace("_", " ")


def enum_options(spec: EntitySpec, language: str | None = None) -> list[ClarificationOption]:
    """An enum entity's values as options to pick by value or by any of its synonyms, labelled
    in ``language``'s words when given ("1. pista 2. camarote", not "1. FLOOR 2. VIP")."""
    if spec.type != "enum":
        return []
    return [
        ClarificationOption(
            value=v,
            label=(enum_words(v, spec, language) or v) if language else v,
            aliases=[v, *spec.synonyms.get(v, [])],
        )
        for v in spec.values or []
    ]


def literal_text(value: object) -> str:
    """A value as written for people: an amount of money as "200 BRL" (or "200" when its
    currency was not said), a list as its items, anything else as text.

    >>> literal_text({"amount": 49.9, "currency": "BRL"}), literal_text({"amount": 200, "currency": None})
    ('49.9 BRL', '200')
    >>> literal_text(["luz", "água", {"amount": 5, "currency": "USD"}])
    'luz, água, 5 USD'
    """
    if isinstance(value, dict) and "amount" in value:
        currency = value.get("currency")
        return f"{value['amount']} {currency}" if currency else str(value["amount"])
    if isinstance(value, list):
        return ", ".join(literal_text(item) for item in value)
    return str(value)


def slot_question(
    problem: SlotProblem,
    spec: EntitySpec,
    intent: IntentOutput,
    execution_intent: ExecutionIntent,
    plan: ExecutionPlan,
) -> SlotQuestion:
    """The question for ``problem.entity``; a rejected value is dropped from what is kept."""
    entity = problem.entity or problem.param
    language = intent.language
    what = _what(spec, entity, language)
    if problem.problem == "invalid":
        value = literal_text(intent.entities.get(entity))
        text = i18n.t("dialogue.slot_invalid", language, value=value, what=what)
    else:
        text = i18n.t("dialogue.slot_question", language, what=what)
    options = enum_options(spec, language)
    kept = intent.model_copy(update={"entities": {k: v for k, v in intent.entities.items() if k != entity}})
    resume = ResumePoint(
        intent=kept,
        language=language,
        plan=plan,
        execution_intent=execution_intent,
        domain=execution_intent.domain,
    )
    return SlotQuestion(
        text=listed(text, options, language, with_value=False), entity=entity, options=options, resume=resume
    )


def _alternatives(goal: Goal, names: list[str], language: str) -> str:
    """The entities ``names`` as one question's object: "o dia ou o técnico"."""
    whats = [_what(goal.entities_schema[name], name, language) for name in names]
    return f" {i18n.t('word.or', language)} ".join(
        [", ".join(whats[:-1]), whats[-1]] if len(whats) > 1 else whats
    )


def group_question(
    goal: Goal, intent: IntentOutput, execution_intent: ExecutionIntent, plan: ExecutionPlan
) -> SlotQuestion | None:
    """For a request that names none of a group the goal needs one of (``required_one_of``: "a
    biller or a barcode"): one question naming the alternatives ("Para continuar, preciso saber: a
    conta a pagar ou o código de barras."); the first is the one asked, a reply with any of them
    fills it. ``None`` when every group has a value."""
    group = goal.missing_group(intent.entities)
    if group is None:
        return None
    language = intent.language
    resume = ResumePoint(
        intent=intent,
        language=language,
        plan=plan,
        execution_intent=execution_intent,
        domain=execution_intent.domain,
    )
    text = i18n.t("dialogue.slot_question", language, what=_alternatives(goal, group, language))
    return SlotQuestion(text=text, entity=group[0], options=[], resume=resume)


def object_question(
    goal: Goal, intent: IntentOutput, execution_intent: ExecutionIntent, plan: ExecutionPlan
) -> SlotQuestion | None:
    """Asked before a step that waits for the person's yes, so the yes is never asked for a step
    that still lacks its object: a group of ``required_one_of`` none of which was said
    (:func:`group_question`), else, for a request to change something that names nothing of it
    ("quero cancelar uma consulta"), the question for what it is about, naming the values the
    goal takes (the first is the one asked; a reply with any of them fills it). ``None`` when
    nothing is lacking, the goal takes no value to name (switches aside), or it names no thing
    (no string entity) and its own examples ask for it naming nothing: "fecha o pedido do
    mercado" places the cart, and its day and budget are options, not what it is about."""
    grouped = group_question(goal, intent, execution_intent, plan)
    if grouped is not None or intent.entities:
        return grouped
    names_a_thing = any(spec.type == "string" for spec in goal.entities_schema.values())
    if not names_a_thing and any(isinstance(e, str) or not e.entities for e in goal.examples):
        return None
    named = [n for n, s in goal.entities_schema.items() if s.type != "boolean"][:OBJECT_WORDS]
    if not named:
        return None
    language = intent.language
    what = _alternatives(goal, named, language)
    resume = ResumePoint(
        intent=intent,
        language=language,
        plan=plan,
        execution_intent=execution_intent,
        domain=execution_intent.domain,
    )
    text = i18n.t("dialogue.slot_question", language, what=what)
    return SlotQuestion(text=text, entity=named[0][0], options=[], resume=resume)


def _asked_group(question: SlotQuestion, extractor: GoalEntityExtractor) -> list[str]:
    """The group of ``required_one_of`` the question asks for (none of it said yet), or []."""
    group = extractor.goal.missing_group(question.resume.intent.entities) or []
    return group if question.entity in group else []


def slot_output(question: SlotQuestion) -> DomainOutput:
    """The turn's output while the question waits (what a trace shows in place of a domain's answer)."""
    return DomainOutput(
        status="clarification",
        explanation=question.text,
        result={"entity": question.entity, "options": [o.model_dump(mode="json") for o in question.options]},
        metadata={"resolution": "slot_filling"},
    )


def only_the_answer(text: str, entity: str, found: Entities, spec: EntitySpec | None) -> bool:
    """Whether ``text`` gives the value asked for and nothing a request of its own would say: its
    words are the value's, words naming the entity ("order 50017" to "which order number?"),
    function words and filler. "order 50017" answers the question even when the classifier reads
    an order's status in it; "where is order 50017?" asks for something else.

    >>> only_the_answer("order 50017", "order_number_text", {"order_number_text": "50017"}, None)
    True
    >>> only_the_answer("where is order 50017?", "order_number_text", {"order_number_text": "50017"}, None)
    False
    >>> only_the_answer("a coffee maker", "product_text", {}, None)
    False
    >>> bath = EntitySpec(type="enum", values=["BATH"], synonyms={"BATH": ["banho", "wash"]})
    >>> only_the_answer("banho", "service", {"service": "BATH"}, bath)
    True
    """
    if entity not in found:
        return False
    said: set[str] = set()
    for value in found.values():
        for item in value if isinstance(value, list) else [value]:
            # a code read joined ("cn4821" of "CN 4821") says its letters and digits apart too
            said.update(value_words(str(item)))
    answer = found[entity]
    if spec is not None and spec.synonyms and isinstance(answer, str):
        # an enum's value is read from its synonyms: "banho" said is the "BATH" found
        for synonym in spec.synonyms.get(answer, ()):
            said.update(words(synonym))
    naming = naming_words(entity, spec)
    left = [w for w in words(text) if w not in said and w not in naming and w not in NOT_ENTITY]
    return not [w for w in left if w not in STAND_IN]


def naming_words(entity: str, spec: EntitySpec | None) -> set[str]:
    """The words that name ``entity``: its name's and its description's in every language
    ("order", "number" of ``order_number_text``; "valor", "prejuizo" of "O valor do prejuízo")."""
    naming = set(words(entity.replace("_", " ")))
    if spec is not None:
        for part in all_texts(spec.description):
            naming.update(words(part))
    return naming


def answer_slot(
    question: SlotQuestion,
    text: str,
    intent: IntentOutput,
    turn: Turn,
    extractor: GoalEntityExtractor,
    threshold: float,
    clock: Clock | None = None,
) -> tuple[Turn, SlotQuestion | None] | None:
    """``turn`` continued by the reply ``text`` (and the question still pending, if any), or
    ``None`` when the reply is a new request for another goal (the question is dropped)."""
    asked = question.resume.intent
    other_goal = (intent.primary_domain, intent.goal) != (asked.primary_domain, asked.goal)
    # a value of a table alone is no request of its own while a question waits ("the english one"
    # to "which course?" is no question about the course)
    sure = (
        intent.goal is not None
        and intent.confidence >= threshold
        and not guessed(intent)
        and not lone_value(intent)
    )
    # a reply that is no sure request of another goal is the value asked for, all of it
    # ("bela vista, rua treze de maio 20" to "which address?")
    found = extractor.extract(
        text,
        prefer=question.entity,
        clock=clock,
        language=question.resume.language,
        reply=not (sure and other_goal),
    )
    # a question for a group (required_one_of) is answered by any of its alternatives
    answers = _asked_group(question, extractor) or [question.entity]
    if (
        sure
        and other_goal
        and not any(only_the_answer(text, name, found, extractor.specs.get(name)) for name in answers)
        and not _says_more_for_the_asked(found, answers, intent)
    ):
        return None
    if question.entity not in found and question.options:
        index = choose(text, question.options)
        if index is not None:
            found[question.entity] = question.options[index].value
    if found:
        return _filled(question, turn, found), None
    return _asked_again(question, turn, extractor)


def _says_more_for_the_asked(found: Entities, answers: list[str], intent: IntentOutput) -> bool:
    """Whether the reply gives the value asked for and more values of the pending request than
    the other goal reads in it: "policy SG3307, it happened on march 1st" to a claim's "which
    policy?" names the claim's day too, which a question about the policy's cover does not read."""
    return any(name in found for name in answers) and len(found) > len(intent.entities)


def _filled(question: SlotQuestion, turn: Turn, found: Entities) -> Turn:
    """``turn`` going on to plan its request with the values the reply gave."""
    asked = question.resume.intent
    resumed = asked.model_copy(
        update={"entities": {**asked.entities, **found}, "notes": [*asked.notes, f"slot reply: {found}"]}
    )
    return turn.model_copy(
        update={
            "intent": resumed,
            "route": "plan",
            "confirmed": True,
            "notes": [f"the reply filled {sorted(found)} (asked: {question.entity})"],
        }
    )


def _asked_again(
    question: SlotQuestion, turn: Turn, extractor: GoalEntityExtractor
) -> tuple[Turn, SlotQuestion | None]:
    """A reply that named nothing: the question asked again, or given up after
    :data:`MAX_ATTEMPTS` replies."""
    asked = question.resume.intent
    attempts = question.attempts + 1
    language = question.resume.language
    if attempts >= MAX_ATTEMPTS:
        spec = extractor.specs.get(question.entity)
        what = _what(spec, question.entity, language) if spec else question.entity
        group = _asked_group(question, extractor)
        if group:  # "Sem a conta a pagar ou o código de barras não consigo…"
            what = _alternatives(extractor.goal, group, language)
        gave_up = turn.model_copy(
            update={
                "route": "respond",
                "answer": i18n.t("dialogue.slot_give_up", language, what=what),
                "status": RunStatus.COMPLETED,
                "intent": None,
                "notes": [f"slot {question.entity}: no answer after {attempts} replies"],
            }
        )
        return gave_up, None
    again = question.model_copy(update={"attempts": attempts})
    retry = turn.model_copy(
        update={
            "route": "respond",
            "answer": i18n.t("dialogue.slot_retry", language, question=question.text),
            "status": RunStatus.WAITING_INPUT,
            "intent": asked,
            "output": slot_output(again),
            "notes": [f"slot {question.entity}: the reply named nothing (attempt {attempts})"],
        }
    )
    return retry, again
