"""Advice asked of a domain is no request of its goals: "me indica uma pousada barata" names a
hotel's city and asks for an opinion a booking does not give. The goal's own verb keeps it ("reserva
o melhor hotel …"), and a goal that reads asks nothing of "the best": only an advice verb."""

from __future__ import annotations

import pytest

from bench.understanding.round4.domains import library
from bench.understanding.round5.domains import hotel, parcels, pet_care
from intent.embedded import EmbeddedIntentAdapter
from shared.catalog import Catalog
from tests.intent.conftest import as_a_gateway_reads

CONTEXT = {"now": "2026-03-10T10:00:00-03:00"}


@pytest.fixture(scope="module")
def adapter() -> EmbeddedIntentAdapter:
    manifests = [hotel.service.manifest_with_lookups(), library.service.manifest_with_lookups()]
    return EmbeddedIntentAdapter(Catalog(manifests), use_embeddings=False)


@pytest.mark.parametrize(
    "text",
    [
        "me indica uma pousada barata em Salvador",
        "recommend a cheap hostel in salvador",
        "what's the best hotel in rio?",
        "me recomenda um livro parecido com o alquimista",  # a goal that reads: the verb says it
        "me ensina a reservar um hotel barato em Salvador",  # how to do it, not to have it done
        "teach me how to book a cheap hotel in rio",
    ],
)
def test_advice_is_out_of_scope(adapter: EmbeddedIntentAdapter, text: str) -> None:
    read = adapter.parse_sync(text, context=CONTEXT)
    assert read.goal is None, (read.goal, read.entities, read.notes)


@pytest.mark.parametrize(
    ("text", "goal"),
    [
        ("reserva o melhor hotel de gramado pra sexta, 2 noites", "BOOK_STAY"),
        ("book a hotel in rio for friday, 2 nights", "BOOK_STAY"),
    ],
)
def test_the_goals_own_verb_is_a_request(adapter: EmbeddedIntentAdapter, text: str, goal: str) -> None:
    read = adapter.parse_sync(text, context=CONTEXT)
    assert read.goal == goal, read.notes


@pytest.fixture(scope="module")
def beside_the_shipped(tmp_path_factory: pytest.TempPathFactory) -> EmbeddedIntentAdapter:
    return as_a_gateway_reads(tmp_path_factory.mktemp("stays"), hotel, parcels, pet_care)


def test_a_list_of_my_bookings_says_no_hotel_is_best(beside_the_shipped: EmbeddedIntentAdapter) -> None:
    """The list of the person's own bookings, which reads a city as the booking does, took the
    message over from the booking: the booking's advice rule still says it asks an opinion."""
    read = beside_the_shipped.parse_sync("what's the best hotel in rio?", context=CONTEXT)
    assert read.goal is None, (read.goal, read.entities, read.notes)
    mine = beside_the_shipped.parse_sync("show my bookings in rio", context=CONTEXT)
    assert mine.goal == "LIST_BOOKINGS", mine.notes
