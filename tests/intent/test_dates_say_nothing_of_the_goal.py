"""A day or a time says nothing of what is asked, but its words can pull the classifier towards
the goals whose examples show many days: the request is also read without them."""

from __future__ import annotations

from typing import Any

import pytest

from intent.embedded import EmbeddedIntentAdapter, without_dates
from intent.typed import Clock
from shared.catalog import Catalog
from shared.manifest import DomainManifest

CONTEXT = {"time_zone": "America/Sao_Paulo", "now": "2026-03-10T09:00:00-03:00"}


def _ex(text: str, **entities: str) -> dict[str, Any]:
    return {"text": text, "entities": entities}


DAY = {"type": "date"}
CLINIC: dict[str, Any] = {
    "domain": "clinic",
    "version": "1",
    "description": "A clinic's appointments",
    "capabilities": [{"name": "book", "description": "b"}, {"name": "agenda", "description": "a"}],
    "goals": [
        {
            "goal": "BOOK_APPOINTMENT",
            "description": {"pt": "Marcar uma consulta", "en": "Book an appointment"},
            "capabilities": ["book"],
            "entities_schema": {"day_text": DAY},
            "examples": [
                _ex("marca uma consulta na sexta"),
                _ex("quero consulta quinta de manhã"),
                _ex("consulta pra segunda às 10h"),
                _ex("agenda consulta sábado"),
                _ex("book an appointment on friday"),
                _ex("appointment for thursday morning please"),
                _ex("I need an appointment on monday at 10am"),
                _ex("get me an appointment saturday"),
            ],
        },
        {
            "goal": "LIST_APPOINTMENTS",
            "description": {"pt": "Ver as consultas que tenho", "en": "See the appointments I have"},
            "capabilities": ["agenda"],
            "entities_schema": {"day_text": DAY},
            "examples": [
                _ex("quais consultas eu tenho marcadas?"),
                _ex("tenho consulta?"),
                _ex("show my appointments"),
                _ex("do I have appointments?"),
            ],
        },
    ],
}


@pytest.fixture(scope="module")
def adapter() -> EmbeddedIntentAdapter:
    return EmbeddedIntentAdapter(Catalog([DomainManifest.model_validate(CLINIC)]), use_embeddings=False)


@pytest.mark.parametrize(
    "text", ["tenho consulta sexta de manhã?", "do I have an appointment on friday morning?"]
)
def test_a_question_about_a_day_is_not_read_as_booking_it(adapter: EmbeddedIntentAdapter, text: str) -> None:
    out = adapter.parse_sync(text, context=CONTEXT)
    assert out.alternatives[0].goal == "LIST_APPOINTMENTS", out
    assert out.entities.get("day_text") in (None, "2026-03-13")
    # (the premise: read with its day, the message looks more like a booking)
    probs, _, _ = adapter.scores(text)
    assert adapter.model is not None
    assert adapter.model.goals[int(probs.argmax())].goal.goal == "BOOK_APPOINTMENT"


def test_without_dates_keeps_the_rest() -> None:
    clock = Clock.of(CONTEXT, "UTC")
    assert without_dates("tenho alguma consulta na sexta?", "pt", clock) == "tenho alguma consulta ?"
    assert without_dates("do I have any appointment tomorrow at 3pm?", "en", clock) == (
        "do I have any appointment ?"
    )
    assert without_dates("tenho alguma consulta?", "pt", clock) is None
    assert without_dates("amanhã às 14h", "pt", clock) is None  # nothing of substance left


def test_a_reading_without_dates_is_taken_only_when_confident() -> None:
    """Without its year, "quem ganhou a copa de 2002?" reads a little more like the movers'
    "quem mais subiu": a reading still out of scope is not taken (it would reach the rescue)."""
    from domains.finance.service import build_service as finance
    from domains.general.service import build_service as general
    from domains.notifier.service import build as notifier
    from domains.research.service import build as research

    shipped = [
        finance().manifest_with_lookups(),
        general().manifest(),
        notifier().service.manifest(),
        research().service.manifest(),
    ]
    adapter = EmbeddedIntentAdapter(Catalog(shipped))
    out = adapter.parse_sync("quem ganhou a copa de 2002?", context=CONTEXT)
    assert out.goal is None, out
