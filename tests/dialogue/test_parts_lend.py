"""A clause that says where the running request's required value is ("I ordered something last
week (order 48213) and I'd like a refund") is part of that request, not a request left undone."""

from __future__ import annotations

import pytest

from dialogue.parts import read_parts
from intent.embedded import EmbeddedIntentAdapter
from shared.catalog import Catalog
from shared.entities import EntityValue
from shared.manifest import validate_manifest
from shared.models import IntentOutput
from tests.dialogue.test_replies_carry import ORDERS

#: low enough that the clause alone reads as another goal of the domain, as a confident part
#: would (the small catalog here leaves the classifier unsure of everything)
THRESHOLD = 0.05


@pytest.fixture(scope="module")
def adapter() -> EmbeddedIntentAdapter:
    return EmbeddedIntentAdapter(
        Catalog([validate_manifest(ORDERS)]), use_embeddings=False, oos_threshold=THRESHOLD
    )


def _refund(language: str, **entities: EntityValue) -> IntentOutput:
    return IntentOutput(
        primary_domain="orders", goal="REFUND_ORDER", entities=entities, confidence=0.9, language=language
    )


@pytest.mark.parametrize(
    ("text", "number", "language"),
    [
        ("I placed order 48213 last week and I'd like a refund please", "48213", "en"),
        ("fiz o pedido 50017 semana passada e quero o reembolso", "50017", "pt"),
    ],
)
async def test_a_clause_with_the_required_value_lends_it(
    adapter: EmbeddedIntentAdapter, text: str, number: str, language: str
) -> None:
    clause = text.split(" and ")[0] if language == "en" else text.split(" e ")[0]
    clause_reading = await adapter.parse(clause)
    assert clause_reading.goal not in (None, "REFUND_ORDER"), clause_reading  # the premise
    parts = await read_parts(
        text, _refund(language, order_number_text=number), adapter, adapter.catalog, THRESHOLD
    )
    assert parts.not_done == []
    assert parts.intent.goal == "REFUND_ORDER"
    assert parts.intent.entities == {"order_number_text": number}


async def test_a_request_of_its_own_is_still_undone(adapter: EmbeddedIntentAdapter) -> None:
    text = "refund order 48213 and where is order 50017"
    parts = await read_parts(
        text, _refund("en", order_number_text="48213"), adapter, adapter.catalog, THRESHOLD
    )
    assert parts.not_done == ["where is order 50017"]
    assert parts.intent.entities == {"order_number_text": "48213"}
