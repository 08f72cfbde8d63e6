"""What the person reads about a replan that waits for their yes, over whole turns (the real
classifier, planners and run loop; the fake remote domains; a scripted OpenAI-compatible server on
loopback as the LLM, the only thing faked):

- a rewrite that would send again what was already sent asks first, saying it does it again;
- a rewrite that adds an action with values nobody said names that action once;
- after the yes, the final answer still names the values the service suggested that the run
  used before it;
- a capability described only in another language is named by its goal's words in the person's
  language when the manifest gives them, and quoted as the tool's own words when it does not.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import pytest

from dialogue.approval import approval_question, replan_question
from dialogue.graph import ConversationGraph
from execution.runner import RunController
from intent.embedded import EmbeddedIntentAdapter
from planner import DeterministicRunPlanner
from shared.catalog import Catalog
from shared.manifest import validate_manifest
from shared.models import (
    ApprovalQuestion,
    ExecutionIntent,
    ExecutionPlan,
    ExecutionStep,
    IntentOutput,
)
from shared.planning import HeldReplan, ParamChange
from shared.status import RunStatus
from tests.dialogue.conftest import STOCKS, FakeDomains, speaker
from tests.dialogue.test_llm_after_planner_error import TEXT
from tests.dialogue.test_replan_already_used import quote_abev3
from tests.dialogue.test_replan_suggestions import confirmed_notifier, send_to_ana
from tests.dialogue.test_rewrite_approval import CATALOG, PLAN, REWRITE, Conversation
from tests.planner.scripted_llm import ScriptedLlm, ToolCall, serve

#: The send as the notifier's English-only description words it, quoted in a Portuguese question.
SEND_WORDS = "a ação “send message” (nas palavras da própria ferramenta: “send a text”)"
#: The LLM's plan: the Petrobras quote, sent at once; the Vale quote with a typo (it fails).
QUOTE_P: dict[str, Any] = {
    "id": 1,
    "domain": "stocks",
    "capability": "get_quote",
    "params": {"symbol_text": "Petrobras"},
}
SENT_FIRST: dict[str, Any] = {
    "id": 2,
    "domain": "notifier",
    "capability": "send_message",
    "params": {"message": "${1.explanation}"},
    "depends_on": [1],
}
TYPO: dict[str, Any] = {
    "id": 3,
    "domain": "stocks",
    "capability": "get_quote",
    "params": {"symbol_text": "Valle"},
}
SEND_THEN_TYPO = {"steps": [QUOTE_P, SENT_FIRST, TYPO], "combine_mode": "report"}
#: The rest of the plan the model writes: the quote again, and the first quote sent once more.
SEND_AGAIN = {
    "steps": [
        {**TYPO, "id": 4, "params": {"symbol_text": "Vale"}},
        {**SENT_FIRST, "id": 5, "depends_on": [1, 4]},
    ]
}
#: The LLM's plan that only reads: the two quotes, the second with the typo.
QUOTES = {"steps": PLAN["steps"][:2], "combine_mode": "report"}


@pytest.fixture(scope="module")
def adapter() -> EmbeddedIntentAdapter:
    return EmbeddedIntentAdapter(CATALOG, use_embeddings=False)


@pytest.fixture
def sends_again() -> Iterator[ScriptedLlm]:
    with serve(ScriptedLlm(by_text={TEXT: [ToolCall(SEND_THEN_TYPO), ToolCall(SEND_AGAIN)]})) as server:
        yield server
    assert server.wire_errors == []


async def test_a_rewrite_that_sends_again_asks_first_saying_so(
    adapter: EmbeddedIntentAdapter, sends_again: ScriptedLlm
) -> None:
    chat = Conversation(adapter, sends_again)
    state = await chat.say(TEXT)
    assert isinstance(state.question, ApprovalQuestion), state.turn.answer
    assert state.turn.answer == (
        "Não deu certo: Não encontrei 'Valle'. Para seguir, o novo plano faz de novo, sem você pedir: "
        f"{SEND_WORDS} (com o resultado de “cotação de uma empresa”). Confirma? (sim/não)"
    )
    assert state.question.steps == [5]
    assert chat.sent() == [{"message": "Petrobras: 20.00"}]  # the first send, once
    done = await chat.say("sim")
    assert done.turn.status == RunStatus.COMPLETED, done.turn.answer
    assert chat.sent() == [{"message": "Petrobras: 20.00"}] * 2


async def test_a_no_to_sending_again_sends_nothing_more(
    adapter: EmbeddedIntentAdapter, sends_again: ScriptedLlm
) -> None:
    chat = Conversation(adapter, sends_again)
    await chat.say(TEXT)
    declined = await chat.say("não")
    assert declined.turn.status == RunStatus.CANCELLED, declined.turn.answer
    assert chat.sent() == [{"message": "Petrobras: 20.00"}]


@pytest.fixture
def adds_a_send() -> Iterator[ScriptedLlm]:
    with serve(ScriptedLlm(by_text={TEXT: [ToolCall(QUOTES), ToolCall(REWRITE)]})) as server:
        yield server
    assert server.wire_errors == []


async def test_an_added_action_with_values_nobody_said_is_named_once(
    adapter: EmbeddedIntentAdapter, adds_a_send: ScriptedLlm
) -> None:
    """The send is named with its values, which nothing the person asked for led to either."""
    chat = Conversation(adapter, adds_a_send)
    state = await chat.say(TEXT)
    assert isinstance(state.question, ApprovalQuestion), state.turn.answer
    assert state.turn.answer == (
        "Não deu certo: Não encontrei 'Valle'. Para seguir, o novo plano acrescenta o que você não pediu: "
        f"{SEND_WORDS} (com o resultado de “cotação de uma empresa”, “@vale_fans”). Confirma? (sim/não)"
    )


def test_the_next_step_names_only_what_no_clause_named() -> None:
    """An added action and a value nobody said on another step: each action once, the added one
    in its clause, the other as the next step."""
    steps = [
        ExecutionStep(id=1, domain="stocks", capability="get_quote", params={"symbol_text": "Vale"}),
        ExecutionStep(id=4, domain="coach", capability="start_chat", params={"idea": "Vale"}),
        ExecutionStep(id=5, domain="notifier", capability="send_message", params={"chat": "@vale_fans"}),
    ]
    held = HeldReplan(
        ExecutionPlan(steps=steps),
        1,
        [ParamChange(5, "chat", "@ana", "@vale_fans")],
        "Não encontrei 'Valle'.",
        action="rewrite",
        added=[4],
    )
    intent = IntentOutput(primary_domain="stocks", goal="GET_QUOTE", language="pt", original_query=TEXT)
    execution_intent = ExecutionIntent(domain="stocks", capability="get_quote", goal="GET_QUOTE")
    question = replan_question(held, intent, execution_intent, CATALOG)
    assert question.text == (
        "Não deu certo: Não encontrei 'Valle'. Para seguir, o novo plano acrescenta o que você não pediu: "
        "discutir uma ideia de pesquisa (“Vale”); "
        "e usa “@vale_fans” no lugar de “@ana” (chat), que você não disse. "
        f"Próximo passo: {SEND_WORDS} (“@vale_fans”). Confirma? (sim/não)"
    )
    assert question.steps == [4, 5]


async def test_after_the_yes_the_answer_still_names_the_suggestion_used_before_it() -> None:
    """The quote ran again with the suggested symbol (it only reads), the send waited for a yes
    to the suggested chat: the answer after that yes still names the symbol (the chat was the
    question's own)."""
    catalog = Catalog([validate_manifest(STOCKS), validate_manifest(confirmed_notifier())])
    domains = FakeDomains(replies={"send_message": send_to_ana, "get_quote": quote_abev3})
    run_loop = RunController(
        lambda: catalog, domains.dispatch, planner=DeterministicRunPlanner(), max_replans=2
    )
    graph = ConversationGraph(
        adapter=EmbeddedIntentAdapter(catalog, use_embeddings=False),
        catalog=lambda: catalog,
        orchestrator=domains,
        controller=run_loop,
    )
    say = speaker(graph)

    await say("manda a cotação da Ambev no telegram")
    asked = await say("sim")
    assert isinstance(asked.question, ApprovalQuestion), asked.turn.answer
    done = await say("sim")
    assert done.turn.status == RunStatus.COMPLETED, done.turn.answer
    assert done.turn.answer == (
        "Usei “ABEV3” no lugar de “Ambev” (symbol_text), como o serviço sugeriu.\nABEV3: 20.00\nEnviado."
    )
    assert [c.parameters.get("chat") for c in domains.calls if c.capability == "send_message"] == [
        None,
        "@ana",
    ]


def salon(goal_description: Any, capabilities: list[str] | None = None) -> Catalog:
    """A salon whose booking is described in English only (an MCP tool's words), and the goal
    that asks for it as ``goal_description`` words it."""
    return Catalog(
        [
            validate_manifest(
                {
                    "domain": "salon",
                    "version": "1",
                    "description": "Hair salon",
                    "capabilities": [
                        {
                            "name": "book_haircut",
                            "description": "Book a haircut",
                            "metadata": {"policy": {"confirm": True}},
                        },
                        {"name": "haircut_price", "description": "Say what a haircut costs"},
                    ],
                    "goals": [
                        {
                            "goal": "BOOK_HAIRCUT",
                            "description": copy.deepcopy(goal_description),
                            "capabilities": capabilities or ["book_haircut"],
                        }
                    ],
                }
            )
        ]
    )


def booking_question(catalog: Catalog, language: str) -> str:
    step = ExecutionStep(id=1, domain="salon", capability="book_haircut", params={"slot": "10:00"})
    intent = IntentOutput(primary_domain="salon", goal="BOOK_HAIRCUT", language=language)
    execution_intent = ExecutionIntent(domain="salon", capability="book_haircut", goal="BOOK_HAIRCUT")
    return approval_question([step], intent, execution_intent, ExecutionPlan(steps=[step]), catalog).text


@pytest.mark.parametrize(
    "description",
    [
        {"pt": "Marcar um corte de cabelo", "en": "Book a haircut"},
        "Marcar um corte de cabelo (book a haircut)",
    ],
    ids=["by language", "one bilingual string"],
)
def test_an_english_capability_is_named_by_its_goals_portuguese_words(description: Any) -> None:
    text = booking_question(salon(description), "pt")
    assert "Próximo passo: marcar um corte de cabelo (“10:00”). Confirma? (sim/não)" in text
    assert "book" not in text


@pytest.mark.parametrize(
    ("description", "capabilities"),
    [
        ("Book a haircut", None),  # the goal has no Portuguese words either
        ({"en": "Book a haircut"}, None),
        ({"pt": "Preço e marcação de um corte"}, ["haircut_price", "book_haircut"]),  # says more than it
    ],
    ids=["english goal", "english only by language", "goal of two capabilities"],
)
def test_without_fitting_words_of_the_persons_language_the_tools_words_are_quoted(
    description: Any, capabilities: list[str] | None
) -> None:
    text = booking_question(salon(description, capabilities), "pt")
    assert "a ação “book haircut” (nas palavras da própria ferramenta: “book a haircut”)" in text


def test_in_english_the_capabilitys_own_words_stay() -> None:
    text = booking_question(salon({"pt": "Marcar um corte de cabelo", "en": "Make an appointment"}), "en")
    assert "Next step: book a haircut (“10:00”)" in text
