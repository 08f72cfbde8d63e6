"""A goal of the same domain that reads every value the first goal read, and a day besides, is
the request even when both leave the same words unknown: "teve um incendio na cozinha dia 12,
apolice SG3307" files a claim, it does not ask what the policy covers. A day said from today
("esse ano") decides nothing: "quanto de folga me resta esse ano?" asks the balance."""

from __future__ import annotations

import pytest

from intent.embedded import EmbeddedIntentAdapter

CONTEXT = {"time_zone": "America/Sao_Paulo", "now": "2026-03-10T10:00:00-03:00"}


@pytest.fixture(scope="module")
def round10(round10_beside_shipped: EmbeddedIntentAdapter) -> EmbeddedIntentAdapter:
    return round10_beside_shipped


@pytest.fixture(scope="module")
def round6(round6_beside_shipped: EmbeddedIntentAdapter) -> EmbeddedIntentAdapter:
    return round6_beside_shipped


def test_the_sibling_that_reads_the_day_too_is_the_request(round10: EmbeddedIntentAdapter) -> None:
    out = round10.parse_sync("teve um incendio na cozinha dia 12, apolice SG3307", context=CONTEXT)
    assert (out.goal, out.entities.get("incident_day")) == ("FILE_CLAIM", "2026-03-12")


def test_a_day_said_from_today_decides_nothing(round6: EmbeddedIntentAdapter) -> None:
    out = round6.parse_sync("quanto de folga me resta esse ano?", context=CONTEXT)
    assert out.goal == "LEAVE_BALANCE"


@pytest.mark.parametrize(
    ("text", "goal"),
    [
        # every word known to the price too: the day it has no place for says the rental
        ("large unit tomorrow for 1 month", "RENT_UNIT"),
        # a price asked, with a day or without, stays a price
        ("preço do box grande amanhã por 1 mês", "STORAGE_PRICE"),
        ("how much is a large unit for 1 month?", "STORAGE_PRICE"),
    ],
)
def test_a_day_only_the_sibling_reads(
    round14_beside_shipped: EmbeddedIntentAdapter, text: str, goal: str
) -> None:
    out = round14_beside_shipped.parse_sync(text, context=CONTEXT)
    assert (out.goal, out.entities.get("unit_size"), out.entities.get("months")) == (goal, "LARGE", 1), (
        out.notes
    )
