"""The two places of a trip, from one table of places: a day or a time said after a place is no
part of its name, a verb says which place is which ("me busca no aeroporto", "drop me home"), a
second place of the table goes to the role the first left free, and of a price and a booking
that both read the places, the booking reads the day, the time and the party too."""

from __future__ import annotations

import pytest

from bench.understanding.round6.domains import groceries, rides, time_off
from intent.embedded import EmbeddedIntentAdapter
from tests.intent.conftest import beside_the_shipped

CONTEXT = {"now": "2026-03-10T10:00:00-03:00", "time_zone": "America/Sao_Paulo"}


@pytest.fixture(scope="module")
def adapter() -> EmbeddedIntentAdapter:
    return beside_the_shipped(rides, groceries, time_off)


@pytest.mark.parametrize(
    ("text", "places"),
    [
        ("me busca no aeroporto de guarulhos amanha 23h e leva pra casa", ("aeroporto de guarulhos", "casa")),
        ("pick me up at the airport tomorrow at 11pm and drop me home", ("the airport", "home")),
    ],
)
def test_a_verb_says_which_place_is_which(
    adapter: EmbeddedIntentAdapter, text: str, places: tuple[str, str]
) -> None:
    read = adapter.parse_sync(text, context=CONTEXT)
    assert read.goal == "BOOK_RIDE", read.notes
    assert (read.entities.get("pickup_text"), read.entities.get("dropoff_text")) == places, read.entities
    assert (read.entities.get("day"), read.entities.get("time")) == ("2026-03-11", "23:00")


def test_a_day_and_a_time_are_no_part_of_a_place(adapter: EmbeddedIntentAdapter) -> None:
    """A price reads no day: "quinta 14h" after the place is left out of the place's name."""
    extractor = adapter.model.extractors[("rides", "RIDE_ESTIMATE")]  # type: ignore[union-attr]
    found = extractor.extract("corrida de casa pra congonhas quinta 14h", language="pt")
    assert found == {"pickup_text": "casa", "dropoff_text": "congonhas"}


@pytest.mark.parametrize(
    "text",
    [
        "corrida de casa pra congonhas quinta 14h pra 3 pessoas",
        "ride from home to congonhas thursday 2pm for 3 passengers",
    ],
)
def test_the_goal_that_reads_the_rest_of_the_message_is_chosen(
    adapter: EmbeddedIntentAdapter, text: str
) -> None:
    read = adapter.parse_sync(text, context=CONTEXT)
    assert read.goal == "BOOK_RIDE", read.notes
    assert read.entities == {
        "pickup_text": text.split()[2],
        "dropoff_text": "congonhas",
        "day": "2026-03-12",
        "time": "14:00",
        "passengers": 3,
    }


@pytest.mark.parametrize(
    "text", ["quanto fica uma corrida de casa pra congonhas?", "how much is a ride from home to congonhas?"]
)
def test_a_price_alone_stays_a_price(adapter: EmbeddedIntentAdapter, text: str) -> None:
    read = adapter.parse_sync(text, context=CONTEXT)
    assert read.goal == "RIDE_ESTIMATE", read.notes
