"""A goal whose values the message names is not dropped for one it lacks: "agenda adestramento pro
Thor sábado 10h" names a pet of the table, a day and a time, and the service is asked; and of two
goals too close to tell apart, the one that reads every value it requires beats one that reads
nothing ("tosa qto sai?" names a service a price takes, no company a quote needs)."""

from __future__ import annotations

import pytest

from bench.understanding.round5.domains import hotel, parcels, pet_care
from domains.finance.service import build_service as finance
from domains.general.service import build_service as general
from intent.base import CHOICE_NOTE
from intent.embedded import EmbeddedIntentAdapter
from shared.catalog import Catalog

CONTEXT = {"now": "2026-03-10T10:00:00-03:00", "time_zone": "America/Sao_Paulo"}


@pytest.fixture(scope="module")
def adapter() -> EmbeddedIntentAdapter:
    manifests = [pet_care.service.manifest_with_lookups(), finance().manifest()]
    return EmbeddedIntentAdapter(Catalog(manifests), use_embeddings=False)


@pytest.fixture(scope="module")
def with_encoder() -> EmbeddedIntentAdapter:
    """As a gateway with round 5's domains reads: the classifier is unsure of these (under the
    out-of-scope threshold), and the values the message names keep the goal."""
    manifests = [
        *(m.service.manifest_with_lookups() for m in (pet_care, hotel, parcels)),
        finance().manifest(),
        general().manifest(),
    ]
    return EmbeddedIntentAdapter(Catalog(manifests))


@pytest.mark.parametrize(
    "text",
    ["agenda adestramento pro Thor sabado 10h", "book dog training for Thor saturday 10am"],
)
@pytest.mark.parametrize("reader", ["adapter", "with_encoder"])
def test_a_service_it_lacks_is_asked(request: pytest.FixtureRequest, reader: str, text: str) -> None:
    read = request.getfixturevalue(reader).parse_sync(text, context=CONTEXT)
    assert read.goal == "BOOK_PET_SERVICE", read.notes
    assert read.entities == {"pet_text": "Thor", "day": "2026-03-14", "time": "10:00"}


@pytest.mark.parametrize("text", ["compra ração pro Thor", "order dog food for Thor"])
def test_another_thing_for_a_value_of_its_table_is_not(adapter: EmbeddedIntentAdapter, text: str) -> None:
    read = adapter.parse_sync(text, context=CONTEXT)
    assert read.goal is None, (read.goal, read.entities, read.notes)


def test_the_goal_that_reads_its_values_wins_a_tie(adapter: EmbeddedIntentAdapter) -> None:
    read = adapter.parse_sync("tosa qto sai?", context=CONTEXT)
    assert (read.goal, read.entities) == ("PET_SERVICE_PRICE", {"service": "GROOMING"}), read.notes
    assert not any(note.startswith(CHOICE_NOTE) for note in read.notes), read.notes  # no "A or B?"
