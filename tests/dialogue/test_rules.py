"""The dialogue rules on typed models and a real catalog: follow-ups, resends, continuations,
answers to pending questions and the questions a turn asks."""

from __future__ import annotations

import pytest

from dialogue import rules
from dialogue.rules import FollowUps
from dialogue.state import Continuation, Memory, Turn, new_turn
from shared.catalog import Catalog
from shared.manifest import validate_manifest
from shared.models import (
    Clarification,
    ClarificationQuestion,
    ConfirmationQuestion,
    ContinueWith,
    DomainOutput,
    ExecutionIntent,
    ExecutionPlan,
    ExecutionStep,
    GoalCandidate,
    GoalOption,
    IntentOutput,
    ResumePoint,
    StepTrace,
)
from shared.status import RunStatus
from tests.dialogue.conftest import NORDEA, STOCKS

THRESHOLD = 0.5

QUOTE_PETROBRAS = IntentOutput(
    primary_domain="stocks",
    goal="GET_QUOTE",
    entities={"symbol_text": "Petrobras"},
    confidence=0.9,
    original_query="qual o preço da Petrobras?",
)
AFTER_QUOTE = Memory(last_intent=QUOTE_PETROBRAS, last_answer="Petrobras: 38.00 (PETR4.SA)")


def unclear(text: str) -> IntentOutput:
    """What the classifier makes of a message it cannot place."""
    return IntentOutput(goal=None, confidence=0.2, original_query=text)


def turn(text: str) -> Turn:
    return new_turn("run-1", text)


# ------------------------------------------------------------------ follow-ups


@pytest.mark.parametrize("text", ["e a Vale?", "e da Vale", "and Vale?"])
def test_an_elliptical_message_continues_the_last_goal(catalog: Catalog, text: str) -> None:
    followed = FollowUps().follow_up(unclear(text), text, AFTER_QUOTE, catalog)
    assert (followed.primary_domain, followed.goal) == ("stocks", "GET_QUOTE")
    assert followed.entities["symbol_text"] in ("Vale", ["Vale"])
    assert followed.original_query == text
    assert any("follow-up of GET_QUOTE" in n for n in followed.notes)


def test_a_follow_up_naming_another_goal_is_that_goal(catalog: Catalog) -> None:
    gainers = IntentOutput(primary_domain="stocks", goal="TOP_GAINERS", confidence=0.9)
    assert FollowUps().follow_up(gainers, "e as maiores altas?", AFTER_QUOTE, catalog) is gainers


@pytest.mark.parametrize(
    ("text", "memory"),
    [
        ("e a Vale?", Memory()),  # nothing to follow
        ("e a Vale e a Petrobras e a Gerdau e a Ambev?", AFTER_QUOTE),  # a request of its own
        ("qual o preço da Vale?", AFTER_QUOTE),  # not elliptical
    ],
)
def test_other_messages_are_not_follow_ups(catalog: Catalog, text: str, memory: Memory) -> None:
    intent = unclear(text)
    assert FollowUps().follow_up(intent, text, memory, catalog) is intent


def test_send_it_on_telegram_switches_on_the_last_goals_composition(catalog: Catalog) -> None:
    text = "manda isso no telegram"
    followed = rules.composition_follow_up(unclear(text), text, AFTER_QUOTE, catalog, THRESHOLD)
    assert followed.goal == "GET_QUOTE" and followed.entities == {"notify": True}
    assert rules.only_composition(followed, AFTER_QUOTE, catalog)


def test_a_confident_other_goal_is_not_a_composition_follow_up(catalog: Catalog) -> None:
    text = "quero discutir uma ideia no telegram"
    idea = IntentOutput(primary_domain="coach", goal="DISCUSS_IDEA", confidence=0.9, original_query=text)
    assert rules.composition_follow_up(idea, text, AFTER_QUOTE, catalog, THRESHOLD) is idea


def test_naming_a_company_is_a_new_quote_not_a_resend(catalog: Catalog) -> None:
    intent = QUOTE_PETROBRAS.model_copy(update={"entities": {"symbol_text": "Vale", "notify": True}})
    assert not rules.only_composition(intent, AFTER_QUOTE, catalog)


# ------------------------------------------------------------------ plans the planner does not make


def test_the_resend_plan_sends_the_last_answer_literally(catalog: Catalog) -> None:
    memory = AFTER_QUOTE.model_copy(update={"last_answer": "use ${1.result} as is"})
    intent = QUOTE_PETROBRAS.model_copy(update={"entities": {"notify": True}})
    planned = rules.resend_plan(intent, memory, catalog)
    assert planned is not None
    execution_intent, plan = planned
    assert (execution_intent.domain, execution_intent.capability) == ("notifier", "send_message")
    assert [s.params for s in plan.steps] == [{"message": "use $${1.result} as is"}]  # never a reference


def test_no_resend_plan_without_a_notifier() -> None:
    stocks_only = Catalog([validate_manifest(STOCKS)])
    intent = QUOTE_PETROBRAS.model_copy(update={"entities": {"notify": True}})
    assert rules.resend_plan(intent, AFTER_QUOTE, stocks_only) is None


def test_the_continuation_plan_hands_the_reply_to_the_domain() -> None:
    continuation = Continuation(domain="coach", capability="chat_reply", reply="sobre ${sono}")
    execution_intent, plan = rules.continuation_plan(unclear("sobre ${sono}"), continuation)
    assert (execution_intent.domain, execution_intent.capability) == ("coach", "chat_reply")
    assert plan.steps[0].params == {"reply": "sobre $${sono}"}


# ------------------------------------------------------------------ answering a domain's question

QUOTE_PLAN = ExecutionPlan(steps=[ExecutionStep(id=1, domain="stocks", capability="get_quote", params={})])
NORDEA_QUESTION = ClarificationQuestion(
    text="Qual Nordea?",
    options=NORDEA,
    resume=ResumePoint(
        intent=QUOTE_PETROBRAS.model_copy(update={"entities": {"symbol_text": "Nordea"}}),
        plan=QUOTE_PLAN,
        execution_intent=ExecutionIntent(domain="stocks", capability="get_quote"),
        step_id=1,
        domain="stocks",
        param="symbol",
    ),
)


@pytest.mark.parametrize(
    ("reply", "symbol"),
    [("a segunda", "NDA-FI.HE"), ("a sueca", "NDA-SE.ST"), ("NDA-FI.HE", "NDA-FI.HE"), ("1", "NDA-SE.ST")],
)
def test_an_option_is_picked_by_position_alias_or_value(reply: str, symbol: str) -> None:
    answered = rules.answer_question(NORDEA_QUESTION, reply, unclear(reply), turn(reply), THRESHOLD)
    assert answered is not None
    assert answered.route == "execute" and answered.confirmed
    assert answered.plan is not None and answered.plan.steps[0].params == {"symbol": symbol}
    assert answered.intent == NORDEA_QUESTION.resume.intent
    assert QUOTE_PLAN.steps[0].params == {}  # the question's plan is left as it was


def test_a_reply_that_picks_nothing_is_a_new_request() -> None:
    text = "quais as maiores altas?"
    gainers = IntentOutput(primary_domain="stocks", goal="TOP_GAINERS", confidence=0.95, original_query=text)
    assert rules.answer_question(NORDEA_QUESTION, text, gainers, turn(text), THRESHOLD) is None


CHAT_QUESTION = ClarificationQuestion(
    text="Conte mais.",
    resume=ResumePoint(
        intent=IntentOutput(primary_domain="coach", goal="DISCUSS_IDEA", confidence=0.9),
        plan=ExecutionPlan(steps=[ExecutionStep(id=1, domain="coach", capability="start_chat")]),
        execution_intent=ExecutionIntent(domain="coach", capability="start_chat"),
        step_id=1,
        domain="coach",
        continue_with=ContinueWith(capability="chat_reply"),
    ),
)


def test_a_domain_conversation_goes_on_with_the_reply() -> None:
    text = "sobre sono e memória"
    answered = rules.answer_question(CHAT_QUESTION, text, unclear(text), turn(text), THRESHOLD)
    assert answered is not None and answered.route == "plan" and answered.confirmed
    assert answered.continue_with == Continuation(
        domain="coach", capability="chat_reply", reply=text, step_id=1
    )
    assert answered.intent is not None and answered.intent.original_query == text
    # the one-step conversation: the reply is one call, as before
    _, plan = rules.continuation_plan(answered.intent, answered.continue_with, answered.plan, answered.steps)
    assert [(s.id, s.capability, s.params) for s in plan.steps] == [(1, "chat_reply", {"reply": text})]


def test_a_reply_to_a_domain_that_named_the_value_it_needs_is_that_value() -> None:
    asking = CHAT_QUESTION.model_copy(
        update={"resume": CHAT_QUESTION.resume.model_copy(update={"param": "idea_text"})}
    )
    text = "noise in open offices hurts focus"
    answered = rules.answer_question(asking, text, unclear(text), turn(text), THRESHOLD)
    assert answered is not None and answered.intent is not None
    assert answered.intent.entities == {"idea_text": text}
    assert answered.continue_with is not None and answered.continue_with.reply == text
    # a conversation that named nothing keeps the entities it had
    plain = rules.answer_question(CHAT_QUESTION, text, unclear(text), turn(text), THRESHOLD)
    assert plain is not None and plain.intent is not None and plain.intent.entities == {}


#: A plan paused by a domain conversation: step 1 quoted, step 2 asked, step 3 (which reads both)
#: waits behind it.
PAUSED_PLAN = ExecutionPlan(
    steps=[
        ExecutionStep(id=1, domain="stocks", capability="get_quote", params={"symbol": "VALE3"}),
        ExecutionStep(id=2, domain="coach", capability="start_chat", params={"idea": "x"}),
        ExecutionStep(
            id=3,
            domain="notify",
            capability="send",
            params={"message": "${1.explanation} / ${2.explanation}"},
            depends_on=[1, 2],
        ),
    ],
    combine_mode="report",
    planner="llm",
)
QUOTED = StepTrace(
    id=1,
    domain="stocks",
    capability="get_quote",
    status=RunStatus.COMPLETED,
    output=DomainOutput(status="success", explanation="VALE3: 60"),
)


def test_a_plan_paused_by_a_domain_conversation_goes_on_with_the_reply_in_place_of_the_step_that_asked() -> (
    None
):
    output = DomainOutput(
        status="clarification",
        explanation="Conte mais.",
        clarification=Clarification(
            question="Conte mais.", continue_with=ContinueWith(capability="chat_reply")
        ),
    )
    asked = StepTrace(
        id=2, domain="coach", capability="start_chat", status=RunStatus.WAITING_INPUT, output=output
    )
    waiting = StepTrace(id=3, domain="notify", capability="send")
    intent = CHAT_QUESTION.resume.intent
    execution_intent = ExecutionIntent(domain="stocks", capability="get_quote")
    question = rules.domain_question(
        output, "Conte mais.", intent, execution_intent, PAUSED_PLAN, [QUOTED, asked, waiting]
    )
    assert question.resume.step_id == 2 and question.resume.steps == [QUOTED]  # what settled is kept
    text = "sobre sono"
    answered = rules.answer_question(question, text, unclear(text), turn(text), THRESHOLD)
    assert answered is not None and answered.continue_with is not None
    assert answered.continue_with.step_id == 2 and answered.steps == [QUOTED]
    _, plan = rules.continuation_plan(
        answered.intent or intent, answered.continue_with, answered.plan, answered.steps
    )
    assert [(s.id, s.capability, s.params) for s in plan.steps] == [
        (1, "get_quote", {"symbol": "VALE3"}),
        (2, "chat_reply", {"reply": text}),
        (3, "send", {"message": "${1.explanation} / ${2.explanation}"}),
    ]
    assert plan.planner == "llm" and plan.combine_mode == "report"
    assert plan.notes[-1] == "conversation continues with coach.chat_reply (step 2); steps 3 wait for it"
    assert rules.waiting_behind(plan, 2, answered.steps) == [3]


def test_a_question_with_nothing_waiting_behind_it_keeps_no_steps() -> None:
    output = DomainOutput(
        status="clarification",
        clarification=Clarification(
            question="Conte mais.", continue_with=ContinueWith(capability="chat_reply")
        ),
    )
    asked = StepTrace(
        id=2, domain="coach", capability="start_chat", status=RunStatus.WAITING_INPUT, output=output
    )
    plan = PAUSED_PLAN.model_copy(update={"steps": PAUSED_PLAN.steps[:2]})
    intent = CHAT_QUESTION.resume.intent
    execution_intent = ExecutionIntent(domain="stocks", capability="get_quote")
    question = rules.domain_question(output, "", intent, execution_intent, plan, [QUOTED, asked])
    assert question.resume.steps == []


def test_a_confident_request_elsewhere_leaves_the_domain_conversation() -> None:
    text = "cotação da Vale"
    quote = IntentOutput(primary_domain="stocks", goal="GET_QUOTE", confidence=0.95, original_query=text)
    assert rules.answer_question(CHAT_QUESTION, text, quote, turn(text), THRESHOLD) is None
    # the same domain keeps the conversation even when confident
    idea = IntentOutput(primary_domain="coach", goal="DISCUSS_IDEA", confidence=0.95, original_query=text)
    assert rules.answer_question(CHAT_QUESTION, text, idea, turn(text), THRESHOLD) is not None


# ------------------------------------------------------------------ the confidence gate

GATE = ConfirmationQuestion(
    text="Você quis dizer (1) Cotação ou (2) Maiores altas?",
    options=[
        GoalOption(domain="stocks", goal="GET_QUOTE", confidence=0.4, description="Cotação de uma empresa"),
        GoalOption(domain="stocks", goal="TOP_GAINERS", confidence=0.3, description="Maiores altas da bolsa"),
    ],
    resume=ResumePoint(intent=IntentOutput(goal="GET_QUOTE", confidence=0.4, original_query="vale?")),
)


@pytest.mark.parametrize(
    ("reply", "goal"),
    [("sim", "GET_QUOTE"), ("a segunda", "TOP_GAINERS"), ("maiores altas da bolsa", "TOP_GAINERS")],
)
def test_the_gate_is_confirmed_by_yes_or_an_option(reply: str, goal: str) -> None:
    answered = rules.answer_question(GATE, reply, unclear(reply), turn(reply), THRESHOLD)
    assert answered is not None and answered.route == "plan" and answered.confirmed
    assert answered.intent is not None
    assert (answered.intent.goal, answered.intent.confidence) == (goal, 1.0)


def test_no_to_the_gate_asks_what_the_person_wants() -> None:
    answered = rules.answer_question(GATE, "não", unclear("não"), turn("não"), THRESHOLD)
    assert answered is not None
    assert (answered.route, answered.status, answered.intent) == ("respond", RunStatus.COMPLETED, None)
    assert answered.answer == "Tudo bem. O que você gostaria de fazer?"


def test_anything_else_abandons_the_gate() -> None:
    text = "previsão do tempo em Recife"
    assert rules.answer_question(GATE, text, unclear(text), turn(text), THRESHOLD) is None


def test_the_gate_asks_yes_or_no_for_one_plausible_goal(catalog: Catalog) -> None:
    intent = IntentOutput(
        primary_domain="stocks",
        goal="GET_QUOTE",
        confidence=0.4,
        language="en",
        alternatives=[
            GoalCandidate(domain="stocks", goal="GET_QUOTE", confidence=0.4),
            GoalCandidate(domain="stocks", goal="TOP_GAINERS", confidence=0.05),  # implausible
        ],
    )
    question = rules.confirmation_question(
        intent, ExecutionIntent(domain="stocks", capability="get_quote"), catalog
    )
    assert [o.goal for o in question.options] == ["GET_QUOTE"]
    # the goal's description in the person's language only, never the other half or the goal id
    assert question.text == "Just to confirm: do you want stock price? (yes/no)"
    assert question.resume.intent == intent


def test_the_gate_lists_close_goals(catalog: Catalog) -> None:
    intent = IntentOutput(
        goal="GET_QUOTE",
        confidence=0.4,
        alternatives=[
            GoalCandidate(domain="stocks", goal="GET_QUOTE", confidence=0.4),
            GoalCandidate(domain="stocks", goal="TOP_GAINERS", confidence=0.35),
        ],
    )
    question = rules.confirmation_question(
        intent, ExecutionIntent(domain="stocks", capability="get_quote"), catalog
    )
    assert question.text == (
        "Não tenho certeza se entendi. Você quis dizer (1) cotação de uma empresa "
        "ou (2) maiores altas da bolsa?"
    )


# ------------------------------------------------------------------ a domain's question


def test_a_domain_clarification_becomes_the_pending_question() -> None:
    asked = DomainOutput(
        status="clarification",
        explanation="Qual Nordea?",
        clarification=Clarification(question="Qual Nordea?", options=NORDEA, param="symbol"),
    )
    plan = ExecutionPlan(
        steps=[
            ExecutionStep(id=1, domain="stocks", capability="get_gainers"),
            ExecutionStep(id=2, domain="stocks", capability="get_quote"),
        ]
    )
    steps = [
        StepTrace(id=1, domain="stocks", capability="get_gainers", output=DomainOutput(status="success")),
        StepTrace(id=2, domain="stocks", capability="get_quote", output=asked),
    ]
    intent = QUOTE_PETROBRAS
    question = rules.domain_question(
        asked, "ignored", intent, ExecutionIntent(domain="stocks", capability="get_gainers"), plan, steps
    )
    assert question.text.splitlines() == [
        "Qual Nordea?",
        "1. Nordea (Stockholm) — NDA-SE.ST",
        "2. Nordea (Helsinki) — NDA-FI.HE",
        "Responda com o número ou o nome.",
    ]
    assert (question.resume.step_id, question.resume.domain, question.resume.param) == (2, "stocks", "symbol")
    assert question.options == NORDEA


def test_a_legacy_domain_clarification_is_read_through_the_typed_fields() -> None:
    legacy = DomainOutput.model_validate(
        {
            "status": "clarification",
            "explanation": "Which one?",
            "result": {"candidates": [{"symbol": "A.ST", "label": "A (Stockholm)"}, {"symbol": "A.HE"}]},
            "metadata": {"choice_param": "symbol"},
        }
    )
    question = rules.domain_question(
        legacy,
        "Which one?",
        QUOTE_PETROBRAS,
        ExecutionIntent(domain="stocks", capability="get_quote"),
        QUOTE_PLAN,
        [],
    )
    assert question.resume.param == "symbol"
    assert [o.value for o in question.options] == ["A.ST", "A.HE"]
    answered = rules.answer_question(
        question, "a segunda", unclear("a segunda"), turn("a segunda"), THRESHOLD
    )
    assert answered is not None and answered.plan is not None
    assert answered.plan.steps[0].params == {"symbol": "A.HE"}


def test_a_question_without_options_is_asked_as_the_domain_wrote_it() -> None:
    asked = DomainOutput(status="clarification", explanation="Para quando?")
    question = rules.domain_question(
        asked,
        "Para quando?",
        QUOTE_PETROBRAS,
        ExecutionIntent(domain="stocks", capability="get_quote"),
        QUOTE_PLAN,
        [],
    )
    assert question.text == "Para quando?" and question.resume.param is None
    # nothing to pick and no conversation to continue: the next message is a new request
    assert rules.answer_question(question, "amanhã", unclear("amanhã"), turn("amanhã"), THRESHOLD) is None


def test_the_answer_text_when_the_run_gave_none() -> None:
    assert rules.answer_text(None, "en") == "I could not process the request."
    assert rules.answer_text(DomainOutput(status="success"), "pt") == "Pronto."
    assert rules.answer_text(DomainOutput(status="success", explanation="Feito: 3"), "pt") == "Feito: 3"
