"""A code written as letters against digits ("CR7781") is a code in either language: English
Duckling reads "cr7781" as a number (a crore), which once made the entity a number's words, so a
Portuguese message, whose Duckling reads no number there, lost the code."""

from __future__ import annotations

import pytest

from intent.embedded import EmbeddedIntentAdapter
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
