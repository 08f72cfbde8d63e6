"""Which values of a rewritten plan's step the person did not say (``shared.planning.unsaid_values``):
the planned values of that capability and the request's entities are said; a reference or a
selection counts as said only where the planned step computed that parameter the same way."""

from __future__ import annotations

from typing import Any

import pytest

from shared.models import ExecutionPlan, ExecutionStep
from shared.planning import ParamChange, unsaid_values


def send(id: int, **params: Any) -> ExecutionStep:
    return ExecutionStep(id=id, domain="notifier", capability="send", params=params)


TEXT = "Maior: ${= max_by([step1.result], &pct).name}"
PLANNED = ExecutionPlan(
    steps=[
        ExecutionStep(id=1, domain="market", capability="quote", params={"symbol_text": ["A", "B"]}),
        send(2, chat="@ana", text=TEXT, note="${1.explanation}"),
    ]
)
SAID: dict[str, list[Any]] = {"chat": ["@bia"], "symbol_text": [["A", "B"]]}


@pytest.mark.parametrize(
    "params",
    [
        {"chat": "@ana"},  # as planned
        {"chat": "@bia"},  # an entity of that name
        {"symbol_text": "B"},  # one of the values an entity lists
        {"text": "Maior: ${= max_by([step4.result], &pct).name}"},  # the same selection, other steps
        {"note": "${7.explanation}"},  # the same field of another step
    ],
)
def test_said_values(params: dict[str, Any]) -> None:
    assert unsaid_values(send(9, **params), PLANNED, SAID) == []


@pytest.mark.parametrize(
    ("params", "before"),
    [
        ({"chat": "@caio"}, "@ana"),  # nobody said it
        ({"chat": "${1.result.chat}"}, "@ana"),  # computed where the person named a literal
        ({"note": "${1.result.name}"}, "${1.explanation}"),  # another field
        ({"text": "Menor: ${= max_by([step4.result], &pct).name}"}, TEXT),  # other text around it
        ({"text": "$${= max_by([step1.result], &pct).name}"}, TEXT),  # a literal, not a selection
        ({"parse_mode": "HTML"}, None),  # a parameter the plan did not have
    ],
)
def test_unsaid_values(params: dict[str, Any], before: Any) -> None:
    ((name, value),) = params.items()
    assert unsaid_values(send(9, **params), PLANNED, SAID) == [ParamChange(9, name, before, value)]


def test_an_entity_is_said_for_its_own_name_only() -> None:
    assert unsaid_values(send(9, chat="A"), PLANNED, SAID) == [ParamChange(9, "chat", "@ana", "A")]


def test_a_value_one_of_a_planned_list_is_said() -> None:
    quote = ExecutionStep(id=5, domain="market", capability="quote", params={"symbol_text": "B"})
    assert unsaid_values(quote, PLANNED, {}) == []
