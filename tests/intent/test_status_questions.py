"""A question about what the person already has ("tenho reserva pra sábado?", "am I booked for
anything on tuesday") reads their records: the goal of the domain that changes nothing and whose
phrasing says whose ("minhas reservas"), not the goal that makes a new one, and it is answered,
not confirmed."""

from __future__ import annotations

from typing import Any

import pytest

from intent.embedded import CLEAR_REQUEST_CONFIDENCE, EmbeddedIntentAdapter
from shared.catalog import Catalog
from shared.manifest import DomainManifest
from tests.conftest import example

CONTEXT = {"time_zone": "America/Sao_Paulo", "now": "2026-03-10T09:00:00-03:00"}  # a Tuesday

APPROVED = {"policy": {"confirm": True, "idempotent": False}}
STUDIO: dict[str, Any] = {
    "domain": "studio",
    "version": "1",
    "description": "A dance studio's lessons",
    "capabilities": [
        {"name": "book_lesson", "description": "b", "metadata": APPROVED},
        {"name": "drop_lesson", "description": "d", "metadata": APPROVED},
        {"name": "my_lessons", "description": "l"},
    ],
    "goals": [
        {
            "goal": "BOOK_LESSON",
            "description": {"pt": "Reservar uma aula de dança", "en": "Book a dance lesson"},
            "capabilities": ["book_lesson"],
            "entities_schema": {
                "style": {
                    "type": "string",
                    "required": True,
                    "lookup": [
                        {"value": "Salsa", "aliases": ["salsa"]},
                        {"value": "Tango", "aliases": ["tango"]},
                        {"value": "Forró", "aliases": ["forro"]},
                    ],
                },
                "day": {"type": "date", "required": True},
            },
            "examples": [
                example("quero reservar uma aula de salsa sexta", style="salsa"),
                example("reserva tango pra sábado", style="tango"),
                example("marca uma aula de forró amanhã", style="forró"),
                example("book a salsa lesson on friday", style="salsa"),
                example("reserve a tango class for saturday", style="tango"),
            ],
        },
        {
            "goal": "DROP_LESSON",
            "description": {"pt": "Cancelar uma aula reservada", "en": "Cancel a booked lesson"},
            "capabilities": ["drop_lesson"],
            "entities_schema": {"day": {"type": "date"}},
            "examples": [
                example("cancela minha aula de sexta"),
                example("cancel my lesson on friday"),
            ],
        },
        {
            "goal": "MY_LESSONS",
            "description": {"pt": "As suas aulas reservadas", "en": "Your booked lessons"},
            "capabilities": ["my_lessons"],
            "entities_schema": {"day": {"type": "date"}},
            "examples": [
                example("minhas aulas"),
                example("mostra minhas aulas da semana"),
                example("my lessons"),
                example("show my booked lessons"),
            ],
        },
    ],
}


@pytest.fixture(scope="module")
def adapter() -> EmbeddedIntentAdapter:
    return EmbeddedIntentAdapter(Catalog([DomainManifest.model_validate(STUDIO)]), use_embeddings=False)


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("tenho aula reservada pra sábado?", "2026-03-14"),
        ("tô com alguma aula de salsa reservada?", None),
        ("am I booked for a lesson on friday", "2026-03-13"),
        ("do I have a tango lesson booked?", None),
    ],
)
def test_a_question_about_what_the_person_has_reads_their_records(
    adapter: EmbeddedIntentAdapter, text: str, day: str | None
) -> None:
    out = adapter.parse_sync(text, context=CONTEXT)
    assert out.goal == "MY_LESSONS", (text, out)
    assert out.confidence >= CLEAR_REQUEST_CONFIDENCE, out  # answered, not confirmed
    assert out.entities.get("day") == day, out.entities
    assert all(a.goal != "BOOK_LESSON" for a in out.alternatives), out.alternatives


@pytest.mark.parametrize(
    "text",
    [
        "quero reservar uma aula de salsa sábado",
        "book a tango lesson on friday",
        "do I have to book a salsa lesson?",  # an obligation, not what the person has
        "tenho que reservar tango pra sábado",
    ],
)
def test_a_request_for_something_new_is_not_a_status_question(
    adapter: EmbeddedIntentAdapter, text: str
) -> None:
    out = adapter.parse_sync(text, context=CONTEXT)
    assert out.goal == "BOOK_LESSON", (text, out)
    assert not any(note.startswith("status question") for note in out.notes), out.notes
