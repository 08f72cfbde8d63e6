"""A verb form of a one-word enum synonym says it: "ROUBARAM meu carro" is a theft whose synonym
is "roubo", "the basement flooded" a flood. A verb the goal's own phrasing or a request uses
says nothing: "cancela o pedido" is no "cancelado"."""

from __future__ import annotations

import pytest

from intent.entities import GoalEntityExtractor
from intent.typed import Clock
from shared.manifest import Goal

CLOCK = Clock.of({"now": "2026-03-10T10:00:00-03:00", "time_zone": "America/Sao_Paulo"})

CLAIM = Goal.model_validate(
    {
        "goal": "FILE_CLAIM",
        "description": "file an insurance claim",
        "entities_schema": {
            "coverage": {
                "type": "enum",
                "values": ["THEFT", "FLOOD", "BAGGAGE"],
                "synonyms": {
                    "THEFT": ["roubo", "furto", "theft"],
                    "FLOOD": ["alagamento", "flood"],
                    "BAGGAGE": ["extravio", "baggage"],
                },
            },
            "policy_text": {"type": "string", "description": "the policy"},
        },
        "examples": ["abrir sinistro de roubo na apólice SG4821", "file a flood claim on SG3307"],
    }
)
ORDERS = Goal.model_validate(
    {
        "goal": "CANCEL_ORDER",
        "description": "cancel an order",
        "entities_schema": {
            "status": {
                "type": "enum",
                "values": ["CANCELLED", "OPEN"],
                "synonyms": {"CANCELLED": ["cancelado"]},
            },
            "order_text": {"type": "string", "description": "the order"},
        },
        "examples": ["cancela o pedido PD1234", "cancel order PD1234"],
    }
)


@pytest.mark.parametrize(
    ("text", "language", "coverage"),
    [
        ("PRECISO ABRIR SINISTRO APOLICE SG4821 ROUBARAM MEU CARRO HOJE", "pt", "THEFT"),
        ("furtaram minha bolsa, apolice SG3307", "pt", "THEFT"),
        ("extraviaram minha mala na viagem, SG1150", "pt", "BAGGAGE"),
        ("the basement flooded yesterday, policy SG3307", "en", "FLOOD"),
    ],
)
def test_a_verb_form_of_a_synonym_says_its_value(text: str, language: str, coverage: str) -> None:
    assert GoalEntityExtractor(CLAIM).extract(text, clock=CLOCK, language=language)["coverage"] == coverage


@pytest.mark.parametrize(
    ("text", "language"), [("cancela o pedido PD1234", "pt"), ("cancel order PD1234", "en")]
)
def test_the_goals_own_verb_is_no_value(text: str, language: str) -> None:
    assert "status" not in GoalEntityExtractor(ORDERS).extract(text, clock=CLOCK, language=language)
