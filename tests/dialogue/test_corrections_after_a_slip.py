"""A correction may open with the slip it mends or an afterthought ("opa, errei, é às 16h",
"ah e vamos ser 11 pessoas"): what follows those words is the new value of the request waiting
for a yes."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from bench.understanding.round11.domains import coworking
from dialogue.rules import FollowUps, correction_rest
from intent.typed import Clock
from shared.catalog import Catalog
from shared.models import IntentOutput

CLOCK = Clock(
    now=datetime(2026, 3, 10, 10, 0, tzinfo=ZoneInfo("America/Sao_Paulo")), time_zone="America/Sao_Paulo"
)
BOOKING = IntentOutput(
    primary_domain="coworking",
    goal="BOOK_SPACE",
    entities={"space_text": "sala jabuticaba", "day": "2026-03-11", "start": "14:00", "duration": "PT1H"},
    confidence=0.9,
    original_query="marca a sala jabuticaba amanhã 14h por 1 hora",
    language="pt",
)


@pytest.mark.parametrize(
    ("text", "rest"),
    [
        ("opa, errei, é às 16h", "às 16h"),
        ("ah e vamos ser 11 pessoas", "vamos ser 11 pessoas"),
        ("foi mal, 3 horas", "3 horas"),
        ("my bad, make it 2 hours", "2 hours"),
        ("põe 2 ajudantes", "2 ajudantes"),
        # a lead-in in a chat shorthand
        ("na vdd é às 16h", "às 16h"),
    ],
)
def test_the_words_after_the_slip(text: str, rest: str) -> None:
    assert correction_rest(text) == rest


@pytest.mark.parametrize(
    ("text", "changed"),
    [("opa, errei, é às 16h", {"start": "16:00"}), ("ah e vamos ser 11 pessoas", {"people": 11})],
)
def test_the_request_takes_the_new_value(text: str, changed: dict[str, object]) -> None:
    catalog = Catalog([coworking.service.manifest_with_lookups()])
    corrected = FollowUps().correct(BOOKING, text, catalog, CLOCK)
    assert corrected is not None
    assert corrected.entities == {**BOOKING.entities, **changed}
