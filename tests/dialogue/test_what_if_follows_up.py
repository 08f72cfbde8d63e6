""" "What if …" after an answer asks the same again with what it names added: "I'm 20, can I give
blood?" then "what if I weigh 48 kg?" asks about a donor of 20 who weighs 48 kg."""

from __future__ import annotations

import pytest

from bench.understanding.round18.domains import blood_donation
from intent.embedded import EmbeddedIntentAdapter
from shared.catalog import Catalog
from shared.models import DomainOutput
from tests.dialogue.conftest import FakeDomains
from tests.dialogue.test_graph import Conversation


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return Catalog([blood_donation.service.manifest_with_lookups()])


@pytest.fixture(scope="module")
def adapter(catalog: Catalog) -> EmbeddedIntentAdapter:
    return EmbeddedIntentAdapter(catalog, use_embeddings=False)


@pytest.fixture
def chat(adapter: EmbeddedIntentAdapter, catalog: Catalog) -> Conversation:
    replies = {"donation_eligibility": lambda i: DomainOutput(status="success", explanation="Pode doar.")}
    return Conversation(adapter, catalog, FakeDomains(threshold=0.0, replies=replies))


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("I'm 20, can I give blood?", "what if I weigh 48 kg?"),
        ("tenho 20 anos, posso doar?", "e se eu pesar 48 kg?"),
    ],
)
async def test_what_if_adds_to_the_last_request(chat: Conversation, first: str, then: str) -> None:
    await chat.say(first)
    await chat.say(then)
    assert [c.capability for c in chat.domains.calls] == ["donation_eligibility", "donation_eligibility"]
    assert chat.domains.calls[-1].parameters == {"age": 20, "weight": 48}
