"""The dialogue rules: how a message is read against the session, over typed models and the catalog.

* a pending question answered (:func:`answer_question`): an option picked by value, position or
  alias, a domain conversation continued, the confidence gate confirmed, refused or narrowed;
* an elliptical follow-up of the last goal (:meth:`FollowUps.follow_up`, "e a Vale?") and a
  composition follow-up (:func:`composition_follow_up`, "manda isso no telegram");
* the plans that do not come from the planner: the last answer resent through a composition
  (:func:`resend_plan`) and a domain conversation's next message (:func:`continuation_plan`);
* the questions the turn asks: the gate's confirmation (:func:`confirmation_question`) and a
  domain's clarification (:func:`domain_question`, from the typed ``DomainOutput.clarification``).
"""

from __future__ import annotations

from collections.abc import Sequence

from dialogue.choice import after_yes, choose, is_dismissal, is_no, is_yes, listed, normalise
from dialogue.slots import goal_described, naming_words
from dialogue.state import Continuation, Memory, Turn
from execution.run_state import SETTLED
from intent.base import guessed, lone_value
from intent.embedded import entity_extractor
from intent.entities import NOT_ENTITY, GoalEntityExtractor, content_words, value_words
from intent.text import expand_shorthands, words
from intent.typed import RECOGNIZER, Clock
from shared import i18n
from shared.catalog import CapabilityRef, Catalog, GoalRef
from shared.entities import Entities, EntityValue
from shared.manifest import Composition, Goal
from shared.models import (
    ApprovalQuestion,
    ClarificationOption,
    ClarificationQuestion,
    ConfirmationQuestion,
    DomainOutput,
    ExecutionIntent,
    ExecutionPlan,
    ExecutionStep,
    GoalOption,
    IntentOutput,
    PendingQuestion,
    ResumePoint,
    StepTrace,
)
from shared.references import escape
from shared.status import RunStatus

FOLLOWUP_PREFIXES = (
    "e a ",
    "e o ",
    "e as ",
    "e os ",
    "e da ",
    "e do ",
    "e ",
    "and ",
    "what about ",
    "how about ",
    "what if ",
)
#: A follow-up is short: a longer message starting with "e ..." is a request of its own.
FOLLOWUP_MAX_WORDS = 6
#: Words that open a correction of the last request ("não, pra segunda", "make it Orlando",
#: "sorry, I meant 48231"), in any order and number; what follows names the new value.
CORRECTION_LEAD_INS = (
    "nao",
    "no",
    "nope",
    "sorry",
    "desculpa",
    "desculpe",
    "ops",
    "oops",
    "whoops",
    "opa",
    "errei",
    "foi mal",
    "my bad",
    "wait",
    "ah",
    "oh",
    "actually",
    "na verdade",
    "quer dizer",
    "quis dizer",
    "eu quis dizer",
    "i meant",
    "i mean",
    "make it",
    "change it to",
    "instead",
    "troca",
    "troca para",
    "troca pra",
    "muda",
    "muda para",
    "muda pra",
    "melhor",
    "era",
    "e",
    # a value put in or added ("põe 2 ajudantes"), which replaces the request's
    "poe",
    "bota",
    "coloca",
    "acrescenta",
    "adiciona",
)
#: A correction is short too.
CORRECTION_MAX_WORDS = 8
#: How the notes of a request made again with a corrected value start.
CORRECTION_NOTE = "correction of"


def is_correction(intent: IntentOutput) -> bool:
    """Whether ``intent`` is the last request made again with the values a correction named."""
    return any(note.startswith(CORRECTION_NOTE) for note in intent.notes)


def correction_rest(text: str) -> str | None:
    """The words after a correction's lead-in ("não, pra segunda" -> "pra segunda"), as written;
    ``None`` when the message does not open with one (or is only one).

    >>> correction_rest("não, pra segunda"), correction_rest("make it Orlando")
    ('pra segunda', 'Orlando')
    >>> correction_rest("na vdd é pra segunda")
    'pra segunda'
    >>> correction_rest("cotação da Vale") is None
    True
    """
    words = text.strip().rstrip("?!. ").split()
    lead_ins = sorted((p.split() for p in CORRECTION_LEAD_INS), key=len, reverse=True)
    k = 0
    while k < len(words):
        # "na vdd, pra segunda": a lead-in in a chat shorthand is the lead-in
        plain = [normalise(expand_shorthands(w)).strip(",.;:!-") for w in words[k:]]
        found = next((p for p in lead_ins if plain[: len(p)] == p), None)
        if found is None:
            break
        k += len(found)
    if k == 0 or k == len(words) or len(words) > CORRECTION_MAX_WORDS or words[0].lower() == "e":
        return None
    return " ".join(words[k:]).strip(" ,;:-") or None


#: Words a question opens with: what follows them is asked about, never a value.
_ASKING = frozenset(
    {"qual", "quais", "quanto", "quanta", "quantos", "quantas", "quando", "onde", "como", "cade", "quem"}
    | {"what", "which", "how", "when", "where", "who", "why", "whats"}
)

#: The confidence gate offers at most this many goals.
GATE_OPTIONS = 3

Planned = tuple[ExecutionIntent, ExecutionPlan]


# ------------------------------------------------------------------ answering a pending question


def answer_question(
    question: PendingQuestion, text: str, intent: IntentOutput, turn: Turn, threshold: float
) -> Turn | None:
    """``turn`` continued by ``text`` as the answer to ``question``, or ``None`` when the message
    is a new request (the question is then abandoned). ``intent`` is the classifier's reading of
    ``text``; a confident new goal (at or above ``threshold``) ends a domain conversation."""
    if isinstance(question, ConfirmationQuestion):
        return _answer_confirmation(question, text, turn)
    if isinstance(question, ApprovalQuestion):
        return None  # the graph answers it first (dialogue.approval); here it is never pending
    resume = question.resume
    if resume.param and resume.plan is not None:
        index = choose(text, question.options)
        if index is not None:
            value = question.options[index].value
            picked = resume.intent
            if resume.param in picked.entities and isinstance(value, str):
                # what the person said is now the option they picked: a follow-up, and the
                # turn's trace, name "Mastercard Black", not "cartão de crédito"
                picked = picked.model_copy(update={"entities": {**picked.entities, resume.param: value}})
            return turn.model_copy(
                update={
                    "intent": picked,
                    "execution_intent": resume.execution_intent,
                    "plan": _with_param(resume.plan, resume.step_id, resume.param, escape(value)),
                    # what ran before the question is kept; the step that asked runs again
                    "steps": resume.steps,
                    "route": "execute",
                    "confirmed": True,
                    "notes": [f"answer picked {resume.param}={value}"],
                }
            )
    if resume.continue_with is not None and resume.domain:
        # only an evident new request leaves the conversation: not a word read as a guessed value
        new_goal = intent.goal is not None and intent.confidence >= threshold and not guessed(intent)
        if not new_goal or intent.primary_domain == resume.domain:
            entities = resume.intent.entities
            if resume.param and resume.param not in entities:
                # the domain named the value it still needs ("a research request names no
                # idea"): the reply is that value, as the goal's entity ("noise hurts focus")
                entities = {**entities, resume.param: text.strip()}
            continued = resume.intent.model_copy(
                update={
                    "original_query": text,
                    "confidence": 1.0,
                    "language": intent.language,
                    "entities": entities,
                }
            )
            continuation = Continuation(
                domain=resume.domain,
                capability=resume.continue_with.capability,
                param=resume.continue_with.param,
                reply=text,
                step_id=resume.step_id,
            )
            return turn.model_copy(
                update={
                    "intent": continued,
                    "continue_with": continuation,
                    # the plan that paused, with what of it ran: its waiting steps go on after
                    # the conversation (rules.continuation_plan)
                    "plan": resume.plan,
                    "steps": resume.steps,
                    "route": "plan",
                    "confirmed": True,
                }
            )
    return None


def ask_again(question: PendingQuestion, turn: Turn, intent: IntentOutput, threshold: float) -> Turn | None:
    """``turn`` asking a domain's question again, with its options, when the reply picked none
    ("3" of two, "sei lá") and is not a new request; ``None`` when the question is dropped: a
    confident request for a goal, or a no ("não, deixa")."""
    if not isinstance(question, ClarificationQuestion) or not question.options:
        return None
    if (intent.goal is not None and intent.confidence >= threshold) or is_no(turn.input):
        return None
    text = i18n.t("dialogue.not_an_option", question.resume.language, question=question.text)
    return turn.model_copy(
        update={
            "route": "respond",
            "status": RunStatus.WAITING_INPUT,
            "answer": text,
            "notes": ["the reply picked no option: the question is asked again"],
        }
    )


def _answer_confirmation(question: ConfirmationQuestion, text: str, turn: Turn) -> Turn | None:
    """The gate: an option named or numbered, a plain yes (the first option), or a no."""
    options = [ClarificationOption(value=o.goal, label=o.description) for o in question.options]
    index = choose(text, options)
    if index is None and is_yes(text) and options:
        index = 0
    if index is not None:
        picked = question.options[index]
        confirmed = question.resume.intent.model_copy(
            update={"goal": picked.goal, "primary_domain": picked.domain, "confidence": 1.0}
        )
        return turn.model_copy(
            update={
                "intent": confirmed,
                "route": "plan",
                "confirmed": True,
                "notes": [f"the person confirmed {picked.goal}"],
            }
        )
    if is_no(text):
        answer = i18n.t("dialogue.declined", question.resume.language)
        return turn.model_copy(
            update={"route": "respond", "answer": answer, "status": RunStatus.COMPLETED, "intent": None}
        )
    return None


def _with_param(plan: ExecutionPlan, step_id: int | None, param: str, value: object) -> ExecutionPlan:
    """``plan`` with ``params[param] = value`` on the step that asked (a copy: plans are shared)."""
    steps = [
        s.model_copy(update={"params": {**s.params, param: value}}) if s.id == step_id else s
        for s in plan.steps
    ]
    return plan.model_copy(update={"steps": steps})


# ------------------------------------------------------------------ follow-ups of the last turn


class FollowUps:
    """Reads an elliptical message as the last goal with what it names: "e a Vale?" after a quote,
    "e da Microsoft e da Tesla?", "e nos EUA?" or "e as quedas?" after top movers.

    The last goal's own entity extractor reads the words after "e a"; when it finds nothing,
    those words are the goal's first required text entity, as the person wrote them. A message
    the classifier puts in another goal ("e obrigado!") is that goal's, not a follow-up.
    Extractors are built once per catalog (a registration makes a new catalog).
    """

    def __init__(self) -> None:
        self._fingerprint: str | None = None
        self._extractors: dict[tuple[str, str], GoalEntityExtractor] = {}

    def follow_up(
        self, intent: IntentOutput, text: str, memory: Memory, catalog: Catalog, clock: Clock | None = None
    ) -> IntentOutput:
        last = memory.last_intent
        if last is None or last.goal is None or not last.primary_domain:
            return intent
        lowered = normalise(text)
        prefix = next((p for p in FOLLOWUP_PREFIXES if lowered.startswith(p)), None)
        # one value of another goal's tables alone names no goal after a request ("e da magalu?"
        # after a quote is the quote's, though only the company search lists the name)
        own = None if lone_value(intent) else intent.goal
        if prefix is None or len(lowered.split()) > FOLLOWUP_MAX_WORDS:
            corrected = self.correct(last, text, catalog, clock)
            if corrected is not None and own in (None, last.goal):
                return corrected
            return referred(intent, text, last, catalog)
        goal = catalog.find_goal(last.primary_domain, last.goal)
        if goal is None:
            return intent
        rest = text.strip().rstrip("?!. ")
        rest = rest[len(prefix) :].strip() if rest.lower().startswith(prefix) else " ".join(rest.split()[1:])
        if not rest:
            return intent
        extractor = self.extractor(GoalRef(last.primary_domain, goal), catalog)
        named = extractor.extract(rest, clock=clock, language=last.language)
        another = own is not None and (intent.primary_domain, intent.goal) != (last.primary_domain, last.goal)
        if another and not (
            intent.primary_domain == last.primary_domain
            and named
            and _only_evidenced_values(extractor, goal, rest, named, last.language, clock)
        ):
            # it names another goal itself ("e obrigado!", "e o ticker da Vale?"); only values of
            # the last one, of its domain, are still its follow-up ("e de folga?" after a balance)
            return intent
        if not named:
            if not content_words(rest):
                return intent  # "e ontem?", "e agora?": nothing named, nothing to follow up with
            text_entity = next(
                (n for n, s in goal.entities_schema.items() if s.type == "string" and s.required), None
            )
            if text_entity is None:
                return intent
            if words(rest)[0] in _ASKING:
                return intent  # "e qual o status dele?" asks something, it names no value
            named = {text_entity: rest}
        return last.model_copy(
            update={
                "entities": {**last.entities, **named},
                "confidence": max(intent.confidence if intent.goal == last.goal else 0.0, last.confidence),
                "original_query": text,
                "alternatives": [],
                "notes": [
                    *intent.notes,
                    *(f"follow-up of {last.goal}: {k}={v!r} (session memory)" for k, v in named.items()),
                ],
            }
        )

    def correct(
        self, request: IntentOutput, text: str, catalog: Catalog, clock: Clock | None = None
    ) -> IntentOutput | None:
        """``request`` with the values a correction names replacing its own ("não, pra segunda",
        "make it 4", "no, to Rio"), read by the request's goal extractor; ``None`` when ``text``
        is no correction or names none of the goal's entities. A message that is nothing but
        values of the goal, each with evidence of its entity (a table's or an enum's value, a
        date...), corrects without a lead-in: "cardiology" while a booking waits for a yes."""
        rest = correction_rest(text)
        # "pode ser girassóis", "sure, make it 4": a yes to other values than the request's
        agreed = after_yes(text) if rest is None else None
        if agreed is not None:
            rest = correction_rest(agreed)
        bare = rest is None
        if (
            bare
            and agreed is None
            and (is_yes(text) or is_no(text) or len(text.split()) > CORRECTION_MAX_WORDS)
        ):
            return None
        if is_dismissal(text):  # "não, deixa pra lá": a no, whatever the goal reads in "deixa"
            return None
        if request.goal is None or not request.primary_domain:
            return None
        goal = catalog.find_goal(request.primary_domain, request.goal)
        if goal is None:
            return None
        extractor = self.extractor(GoalRef(request.primary_domain, goal), catalog)
        rest = (agreed or text) if rest is None else rest
        named = extractor.extract(rest, clock=clock, language=request.language)
        if not named and not bare and (entity := _entity_named_in(goal, rest, request.entities)) is not None:
            # "não, o valor é 9 mil": the value of the entity the correction names, as if asked
            named = extractor.extract(rest, prefer=entity, clock=clock, language=request.language)
        if not named:
            return None
        if bare and not _only_evidenced_values(extractor, goal, rest, named, request.language, clock):
            return None
        named = {
            name: _in_the_same_currency(value, request.entities.get(name)) for name, value in named.items()
        }
        if agreed is not None and all(request.entities.get(name) == value for name, value in named.items()):
            return None  # "sim, pra sexta" to a request for friday: a yes
        return request.model_copy(
            update={
                "entities": {**request.entities, **named},
                "original_query": text,
                "alternatives": [],
                "notes": [f"{CORRECTION_NOTE} {request.goal}: {k}={v!r}" for k, v in named.items()],
            }
        )

    def agreed(
        self,
        intent: IntentOutput,
        text: str,
        memory: Memory,
        catalog: Catalog,
        threshold: float,
        clock: Clock | None = None,
    ) -> IntentOutput:
        """ "fechado, marca pra sexta às 10h" after a session's price: a message that opens by
        agreeing to the last answer, which no goal is sure of, is the goal of the last answer's
        domain the classifier ranks first (the one it read, if any; when it ranks none of them
        near the top, the one goal of the domain that reads it all), at the gate's confidence,
        when everything after the agreement is that goal's words or values with evidence; its
        required values are then carried (:func:`referred`). ``intent`` unchanged otherwise."""
        last = memory.last_intent
        if last is None or not last.primary_domain or not opens_with_agreement(text):
            return intent
        if intent.goal is not None and (
            intent.primary_domain != last.primary_domain or intent.confidence >= threshold
        ):
            return intent
        _agreement, *after = text.split(maxsplit=1)
        rest = after[0] if after else ""
        if not rest:
            return intent
        candidate = next((a for a in intent.alternatives if a.domain == last.primary_domain), None)
        if intent.goal is not None:
            candidate = next((a for a in intent.alternatives if a.goal == intent.goal), candidate)

        def read_in_full(refs: list[GoalRef]) -> list[tuple[Goal, Entities]]:
            return [
                (ref.goal, named)
                for ref in refs
                if (named := self._read_in_full(ref, rest, catalog, intent, clock)) is not None
            ]

        readers: list[tuple[Goal, Entities]] = []
        if candidate is not None:
            goal = catalog.find_goal(candidate.domain, candidate.goal)
            readers = read_in_full([GoalRef(candidate.domain, goal)] if goal is not None else [])
        if not readers and (candidate is None or intent.goal is None):
            # the classifier ranks no goal of the domain near the top ("great, book the first one
            # for monday at 8am" after a price), or the one it ranks first leaves words ("then book
            # thursday 9pm for 3" after the hours): the one goal of the domain that reads it all
            readers = read_in_full(catalog.goals(last.primary_domain))
        if len(readers) != 1:
            return intent
        goal, named = readers[0]
        note = f"agreed to the last answer: {goal.goal} of its domain, reading {sorted(named)}"
        return intent.model_copy(
            update={
                "goal": goal.goal,
                "primary_domain": last.primary_domain,
                "entities": {**named, **intent.entities} if intent.goal == goal.goal else named,
                "confidence": max(intent.confidence, threshold),
                "notes": [*intent.notes, note],
            }
        )

    def _read_in_full(
        self, ref: GoalRef, rest: str, catalog: Catalog, intent: IntentOutput, clock: Clock | None
    ) -> Entities | None:
        """``ref``'s values in ``rest``, when it says some with evidence, a word of the goal's
        phrasing and nothing the goal does not account for; ``None`` otherwise."""
        extractor = self.extractor(ref, catalog)
        named = extractor.extract(rest, clock=clock, language=intent.language)
        # "book *the first one*": which of the things the answer listed, nothing else
        unexplained = set(extractor.unexplained_words(rest, named)) - ANAPHORS - ORDINALS
        if not named or not extractor.evidenced(named) or not extractor.phrasing_words(rest) or unexplained:
            return None
        return named

    def pointed_back(
        self,
        intent: IntentOutput,
        text: str,
        memory: Memory,
        catalog: Catalog,
        threshold: float,
        clock: Clock | None = None,
    ) -> IntentOutput:
        """ "cancela essa" after a boat tour's booking: a message that points back at the last
        request ("essa", "that one"), read as another domain's goal that reads no value of it (or
        as none), or unsure of another goal of the same domain ("ok book it for friday at 8pm"
        after a lane's price), is the goal of the last request's domain the classifier ranks
        first, when every word of the message is that goal's; its required values are then
        carried (:func:`referred`). ``intent`` unchanged otherwise."""
        last = memory.last_intent
        if last is None or not last.primary_domain or not points_back(text):
            return intent
        if intent.primary_domain == last.primary_domain:
            if intent.goal == last.goal or intent.confidence >= threshold:
                return intent
        elif intent.entities:
            return intent
        candidate = next((a for a in intent.alternatives if a.domain == last.primary_domain), None)
        goal = catalog.find_goal(candidate.domain, candidate.goal) if candidate is not None else None
        if candidate is None or goal is None:
            return intent
        extractor = self.extractor(GoalRef(candidate.domain, goal), catalog)
        named = extractor.extract(text, clock=clock, language=intent.language)
        if not extractor.phrasing_words(text) or extractor.unexplained_words(text, named):
            return intent
        note = f"points back at the last request: {goal.goal} of its domain"
        return intent.model_copy(
            update={
                "goal": goal.goal,
                "primary_domain": candidate.domain,
                "entities": named,
                "confidence": max(intent.confidence, threshold),
                "alternatives": [candidate],
                "notes": [*intent.notes, note],
            }
        )

    def added(
        self, request: IntentOutput, text: str, catalog: Catalog, clock: Clock | None = None
    ) -> IntentOutput | None:
        """``request`` with what a reply to a question about it names ("amanhã" to "do you want
        the forecast?"); ``None`` when the reply names none of the goal's entities."""
        if request.goal is None or not request.primary_domain:
            return None
        goal = catalog.find_goal(request.primary_domain, request.goal)
        if goal is None:
            return None
        named = self.extractor(GoalRef(request.primary_domain, goal), catalog).extract(
            text, clock=clock, language=request.language
        )
        if not named:
            return None
        notes = [*request.notes, *(f"the reply added {k}={v!r}" for k, v in named.items())]
        return request.model_copy(update={"entities": {**request.entities, **named}, "notes": notes})

    def extractor(self, ref: GoalRef, catalog: Catalog) -> GoalEntityExtractor:
        """``ref``'s entity extractor for ``catalog``."""
        if catalog.fingerprint != self._fingerprint:
            self._fingerprint, self._extractors = catalog.fingerprint, {}
        key = (ref.domain, ref.goal.goal)
        if key not in self._extractors:
            self._extractors[key] = entity_extractor(ref, catalog)
        return self._extractors[key]


def _entity_named_in(goal: Goal, text: str, entities: Entities) -> str | None:
    """The entity of the request that ``text`` names by its own words (its name's or its
    description's: "valor" of "O valor do prejuízo", "amount"), the first of several."""
    said = set(content_words(text))  # function words name nothing
    return next(
        (
            name
            for name, spec in goal.entities_schema.items()
            if name in entities and said & naming_words(name, spec)
        ),
        None,
    )


def _in_the_same_currency(value: EntityValue, before: EntityValue | None) -> EntityValue:
    """A corrected amount whose currency was left unsaid ("no, make it 80") is in the currency
    of the amount it replaces ("30 reais")."""
    if (
        isinstance(value, dict)
        and value.get("currency") is None
        and isinstance(before, dict)
        and before.get("currency") is not None
    ):
        return {**value, "currency": before["currency"]}
    return value


def _only_evidenced_values(
    extractor: GoalEntityExtractor, goal: Goal, text: str, named: Entities, language: str, clock: Clock | None
) -> bool:
    """Whether ``text`` says nothing but ``named``, the goal's values, each with evidence of its
    entity (a table's or an enum's value, a date, a count with its noun)."""
    return extractor.evidenced(named) and _only_values(
        text, named, goal, language, clock, extractor.annotated_words(named)
    )


def _only_values(
    text: str, named: Entities, goal: Goal, language: str, clock: Clock | None, annotated: set[str]
) -> bool:
    """Whether ``text`` says nothing but ``named``: every word is a value's (an enum's by any of
    its synonyms), part of a typed value (a date, a time..., or a word the examples annotate with
    it: ``annotated``), a function word or filler."""
    said: set[str] = set(annotated)
    for name, value in named.items():
        spec = goal.entities_schema.get(name)
        for item in value if isinstance(value, list) else [value]:
            # a code read joined ("cn4821" of "CN 4821") says its letters and digits apart too
            said.update(value_words(str(item)))
            if spec is not None and isinstance(item, str):
                for synonym in spec.synonyms.get(item, []):
                    said.update(words(synonym))
    clock = clock or Clock.of(None)
    plain = text
    for span in reversed(RECOGNIZER.spans(text, language, time_zone=clock.time_zone, now=clock.now)):
        plain = plain[: span.start] + " " + plain[span.end :]
    return not [w for w in words(plain) if w not in said and w not in NOT_ENTITY]


#: Words that point back at what the last request named ("cancel *it*", "cancela *esse*",
#: "refund *that* order", "o mesmo pedido"). Accent-free, as :func:`normalise` writes them.
ANAPHORS = frozenset(
    {
        "it",
        "that",
        "this",
        "them",
        "those",
        "same",
        "ele",
        "ela",
        "eles",
        "elas",
        "isso",
        "esse",
        "essa",
        "esses",
        "essas",
        "este",
        "aquele",
        "aquela",
        "dele",
        "dela",
        "nele",
        "nela",
        "desse",
        "dessa",
        "deste",
        "desta",
        "mesmo",
        "mesma",
    }
)


#: Words that pick one of the things an answer listed ("the *first* one", "o primeiro").
ORDINALS = frozenset({"first", "second", "third", "last", "primeiro", "primeira", "segundo", "terceiro"})


#: Words that open a request by agreeing to what the last answer said ("*fechado*, imprime pra
#: sexta" after a quote): the request is about the same things.
AGREEMENTS = frozenset(
    {
        "fechado",
        "combinado",
        "beleza",
        "blz",
        "perfeito",
        "otimo",
        "entao",
        "deal",
        "perfect",
        "great",
        "then",
    }
)


def opens_with_agreement(text: str) -> bool:
    """Whether ``text`` opens by agreeing to what the last answer said ("fechado, marca pra
    sexta", "great, book it for monday").

    >>> opens_with_agreement("fechado, marca pra sexta às 10h"), opens_with_agreement("marca pra sexta")
    (True, False)
    >>> opens_with_agreement("then book thursday 7pm for 4"), opens_with_agreement("book it then")
    (True, False)
    """
    said = normalise(text).split()
    return bool(said) and said[0] in AGREEMENTS


def points_back(text: str) -> bool:
    """Whether ``text`` points back at what the last request named ("cancel *it*", "cancela
    *essa*").

    >>> points_back("ok cancel it then"), points_back("cancela a aula AE5101")
    (True, False)
    """
    return bool(ANAPHORS.intersection(normalise(text).split()))


def referred(intent: IntentOutput, text: str, last: IntentOutput, catalog: Catalog) -> IntentOutput:
    """A request of another goal of the last request's domain that points back at what the last
    one named ("where's order 51230?" then "ok cancel it then"), or opens by agreeing to its
    answer ("quanto custam 200 cartões?" then "fechado, imprime pra sexta"): the required
    entities it lacks and the last request had, by the same name, are carried over. Without
    such a word nothing is carried: a value never said in this request is no guess of its own."""
    if (
        intent.goal is None
        or intent.primary_domain != last.primary_domain
        or intent.goal == last.goal
        or guessed(intent)
        or not (points_back(text) or opens_with_agreement(text))
    ):
        return intent
    goal = catalog.find_goal(intent.primary_domain or "", intent.goal)
    if goal is None:
        return intent
    carried = {
        name: last.entities[name]
        for name, spec in goal.entities_schema.items()
        if spec.required and intent.entities.get(name) in (None, "", []) and last.entities.get(name)
    }
    if not carried:
        return intent
    notes = [
        *intent.notes,
        *(f"{k}={v!r} carried from the last request ({last.goal})" for k, v in carried.items()),
    ]
    return intent.model_copy(update={"entities": {**intent.entities, **carried}, "notes": notes})


def composition_follow_up(
    intent: IntentOutput, text: str, memory: Memory, catalog: Catalog, threshold: float
) -> IntentOutput:
    """ "manda isso no telegram" right after an answer: the words switch on a boolean entity of the
    last goal (its composition trigger) and name nothing else the classifier is sure of."""
    last = memory.last_intent
    if last is None or last.goal is None or not last.primary_domain or not memory.last_answer:
        return intent
    if (
        intent.goal is not None
        and intent.goal != last.goal
        and intent.confidence >= threshold
        and not _names_nothing_it_needs(intent, catalog)
    ):
        return intent  # a request of its own ("manda no telegram: <mensagem>" names its message)
    goal = catalog.find_goal(last.primary_domain, last.goal)
    if goal is None:
        return intent
    words = f" {normalise(text)} "
    flags = {
        name: True
        for name, spec in goal.entities_schema.items()
        if spec.type == "boolean" and any(f" {normalise(w)} " in words for w in spec.synonyms.get("true", []))
    }
    # the last goal's request already, with a value of its own besides the switches: a required
    # one named, or the last request's values a follow-up carried ("e com tratamento químico?"
    # after a medium pool's price keeps the medium pool)
    named = intent.goal == last.goal and any(
        intent.entities.get(n) and (s.required or n not in flags) for n, s in goal.entities_schema.items()
    )
    if not flags or named:
        return intent
    return last.model_copy(
        update={
            "entities": flags,
            "confidence": max(intent.confidence, last.confidence),
            "original_query": text,
            "alternatives": [],
            "notes": [*intent.notes, f"follow-up of {last.goal}: {sorted(flags)} on the last answer"],
        }
    )


def _names_nothing_it_needs(intent: IntentOutput, catalog: Catalog) -> bool:
    """The goal needs entities and the message names none of them ("manda isso no telegram" for
    sending a message: what to send is the last answer, not a new request)."""
    goal = catalog.find_goal(intent.primary_domain or "", intent.goal or "")
    if goal is None:
        return False
    required = [n for n, s in goal.entities_schema.items() if s.required]
    return bool(required) and not any(intent.entities.get(n) for n in required)


# ------------------------------------------------------------------ plans the planner does not make


def only_composition(intent: IntentOutput, memory: Memory, catalog: Catalog) -> bool:
    """ "manda isso no telegram": the message turns on a composition (e.g. notify) but names
    nothing new, and there is a last answer to send."""
    if intent.goal is None or not intent.primary_domain or not memory.last_answer:
        return False
    goal = catalog.find_goal(intent.primary_domain, intent.goal)
    if goal is None:
        return False
    flags = [
        n for n, s in goal.entities_schema.items() if s.type == "boolean" and intent.entities.get(n) is True
    ]
    missing = [n for n, s in goal.entities_schema.items() if s.required and not intent.entities.get(n)]
    return bool(flags) and bool(missing)


def resend_plan(intent: IntentOutput, memory: Memory, catalog: Catalog) -> Planned | None:
    """The last answer sent through the goal's composition follow-up role (a notifier), or
    ``None`` when the catalog has no capability to send it with."""
    goal = catalog.find_goal(intent.primary_domain or "", intent.goal or "")
    if goal is None:
        return None
    for name in goal.capabilities or []:
        ref = catalog.find_capability(name, intent.primary_domain)
        composition = ref.capability.metadata.composition if ref else None
        if composition is None:
            continue
        target = next((c for role in composition.followup_roles for c in catalog.with_role(role)), None)
        if target is None:
            continue
        return _send_last_answer(intent, memory, target, composition)
    return None


def last_answer_to_send(intent: IntentOutput, memory: Memory, catalog: Catalog) -> Planned | None:
    """ "manda isso no meu telegram", "send that to my telegram" right after an answer, whatever
    domain gave it: a goal of a follow-up role's capability (the notifier's) that names nothing
    to send sends the last answer, as a composition's follow-up would. ``None`` when the message
    names something of the goal's, there is no last answer, or no composition sends to that role."""
    if not memory.last_answer or intent.goal is None:
        return None
    goal = catalog.find_goal(intent.primary_domain or "", intent.goal)
    if goal is None or any(intent.entities.get(name) for name in goal.entities_schema):
        return None
    for name in goal.capabilities:
        ref = catalog.find_capability(name, intent.primary_domain)
        role = ref.capability.role if ref else None
        if ref is None or role is None:
            continue
        for composing in catalog.manifests():
            for capability in composing.capabilities:
                composition = capability.metadata.composition
                if composition is not None and role in composition.followup_roles:
                    return _send_last_answer(intent, memory, ref, composition)
    return None


def _send_last_answer(
    intent: IntentOutput, memory: Memory, target: CapabilityRef, composition: Composition
) -> Planned:
    """One step: ``target`` called with the last answer where ``composition`` puts a step's
    explanation."""
    params = {
        key: escape(memory.last_answer)
        for key, source in composition.param_map.items()
        if "_step_explanation" in source.from_parameters
    }
    last_confidence = memory.last_intent.confidence if memory.last_intent else 0.0
    execution_intent = ExecutionIntent(
        domain=target.domain,
        capability=target.capability.name,
        parameters=params,
        confidence=max(intent.confidence, last_confidence),
        original_query=intent.original_query,
        goal=intent.goal,
    )
    step = ExecutionStep(id=1, domain=target.domain, capability=target.capability.name, params=params)
    plan = ExecutionPlan(
        steps=[step], notes=["memory: the last answer is sent through the composition's follow-up role"]
    )
    return execution_intent, plan


def continuation_plan(
    intent: IntentOutput,
    continuation: Continuation,
    paused: ExecutionPlan | None = None,
    kept: Sequence[StepTrace] = (),
) -> Planned:
    """The reply to the domain capability that asked to go on talking: one step, or, when
    ``paused`` (the plan whose step asked) has steps waiting behind that step, that plan with the
    asking step turned into the reply, so its waiting steps run once the conversation ends (a
    ``${N...}`` reference to the asking step reads the conversation's last answer). ``kept``:
    the steps of ``paused`` that already settled (not called again)."""
    params = {continuation.param: escape(continuation.reply)}
    execution_intent = ExecutionIntent(
        domain=continuation.domain,
        capability=continuation.capability,
        parameters=params,
        confidence=1.0,
        original_query=continuation.reply,
        goal=intent.goal,
    )
    note = f"conversation continues with {continuation.domain}.{continuation.capability}"
    waiting = waiting_behind(paused, continuation.step_id, kept)
    if paused is not None and waiting:
        steps = [
            s.model_copy(update={"capability": continuation.capability, "params": params, "when": None})
            if s.id == continuation.step_id
            else s
            for s in paused.steps
        ]
        listed = ", ".join(map(str, waiting))
        notes = [*paused.notes, f"{note} (step {continuation.step_id}); steps {listed} wait for it"]
        return execution_intent, paused.model_copy(update={"steps": steps, "notes": notes})
    step = ExecutionStep(id=1, domain=continuation.domain, capability=continuation.capability, params=params)
    return execution_intent, ExecutionPlan(steps=[step], notes=[note])


def waiting_behind(plan: ExecutionPlan | None, step_id: int | None, kept: Sequence[StepTrace]) -> list[int]:
    """The ids of ``plan``'s steps that have not run: neither ``step_id`` (the step that asked)
    nor one of the ``kept`` settled steps."""
    if plan is None or step_id is None or all(s.id != step_id for s in plan.steps):
        return []
    settled = {t.id for t in kept}
    return [s.id for s in plan.steps if s.id != step_id and s.id not in settled]


# ------------------------------------------------------------------ the questions a turn asks


def confirmation_question(
    intent: IntentOutput, execution_intent: ExecutionIntent, catalog: Catalog
) -> ConfirmationQuestion:
    """The confidence gate's question: "do you want X?" for one plausible goal, "X or Y?" for more."""
    options: list[GoalOption] = []
    for alt in intent.alternatives[:GATE_OPTIONS]:
        description = goal_described(catalog.find_goal(alt.domain, alt.goal), alt.goal, intent.language)
        options.append(
            GoalOption(domain=alt.domain, goal=alt.goal, confidence=alt.confidence, description=description)
        )
    if not options and intent.goal:
        goal = catalog.find_goal(execution_intent.domain, intent.goal)
        description = goal_described(goal, intent.goal, intent.language)
        options = [
            GoalOption(
                domain=execution_intent.domain,
                goal=intent.goal,
                confidence=intent.confidence,
                description=description,
            )
        ]
    # keep only plausible options: the best, plus those close to it
    if options:
        floor = max(0.1, options[0].confidence / 3)
        options = [o for i, o in enumerate(options) if i == 0 or o.confidence >= floor]
    if len(options) == 1:
        text = i18n.t("dialogue.confirm_one", intent.language, description=options[0].description)
    else:
        numbered = [f"({i + 1}) {o.description}" for i, o in enumerate(options)]
        listing = f" {i18n.t('word.or', intent.language)} ".join(numbered)
        text = i18n.t("dialogue.did_you_mean", intent.language, options=listing)
    return ConfirmationQuestion(
        text=text, options=options, resume=ResumePoint(intent=intent, language=intent.language)
    )


def gate_output(question: ConfirmationQuestion, confidence: float) -> DomainOutput:
    """The turn's output while the gate waits (what a trace shows in place of a domain's answer)."""
    return DomainOutput(
        status="clarification",
        explanation=question.text,
        confidence=confidence,
        result={"options": [o.model_dump(mode="json") for o in question.options]},
        metadata={"resolution": "confidence_gate"},
    )


def domain_question(
    output: DomainOutput,
    answer: str,
    intent: IntentOutput,
    execution_intent: ExecutionIntent,
    plan: ExecutionPlan,
    steps: Sequence[StepTrace],
) -> ClarificationQuestion:
    """The question a domain's clarification leaves pending, with where to resume once answered.

    Its text lists the options: a chat client shows only the text, and the person answers it.
    """
    asking = next((s for s in steps if s.output is not None and s.output.status == "clarification"), None)
    first = plan.steps[0] if plan.steps else None
    step_id = asking.id if asking else (first.id if first else 1)
    domain = asking.domain if asking else (first.domain if first else intent.primary_domain)
    source = asking.output if asking is not None and asking.output is not None else output
    clarification = source.clarification
    # steps still waiting behind the question go on after the answer: what settled is kept
    waiting = any(t.status is RunStatus.PENDING for t in steps)
    settled = [t for t in steps if t.status in SETTLED] if waiting else []
    resume = ResumePoint(
        intent=intent,
        language=intent.language,
        plan=plan,
        execution_intent=execution_intent,
        step_id=step_id,
        domain=domain,
        param=clarification.param if clarification else None,
        continue_with=clarification.continue_with if clarification else None,
        steps=settled,
    )
    options = clarification.options if clarification else []
    asked = (clarification.question if clarification else "") or answer
    return ClarificationQuestion(
        text=listed(asked, options, intent.language, with_value=resume.param is not None),
        options=options,
        resume=resume,
    )


def answer_text(output: DomainOutput | None, language: str) -> str:
    """The answer when the run gave none of its own."""
    if output is None:
        return i18n.t("run.could_not_process", language)
    if output.explanation:
        return output.explanation
    if output.status == "success":
        return i18n.t("run.done", language)
    return i18n.t("run.not_completed", language)
