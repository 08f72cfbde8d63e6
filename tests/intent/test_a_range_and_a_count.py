"""A range of days said with a count of them: the count after the last day says nothing of which
day starts the leave ("férias de 20 a 30 de abril, 9 dias" starts on the 20th)."""

from __future__ import annotations

import pytest

from bench.understanding.round6.domains import time_off
from intent.embedded import EmbeddedIntentAdapter
from shared.catalog import Catalog

CONTEXT = {"now": "2026-03-10T10:00:00-03:00", "time_zone": "America/Sao_Paulo"}


@pytest.fixture(scope="module")
def adapter() -> EmbeddedIntentAdapter:
    return EmbeddedIntentAdapter(Catalog([time_off.service.manifest_with_lookups()]), use_embeddings=False)


@pytest.mark.parametrize(
    ("text", "start", "end", "days"),
    [
        ("férias de 20 a 30 de abril, 9 dias", "2026-04-20", "2026-04-30", 9),
        ("vacation from April 6 to April 10, 5 days", "2026-04-06", "2026-04-10", 5),
        ("férias de 20 a 30 de abril", "2026-04-20", "2026-04-30", None),
    ],
)
def test_the_first_day_starts_it(
    adapter: EmbeddedIntentAdapter, text: str, start: str, end: str, days: int | None
) -> None:
    read = adapter.parse_sync(text, context=CONTEXT)
    assert read.goal == "REQUEST_LEAVE", read.notes
    assert (read.entities.get("start"), read.entities.get("end_date"), read.entities.get("days")) == (
        start,
        end,
        days,
    )
