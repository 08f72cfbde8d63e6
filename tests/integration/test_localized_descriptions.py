"""Manifest descriptions by language, through a real gateway and the real shipped domains: help,
out-of-scope answers, slot and confirmation questions speak the person's language only and never
show a goal id; the A2A card describes the skills in English."""

from __future__ import annotations

import uuid
from typing import Any

import httpx
import pytest

from tests.conftest import Process

pytestmark = pytest.mark.integration

#: The goal ids of the shipped finance, notifier and general domains.
GOAL_IDS = ("GET_QUOTE", "TOP_MOVERS", "SEARCH_SYMBOL", "HELP", "SMALL_TALK")
#: What finance's goals are, as its manifest says it in each language.
FINANCE_GOALS = {
    "pt": [
        "O preço atual (cotação) de uma ou mais ações",
        "As ações que mais subiram ou caíram no dia, por mercado",
        "O ticker (código de negociação) de uma empresa",
    ],
    "en": [
        "The current price of one or more stocks",
        "The stocks that rose or fell the most today, by market",
        "A company's ticker (trading symbol)",
    ],
}


def say(gateway: Process, text: str, session_id: str | None = None) -> dict[str, Any]:
    body = {"input_text": text, "session_id": session_id or f"desc-{uuid.uuid4().hex[:12]}"}
    response = httpx.post(f"{gateway.url}/v1/runs", json=body, timeout=60)
    assert response.status_code == 200, response.text
    return dict(response.json())


def assert_no_goal_id(answer: str) -> None:
    shown = [goal for goal in GOAL_IDS if goal in answer]
    assert not shown, f"goal ids {shown} shown to the person: {answer!r}"


@pytest.mark.parametrize(
    ("language", "text", "intro"),
    [
        ("pt", "o que você faz?", "Posso:"),
        ("en", "what can you do?", "I can:"),
        ("pt", "quem descobriu o Brasil?", "Não consigo fazer isso."),
        ("en", "who discovered Brazil?", "I can't do that."),
    ],
)
def test_help_and_out_of_scope_list_the_goals_in_the_persons_language(
    platform: Process, language: str, text: str, intro: str
) -> None:
    answer = say(platform, text)["answer"]
    assert intro in answer
    assert_no_goal_id(answer)
    other = "en" if language == "pt" else "pt"
    for mine, theirs in zip(FINANCE_GOALS[language], FINANCE_GOALS[other], strict=True):
        assert f"• {mine}" in answer, answer
        assert theirs not in answer, answer


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("preço", "Para continuar, preciso saber: o nome da empresa ou o ticker."),
        ("what's the price?", "To go on, I need to know: the company name or ticker."),
    ],
)
def test_a_slot_question_asks_with_the_entitys_description_in_the_persons_language(
    platform: Process, text: str, expected: str
) -> None:
    run = say(platform, text)
    assert run["status"] == "waiting_input" and run["question"]["kind"] == "slot_filling", run["answer"]
    assert run["answer"].startswith(expected)
    assert_no_goal_id(run["answer"])


@pytest.mark.parametrize(
    ("text", "confirmation", "slot"),
    [
        (
            "cotações",
            "Só para confirmar: você quer o preço atual (cotação) de uma ou mais ações? (sim/não)",
            "Para continuar, preciso saber: o nome da empresa ou o ticker.",
        ),
        (
            "how much is it trading for",
            "Just to confirm: do you want the current price of one or more stocks? (yes/no)",
            "To go on, I need to know: the company name or ticker.",
        ),
    ],
)
def test_a_vague_quote_request_is_confirmed_in_the_persons_language(
    platform: Process, text: str, confirmation: str, slot: str
) -> None:
    run = say(platform, text)
    assert run["status"] == "waiting_input", run["answer"]
    # the classifier decides whether the goal needs a confirmation; the words are the manifest's
    # either way (the slot question follows a confident guess)
    expected = confirmation if run["question"]["kind"] == "confidence_gate" else slot
    assert run["answer"].startswith(expected), run["answer"]
    assert_no_goal_id(run["answer"])


def test_the_platform_card_describes_the_skills_in_english(platform: Process) -> None:
    card = httpx.get(f"{platform.url}/.well-known/agent-card.json", timeout=10).json()
    described = {skill["id"]: skill["description"] for skill in card["skills"]}
    assert described["GET_QUOTE"] == "The current price of one or more stocks"
    assert described["SMALL_TALK"] == "Greetings, thanks and goodbyes (small talk)"
