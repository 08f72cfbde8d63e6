"""Values that name a goal the classifier is unsure of: a film and a day with "when" ("when is
moana on thursday") are a listing of the film's sessions; a goal that only reads, asked of a name
no table lists and of nothing else, is answered without a yes first ("kroger quote pls"), unless
the name is part of another goal's value ("is the little prince in stock"); and a name from
another goal's table is that goal's object ("amzn price rn" is no course's price)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.understanding.round7.domains import courses, repairs, tickets
from bench.understanding.round8.domains import bank_cards, laundry, real_estate
from intent.embedded import CLEAR_REQUEST_CONFIDENCE, EmbeddedIntentAdapter
from intent.typed import Clock
from tests.intent.conftest import as_a_gateway_reads

CONTEXT = {"now": "2026-03-10T10:00:00-03:00", "time_zone": "America/Sao_Paulo"}


@pytest.fixture(scope="module")
def cinemas(round4_beside_shipped: EmbeddedIntentAdapter) -> EmbeddedIntentAdapter:
    return round4_beside_shipped


def test_a_film_and_a_day_ask_for_its_sessions(cinemas: EmbeddedIntentAdapter) -> None:
    """ "when" is a function word, as "what" and "how" are: no word the goal does not know."""
    read = cinemas.parse_sync("when is moana on thursday", context=CONTEXT)
    assert read.goal == "LIST_SESSIONS", read.notes
    assert read.entities == {"movie_text": "moana", "day": "2026-03-12"}


def test_a_word_of_another_language_is_no_day(cinemas: EmbeddedIntentAdapter) -> None:
    """ "inside out" tells no language; Portuguese reads "out" as October, and English does not."""
    sessions = cinemas.model.extractors[("cinema", "LIST_SESSIONS")] if cinemas.model else None
    assert sessions is not None
    clock = Clock.of(CONTEXT)
    assert "day" not in sessions.extract("inside out", clock=clock, language="en")
    assert sessions.extract("moana 14/03", clock=clock, language="en").get("day") == "2026-03-14"


def test_a_name_inside_another_goal_s_value_is_no_new_company(cinemas: EmbeddedIntentAdapter) -> None:
    read = cinemas.parse_sync("is the little prince in stock", context=CONTEXT)
    assert not (read.goal == "GET_QUOTE" and read.confidence >= CLEAR_REQUEST_CONFIDENCE), read.notes
    # the part of a title is no company: never a quote of "little"
    assert read.entities.get("symbol_text") is None, read.entities


@pytest.fixture(scope="module")
def errands(round6_beside_shipped: EmbeddedIntentAdapter) -> EmbeddedIntentAdapter:
    return round6_beside_shipped


@pytest.mark.parametrize("text", ["kroger quote pls", "how's walmart trading today"])
def test_a_quote_of_a_name_no_table_lists_is_no_question(errands: EmbeddedIntentAdapter, text: str) -> None:
    read = errands.parse_sync(text, context=CONTEXT)
    assert read.goal == "GET_QUOTE", read.notes
    assert read.confidence >= CLEAR_REQUEST_CONFIDENCE, read.notes


def test_a_ticker_of_the_companies_table_is_a_quote_beside_courses(tmp_path: Path) -> None:
    adapter = as_a_gateway_reads(tmp_path, courses, repairs, tickets)
    read = adapter.parse_sync("amzn price rn", context=CONTEXT)
    assert (read.goal, read.entities) == ("GET_QUOTE", {"symbol_text": "amzn"}), read.notes


def test_a_verb_the_goal_does_not_do_is_no_clear_request(tmp_path: Path) -> None:
    """ "pay my credit card bill": a statement's card, and a payment no goal makes; not answered
    as the statement without a question first."""
    adapter = as_a_gateway_reads(tmp_path, bank_cards, laundry, real_estate)
    read = adapter.parse_sync("pay my credit card bill", context=CONTEXT)
    assert not (read.goal == "CARD_STATEMENT" and read.confidence >= CLEAR_REQUEST_CONFIDENCE), read.notes
    statement = adapter.parse_sync("black card statement for december", context=CONTEXT)
    assert (statement.goal, statement.confidence >= CLEAR_REQUEST_CONFIDENCE) == ("CARD_STATEMENT", True)


def test_a_value_alone_between_a_booking_and_its_price_asks_the_price(cinemas: EmbeddedIntentAdapter) -> None:
    """ "painting": a service both the visit's booking and its price read, and nothing else; the
    price only reads, and costs nothing."""
    read = cinemas.parse_sync("painting", context=CONTEXT)
    assert read.goal == "PRICE_QUOTE", read.notes
    assert read.entities == {"service": "PAINTING"}
    booked = cinemas.parse_sync("book a painting visit for friday at 10am", context=CONTEXT)
    assert booked.goal == "SCHEDULE_VISIT", booked.notes
