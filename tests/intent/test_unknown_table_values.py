"""A required value that shares no word with the table the manifest lists for it names nothing
the goal knows: "sign me up for a guitar class" beside a gym whose classes are pilates, yoga and
spinning is out of scope, not a booking of a class the gym does not have. A misspelt entry is
still the entry, and a table served at ``lookup_path`` (large, changing) is not every value."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from intent.embedded import EmbeddedIntentAdapter
from shared.catalog import Catalog
from shared.manifest import DomainManifest
from tests.intent.test_ties_decided_by_words import GYM

CONTEXT = {"time_zone": "America/Sao_Paulo", "now": "2026-03-10T09:00:00-03:00"}


def _adapter(manifest: dict[str, Any]) -> EmbeddedIntentAdapter:
    return EmbeddedIntentAdapter(Catalog([DomainManifest.model_validate(manifest)]), use_embeddings=False)


@pytest.fixture(scope="module")
def adapter() -> EmbeddedIntentAdapter:
    return _adapter(GYM)


@pytest.mark.parametrize(
    "lure",
    [
        "sign me up for guitar on thursday at 6:30pm",
        "reserva violão sexta 8h",
    ],
)
def test_a_value_the_table_does_not_have_is_out_of_scope(adapter: EmbeddedIntentAdapter, lure: str) -> None:
    out = adapter.parse_sync(lure, context=CONTEXT)
    assert out.goal is None, (lure, out)
    assert any("names nothing" in note for note in out.notes), out.notes


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("book pilattes on friday at 8am", "pilattes"),  # a typo of an entry is the entry
        ("reserva pilates sexta às 8h", "pilates"),
    ],
)
def test_a_value_of_the_table_is_read(adapter: EmbeddedIntentAdapter, text: str, value: str) -> None:
    out = adapter.parse_sync(text, context=CONTEXT)
    assert out.goal == "BOOK_CLASS", (text, out)
    assert str(out.entities.get("class_text", "")).lower() == value, out.entities


def test_a_served_table_may_lack_a_value_the_domain_knows() -> None:
    served = copy.deepcopy(GYM)
    for goal in served["goals"]:
        goal["entities_schema"]["class_text"] = {
            **goal["entities_schema"]["class_text"],
            "lookup_path": "/classes",
        }
    out = _adapter(served).parse_sync("sign me up for guitar on thursday at 6:30pm", context=CONTEXT)
    assert out.goal == "BOOK_CLASS", out
    assert out.entities.get("class_text") == "guitar", out.entities
