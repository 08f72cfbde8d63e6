"""A day and a time said to a goal that reads neither are words it does not account for: "faxina
quarta 13h" names a service a price and a visit both take, and a day and a time only the visit
reads, so the visit is asked for; a price asked with a day stays a price."""

from __future__ import annotations

import pytest

from bench.understanding.round4.domains import cinema, home_services, library
from intent.embedded import EmbeddedIntentAdapter
from tests.intent.conftest import beside_the_shipped

CONTEXT = {"now": "2026-03-10T10:00:00-03:00", "time_zone": "America/Sao_Paulo"}


@pytest.fixture(scope="module")
def adapter() -> EmbeddedIntentAdapter:
    return beside_the_shipped(cinema, home_services, library)


def test_the_visit_reads_the_day_and_the_time(adapter: EmbeddedIntentAdapter) -> None:
    read = adapter.parse_sync("faxina quarta 13h", context=CONTEXT)
    assert read.goal == "SCHEDULE_VISIT", read.notes
    assert read.entities == {"service": "CLEANING", "day": "2026-03-11", "time": "13:00"}


def test_a_price_asked_for_a_day_stays_a_price(adapter: EmbeddedIntentAdapter) -> None:
    read = adapter.parse_sync("quanto custa uma faxina amanhã?", context=CONTEXT)
    assert read.goal == "PRICE_QUOTE", read.notes


def test_a_price_leaves_the_day_unexplained(adapter: EmbeddedIntentAdapter) -> None:
    extractor = adapter.model.extractors[("home_services", "PRICE_QUOTE")]  # type: ignore[union-attr]
    text = "faxina quarta 13h"
    assert extractor.unexplained_words(text, extractor.extract(text, language="pt")) == ["quarta", "13h"]


@pytest.mark.parametrize("text", ["renova o dom casmurro", "da pra esticar o prazo do dom casmurro?"])
def test_a_day_word_inside_a_known_title_stays_the_title(adapter: EmbeddedIntentAdapter, text: str) -> None:
    """ "dom" reads as a Sunday to the recogniser; inside "Dom Casmurro" it is the book's word."""
    read = adapter.parse_sync(text, context=CONTEXT)
    assert (read.goal, read.entities) == ("RENEW_LOAN", {"book_text": "dom casmurro"}), read.notes


def test_a_count_in_words_is_the_goals_own(adapter: EmbeddedIntentAdapter) -> None:
    """A goal that reads a day still accounts for every value it reads, "dois" among them."""
    extractor = adapter.model.extractors[("cinema", "BUY_TICKETS")]  # type: ignore[union-attr]
    text = "compra dois pro dunaa amanha"
    assert extractor.unexplained_words(text, extractor.extract(text, language="pt")) == []
