"""A status question about one thing of the person's ("cadê meu *chamado*?", "where's my *ticket*
at?") reads that one thing, the goal that changes nothing and says it in the singular, and asks
for its number; about several ("cadê meus chamados?") it reads the person's list."""

from __future__ import annotations

from typing import Any

import pytest

from intent.embedded import EmbeddedIntentAdapter
from shared.catalog import Catalog, GoalRef
from shared.manifest import DomainManifest
from tests.conftest import example

APPROVED = {"policy": {"confirm": True, "idempotent": False}}
HELPDESK: dict[str, Any] = {
    "domain": "helpdesk",
    "version": "1",
    "description": "IT support tickets",
    "capabilities": [
        {"name": "open_ticket", "description": "o", "metadata": APPROVED},
        {"name": "ticket_status", "description": "s"},
        {"name": "my_tickets", "description": "l"},
    ],
    "goals": [
        {
            "goal": "OPEN_TICKET",
            "description": {"pt": "Abrir um chamado de suporte", "en": "Open a support ticket"},
            "capabilities": ["open_ticket"],
            "entities_schema": {"problem_text": {"type": "string", "required": True}},
            "examples": [
                example("abre um chamado: o excel fecha sozinho", problem_text="o excel fecha sozinho"),
                example("open a ticket: my laptop won't boot", problem_text="my laptop won't boot"),
            ],
        },
        {
            "goal": "TICKET_STATUS",
            "description": {"pt": "O andamento de um chamado", "en": "The status of a support ticket"},
            "capabilities": ["ticket_status"],
            "entities_schema": {"ticket_number_text": {"type": "string", "required": True}},
            "examples": [
                example("como está o chamado 30117?", ticket_number_text="30117"),
                example("status do chamado 30245", ticket_number_text="30245"),
                example("andamento do ticket 30388", ticket_number_text="30388"),
                example("what's the status of ticket 30117?", ticket_number_text="30117"),
                example("any update on ticket #30388?", ticket_number_text="30388"),
            ],
        },
        {
            "goal": "LIST_MY_TICKETS",
            "description": {"pt": "Os seus chamados de suporte", "en": "Your support tickets"},
            "capabilities": ["my_tickets"],
            "entities_schema": {},
            "examples": [
                example("quais são meus chamados?"),
                example("lista meus chamados"),
                example("meus tickets de suporte"),
                example("show my tickets"),
                example("list my open support tickets"),
                example("which of my tickets were closed?"),
            ],
        },
    ],
}


@pytest.fixture(scope="module")
def adapter() -> EmbeddedIntentAdapter:
    return EmbeddedIntentAdapter(Catalog([DomainManifest.model_validate(HELPDESK)]), use_embeddings=False)


def _goal(adapter: EmbeddedIntentAdapter, name: str) -> GoalRef:
    assert adapter.model is not None
    return next(ref for ref in adapter.model.goals if ref.goal.goal == name)


@pytest.mark.parametrize(
    ("text", "goal"),
    [
        ("cadê meu chamado?", "TICKET_STATUS"),
        ("where's my ticket at?", "TICKET_STATUS"),
        ("cadê meus chamados?", None),
        ("where are my tickets?", None),
    ],
)
def test_a_status_question_about_one_thing_reads_that_thing(
    adapter: EmbeddedIntentAdapter, text: str, goal: str | None
) -> None:
    own = _goal(adapter, "LIST_MY_TICKETS")
    reads = [own, _goal(adapter, "TICKET_STATUS")]
    found = adapter._one_of_mine(text, own, reads)
    assert (found.goal.goal if found else None) == goal, text
