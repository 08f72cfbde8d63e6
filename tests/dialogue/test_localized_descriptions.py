"""Descriptions by language reach people in their language, and never a goal id: confirmation
and slot questions, approvals, help and out-of-scope answers in Portuguese and English, over a
manifest written for the test and over the shipped ones; clients outside get English."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from dialogue.approval import approval_question
from dialogue.rules import confirmation_question
from dialogue.slots import slot_question
from domains.finance.service import build_service as build_finance
from domains.general.service import build_service as build_general
from domains.general.service import help_, out_of_scope
from domains.notifier.service import build as build_notifier
from domains.research.service import build as build_research
from gateway.channels.mcp import goal_tools
from intent.llm import build_prompt
from planner.slots import SlotProblem
from shared.agent_card import skills
from shared.catalog import Catalog
from shared.i18n import LANGUAGES
from shared.manifest import DomainManifest, LocalizedText, validate_manifest
from shared.models import (
    ExecutionIntent,
    ExecutionPlan,
    ExecutionStep,
    GoalCandidate,
    IntentOutput,
)
from tests.domains.conftest import outbox_settings
from tests.domains.research.conftest import research_settings

WEATHER: dict[str, Any] = {
    "domain": "weather",
    "version": "1",
    "description": {"pt": "Previsão do tempo", "en": "Weather forecasts"},
    "capabilities": [
        {
            "name": "forecast",
            "description": {"pt": "Consulta a previsão do tempo", "en": "Look up the forecast"},
            "parameters": {
                "type": "object",
                "properties": {"city": {"type": "string"}},
                "required": ["city"],
            },
        },
        {
            "name": "alert",
            "description": {"pt": "Envia um alerta de tempestade", "en": "Send a storm alert"},
            "metadata": {"policy": {"confirm": True}},
        },
    ],
    "goals": [
        {
            "goal": "GET_WEATHER",
            "description": {"pt": "A previsão do tempo de uma cidade", "en": "The forecast for a city"},
            "capabilities": ["forecast"],
            "entities_schema": {
                "city": {
                    "type": "string",
                    "required": True,
                    "description": {"pt": "A cidade da previsão", "en": "The city of the forecast"},
                }
            },
        },
        {
            "goal": "STORM_ALERT",
            "description": {"en": "A storm alert for a city"},  # English only: Portuguese falls back
            "capabilities": ["alert"],
        },
    ],
}


def weather() -> Catalog:
    return Catalog([validate_manifest(WEATHER)])


def intent_for(language: str, *goals: str) -> IntentOutput:
    return IntentOutput(
        primary_domain="weather",
        goal=goals[0],
        confidence=0.4,
        language=language,
        alternatives=[
            GoalCandidate(domain="weather", goal=g, confidence=0.4 - i * 0.05) for i, g in enumerate(goals)
        ],
    )


def execution_intent(capability: str = "forecast") -> ExecutionIntent:
    return ExecutionIntent(domain="weather", capability=capability, goal="GET_WEATHER")


# ---------------------------------------------------------------- the questions a turn asks


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("pt", "Só para confirmar: você quer a previsão do tempo de uma cidade? (sim/não)"),
        ("en", "Just to confirm: do you want the forecast for a city? (yes/no)"),
    ],
)
def test_a_confirmation_shows_the_goal_in_the_persons_language(language: str, expected: str) -> None:
    question = confirmation_question(intent_for(language, "GET_WEATHER"), execution_intent(), weather())
    assert question.text == expected


def test_a_confirmation_between_goals_falls_back_to_english_and_never_shows_ids() -> None:
    question = confirmation_question(
        intent_for("pt", "GET_WEATHER", "STORM_ALERT"), execution_intent(), weather()
    )
    assert "(1) a previsão do tempo de uma cidade" in question.text
    assert "(2) a storm alert for a city" in question.text  # no Portuguese text: the English one
    assert "GET_WEATHER" not in question.text and "STORM_ALERT" not in question.text


def test_a_goal_gone_from_the_catalog_is_named_by_words_not_by_its_id() -> None:
    gone = IntentOutput(
        primary_domain="weather",
        goal="TIDE_TABLES",
        confidence=0.4,
        language="en",
        alternatives=[GoalCandidate(domain="weather", goal="TIDE_TABLES", confidence=0.4)],
    )
    question = confirmation_question(gone, execution_intent(), weather())
    assert question.text == "Just to confirm: do you want tide tables? (yes/no)"


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("pt", "Para continuar, preciso saber: a cidade da previsão."),
        ("en", "To go on, I need to know: the city of the forecast."),
    ],
)
def test_a_slot_question_asks_with_the_entitys_description_in_the_persons_language(
    language: str, expected: str
) -> None:
    goal = weather().find_goal("weather", "GET_WEATHER")
    assert goal is not None
    problem = SlotProblem(param="city", problem="missing", entity="city")
    question = slot_question(
        problem,
        goal.entities_schema["city"],
        intent_for(language, "GET_WEATHER"),
        execution_intent(),
        ExecutionPlan(),
    )
    assert question.text == expected


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("pt", "envia um alerta de tempestade (a cidade da previsão: “Recife”)"),
        ("en", "send a storm alert (the city of the forecast: “Recife”)"),
    ],
)
def test_an_approval_names_the_capability_and_its_values_in_the_persons_language(
    language: str, expected: str
) -> None:
    step = ExecutionStep(id=1, domain="weather", capability="alert", params={"city": "Recife"})
    plan = ExecutionPlan(steps=[step])
    question = approval_question(
        [step], intent_for(language, "STORM_ALERT"), execution_intent("alert"), plan, weather()
    )
    assert expected in question.text


# ---------------------------------------------------------------- the shipped manifests


@pytest.fixture(scope="module")
def shipped(tmp_path_factory: pytest.TempPathFactory) -> Catalog:
    tmp = tmp_path_factory.mktemp("shipped")
    return Catalog(
        [
            build_finance().manifest(),
            build_general().manifest(),
            build_notifier(outbox_settings(Path(tmp) / "outbox.sqlite3")).service.manifest(),
            build_research(research_settings(tmp)).service.manifest(),
        ]
    )


def descriptions(manifest: DomainManifest) -> dict[str, LocalizedText]:
    found: dict[str, LocalizedText] = {manifest.domain: manifest.description}
    for capability in manifest.capabilities:
        found[f"{manifest.domain}.{capability.name}"] = capability.description
    for goal in manifest.goals:
        found[f"{manifest.domain}.{goal.goal}"] = goal.description
        for name, spec in goal.entities_schema.items():
            found[f"{manifest.domain}.{goal.goal}.{name}"] = spec.description
    return found


def test_every_shipped_description_is_written_in_portuguese_and_english(shipped: Catalog) -> None:
    for manifest in shipped.manifests():
        for where, description in descriptions(manifest).items():
            assert isinstance(description, dict), f"{where}: one mixed-language string"
            assert set(description) == set(LANGUAGES), where


def goal_ids(catalog: Catalog) -> list[str]:
    return [ref.goal.goal for ref in catalog.goals()]


def catalog_context(catalog: Catalog, language: str) -> dict[str, Any]:
    """What the dialogue hands the general domain (as JSON, the way it travels)."""
    entries = [
        {"domain": g.domain, "goal": g.goal.goal, "description": g.goal.description} for g in catalog.goals()
    ]
    return json.loads(json.dumps({"catalog": entries, "language": language}))


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("answer", [help_, out_of_scope], ids=["help", "out_of_scope"])
def test_help_and_out_of_scope_answers_show_no_goal_id_and_one_language(
    shipped: Catalog, language: str, answer: Any
) -> None:
    intent = ExecutionIntent(
        domain="general", capability="help", original_query="?", context=catalog_context(shipped, language)
    )
    text = answer(intent).explanation
    other = "en" if language == "pt" else "pt"
    for ref in shipped.goals():
        assert ref.goal.goal not in text, f"{ref.goal.goal} shown in {text!r}"
        description = ref.goal.description
        assert isinstance(description, dict)
        if ref.domain != "general":
            assert description[language] in text
            assert description[other] not in text


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_confirmation_shows_a_goal_id(shipped: Catalog, language: str) -> None:
    for ref in shipped.goals():
        intent = IntentOutput(
            primary_domain=ref.domain,
            goal=ref.goal.goal,
            confidence=0.4,
            language=language,
            alternatives=[
                GoalCandidate(domain=g.domain, goal=g.goal.goal, confidence=0.4) for g in shipped.goals()
            ],
        )
        question = confirmation_question(intent, ExecutionIntent(domain=ref.domain, capability="x"), shipped)
        for goal_id in goal_ids(shipped):
            assert goal_id not in question.text, question.text
            assert all(goal_id not in option.description for option in question.options)


# ---------------------------------------------------------------- clients outside the dialogue


def test_mcp_tools_and_a2a_skills_are_described_in_english(shipped: Catalog) -> None:
    tools = {tool.ref.goal.goal: tool.tool for tool in goal_tools(shipped).values()}
    assert tools["GET_QUOTE"].description == "The current price of one or more stocks (domain: finance)"
    symbol = tools["GET_QUOTE"].input_schema["properties"]["symbol_text"]
    assert symbol["description"] == "The company name or ticker"
    finance = shipped.manifest("finance")
    assert finance is not None
    by_id = {skill.id: skill for skill in skills(finance)}
    assert by_id["TOP_MOVERS"].description == "The stocks that rose or fell the most today, by market"


def test_the_llm_prompt_carries_every_language_of_a_description() -> None:
    prompt = build_prompt(weather())
    assert "A previsão do tempo de uma cidade / The forecast for a city" in prompt
    assert "A cidade da previsão / The city of the forecast" in prompt
