"""A table's value of one word that the goal's description also says ("Book a *desk* or a
room") is a value when a message says it, not how the goal is asked for: the examples never
use it as phrasing."""

from __future__ import annotations

import pytest

from intent.embedded import EmbeddedIntentAdapter

CONTEXT = {"now": "2026-03-10T10:00:00-03:00", "time_zone": "America/Sao_Paulo"}


@pytest.mark.parametrize(
    ("text", "space"),
    [
        ("book a desk for today at 1pm for 2 hours", "desk"),
        ("quero reservar uma mesa amanhã 10h por 2h", "mesa"),
    ],
)
def test_the_description_word_is_the_value(
    round11_beside_shipped: EmbeddedIntentAdapter, text: str, space: str
) -> None:
    read = round11_beside_shipped.parse_sync(text, context=CONTEXT)
    assert (read.goal, read.entities.get("space_text")) == ("BOOK_SPACE", space), read.notes
