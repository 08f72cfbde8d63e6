"""A month's short name that is also an everyday word is no month on its own: "dez ingressos" are
ten tickets, "passeio no mar" is the sea; beside a day or a year it is still the month."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from intent.embedded import EmbeddedIntentAdapter
from intent.typed import RECOGNIZER

ZONE = "America/Sao_Paulo"
NOW = datetime(2026, 3, 10, 9, tzinfo=ZoneInfo(ZONE))
CONTEXT = {"now": NOW.isoformat(), "time_zone": ZONE}


def _read(text: str) -> list[tuple[str, object]]:
    return [(s.type, s.value) for s in RECOGNIZER.spans(text, "pt", time_zone=ZONE, now=NOW)]


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("mesa para dez pessoas", [("number", 10)]),
        ("uns dez cm", [("number", 10)]),
        ("passeio de barco no mar", []),
        ("um set de 3 aulas", [("number", 3)]),
    ],
)
def test_a_short_month_alone_is_the_everyday_word(text: str, read: list[tuple[str, object]]) -> None:
    assert _read(text) == read


@pytest.mark.parametrize(
    ("text", "day"),
    [("10 de dez", "2026-12-10"), ("dia 3 de abr", "2026-04-03"), ("dez 2026", "2026-12-01")],
)
def test_beside_a_day_or_a_year_it_is_the_month(text: str, day: str) -> None:
    assert _read(text) == [("date", day)]


def test_ten_tickets_are_no_day_of_december(round17_beside_shipped: EmbeddedIntentAdapter) -> None:
    out = round17_beside_shipped.parse_sync("quero dez ingressos pro museu no sábado", context=CONTEXT)
    assert out.goal == "BUY_MUSEUM_TICKETS", out.notes
    assert out.entities == {"tickets": 10, "visit_day": "2026-03-14"}


def test_ten_centimetres_is_the_size(round17_beside_shipped: EmbeddedIntentAdapter) -> None:
    out = round17_beside_shipped.parse_sync("quanto fica uma tattoo de dez centímetros?", context=CONTEXT)
    assert out.goal == "TATTOO_QUOTE", out.notes
    assert out.entities == {"size_cm": 10}
