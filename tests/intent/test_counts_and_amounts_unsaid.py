"""A count's noun and an amount whose currency is unsaid: "6 peças" counts pieces and names no
item; "apartamento até 3 mil" is a rent, not three thousand bedrooms; "R$ 6,000" in English is
six thousand reais; "under 2000 reais" is in reais; an amount with no currency said has none
(never Duckling's "unknown")."""

from __future__ import annotations

from datetime import datetime
from types import ModuleType
from zoneinfo import ZoneInfo

import pytest

from bench.understanding.round8.domains import laundry, real_estate
from intent.embedded import entity_extractor
from intent.entities import GoalEntityExtractor
from intent.typed import RECOGNIZER, Clock
from shared.catalog import Catalog

ZONE = "America/Sao_Paulo"
NOW = datetime(2026, 3, 10, 10, 0, tzinfo=ZoneInfo(ZONE))
CLOCK = Clock(now=NOW, time_zone=ZONE)


def _extractor(module: ModuleType, goal: str) -> GoalEntityExtractor:
    catalog = Catalog([module.service.manifest_with_lookups()])
    ref = next(ref for ref in catalog.goals() if ref.goal.goal == goal)
    return entity_extractor(ref, catalog)


@pytest.mark.parametrize(
    ("text", "language", "money"),
    [
        ("ideally below R$ 6,000? Thanks", "en", {"amount": 6000, "currency": "BRL"}),
        ("refund R$ 25.50 please", "en", {"amount": 25.5, "currency": "BRL"}),
        ("any studios under 2000 reais?", "en", {"amount": 2000, "currency": "BRL"}),
        ("anything under 3k", "en", {"amount": 3000, "currency": None}),
        ("até R$ 3.500", "pt", {"amount": 3500, "currency": "BRL"}),
    ],
)
def test_amounts_read_as_the_message_writes_them(text: str, language: str, money: dict[str, object]) -> None:
    spans = RECOGNIZER.spans(text, language, time_zone=ZONE, now=NOW)
    assert [s.value for s in spans if s.type == "money"] == [money]


@pytest.fixture(scope="module")
def pickup() -> GoalEntityExtractor:
    return _extractor(laundry, "SCHEDULE_PICKUP")


@pytest.mark.parametrize(
    "text",
    ["agenda coleta de 6 peças pra lavar quinta de manhã", "pickup of 6 pieces for washing friday morning"],
)
def test_the_noun_of_a_count_is_no_item(pickup: GoalEntityExtractor, text: str) -> None:
    found = pickup.extract(text, clock=CLOCK)
    assert found["pieces"] == 6
    assert "item_text" not in found


def test_an_item_after_a_count_is_still_read(pickup: GoalEntityExtractor) -> None:
    found = pickup.extract("busca 3 ternos pra lavagem a seco na sexta às 14h", clock=CLOCK)
    assert (found["pieces"], found["item_text"]) == (3, "ternos")


@pytest.fixture(scope="module")
def listings() -> GoalEntityExtractor:
    return _extractor(real_estate, "SEARCH_LISTINGS")


def test_a_bare_amount_is_the_rent_not_the_bedrooms(listings: GoalEntityExtractor) -> None:
    found = listings.extract("apartamento em perdizes até 3 mil", clock=CLOCK)
    assert found.get("max_rent") == {"amount": 3000, "currency": None}
    assert "bedrooms" not in found


def test_a_count_of_bedrooms_beside_an_amount_keeps_both(listings: GoalEntityExtractor) -> None:
    found = listings.extract("apartamento de 3 quartos em perdizes até 3 mil", clock=CLOCK)
    assert (found.get("bedrooms"), found.get("max_rent")) == (3, {"amount": 3000, "currency": None})
