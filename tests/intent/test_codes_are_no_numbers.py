"""A code written as letters against digits ("CR7781") is a code in either language: English
Duckling reads "cr7781" as a number (a crore), which once made the entity a number's words, so a
Portuguese message, whose Duckling reads no number there, lost the code."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from intent.embedded import EmbeddedIntentAdapter
from intent.typed import RECOGNIZER
from shared.catalog import Catalog
from shared.manifest import DomainManifest
from tests.intent.test_ties_decided_by_words import CARS

CONTEXT = {"time_zone": "America/Sao_Paulo", "now": "2026-03-10T09:00:00-03:00"}


@pytest.fixture(scope="module")
def adapter() -> EmbeddedIntentAdapter:
    return EmbeddedIntentAdapter(Catalog([DomainManifest.model_validate(CARS)]), use_embeddings=False)


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("desisti da viagem, cancela o aluguel cr7781 pfv", "cr7781"),
        ("cancela o aluguel CR8020", "CR8020"),
        ("cancel my car rental cr5555", "cr5555"),
    ],
)
def test_a_code_is_read_in_both_languages(adapter: EmbeddedIntentAdapter, text: str, code: str) -> None:
    out = adapter.parse_sync(text, context=CONTEXT)
    assert out.goal == "CANCEL_RENTAL", (text, out)
    assert out.entities.get("rental_code_text") == code, out.entities


@pytest.mark.parametrize(
    ("text", "read"),
    [
        # "uma p" was 1 p.m. to Duckling, and took the code's letter and the day after it
        ("quero uma P13 amanhã", [("number", 1), ("date", "2026-03-11")]),
        # blanks would join "no" and "quinta" around the code
        ("visita no IM2055 quinta às 16h", [("datetime", "2026-03-12T16:00:00-03:00")]),
    ],
)
def test_a_code_is_no_part_of_a_day(text: str, read: list[tuple[str, object]]) -> None:
    now = datetime(2026, 3, 10, 10, 0, tzinfo=ZoneInfo("America/Sao_Paulo"))
    spans = RECOGNIZER.spans(text, "pt", time_zone="America/Sao_Paulo", now=now)
    assert [(s.type, s.value) for s in spans] == read
    assert not any("P13" in text[s.start : s.end] or "IM2055" in text[s.start : s.end] for s in spans)
