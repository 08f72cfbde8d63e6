"""What a lookup table and an enum name, beside days and codes: a month an enum lists is read
though it is a day's word too ("a fatura de fevereiro"); a word the names of several entries
share ("card", "cartão") names none of them; a value of the table as written is no typo of a
phrasing word ("black" is a card, not "block"); and the digits of a code are no year ("visita no
IM2055 quinta às 16h" is a Thursday at 16:00)."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from bench.understanding.round6.domains import rides
from bench.understanding.round8.domains import bank_cards, real_estate
from intent.embedded import entity_extractor
from intent.entities import GoalEntityExtractor
from intent.typed import Clock
from shared.catalog import Catalog

ZONE = "America/Sao_Paulo"
CLOCK = Clock(now=datetime(2026, 3, 10, 10, 0, tzinfo=ZoneInfo(ZONE)), time_zone=ZONE)


@pytest.fixture(scope="module")
def cards() -> Catalog:
    return Catalog([bank_cards.service.manifest_with_lookups()])


def _goal(catalog: Catalog, goal: str) -> GoalEntityExtractor:
    ref = next(ref for ref in catalog.goals() if ref.goal.goal == goal)
    return entity_extractor(ref, catalog)


@pytest.mark.parametrize(
    ("text", "month"),
    [
        ("quanto veio a fatura de fevereiro?", "FEBRUARY"),
        ("black card statement for december", "DECEMBER"),
        ("what did i spend on my debit card in march", "MARCH"),
    ],
)
def test_a_month_of_the_enum_is_read(cards: Catalog, text: str, month: str) -> None:
    assert _goal(cards, "CARD_STATEMENT").extract(text, clock=CLOCK).get("month") == month


@pytest.mark.parametrize("text", ["card statement", "my card statement", "bloqueia meu cartão"])
def test_a_word_several_names_share_names_no_card(cards: Catalog, text: str) -> None:
    goal = "CARD_STATEMENT" if "statement" in text else "BLOCK_CARD"
    assert "card_text" not in _goal(cards, goal).extract(text, clock=CLOCK)


def test_a_name_made_of_shared_words_is_still_a_name() -> None:
    """ "my place" is a name of one place, though "my" and "place" are words of two places."""
    catalog = Catalog([rides.service.manifest_with_lookups()])
    found = _goal(catalog, "BOOK_RIDE").extract(
        "could you schedule a car from my place to Guarulhos at 4:30am?", clock=CLOCK
    )
    assert (found.get("pickup_text"), found.get("dropoff_text")) == ("my place", "Guarulhos")


def test_a_card_is_no_typo_of_the_verb(cards: Catalog) -> None:
    found = _goal(cards, "BLOCK_CARD").extract("roubaram meu black agora, bloqueia urgente", clock=CLOCK)
    assert (found.get("card_text"), found.get("reason")) == ("black", "STOLEN")


def test_the_digits_of_a_code_are_no_year() -> None:
    catalog = Catalog([real_estate.service.manifest_with_lookups()])
    found = _goal(catalog, "SCHEDULE_VISIT").extract("agenda visita no IM2055 quinta às 16h", clock=CLOCK)
    assert found == {"listing_code_text": "IM2055", "day": "2026-03-12", "time": "16:00"}


def test_a_time_written_with_its_minutes_keeps_them() -> None:
    catalog = Catalog([real_estate.service.manifest_with_lookups()])
    found = _goal(catalog, "SCHEDULE_VISIT").extract("visita no IM2055 quinta às 7h30", clock=CLOCK)
    assert found.get("time") == "07:30"
