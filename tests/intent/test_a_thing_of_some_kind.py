"""Words that name no one thing: what a price is asked per ("por pessoa", "per person") is part
of the question, and a list asked for is all of them."""

from __future__ import annotations

import pytest

from intent.embedded import EmbeddedIntentAdapter

CONTEXT = {"now": "2026-03-10T09:00:00-03:00", "time_zone": "America/Sao_Paulo"}


@pytest.mark.parametrize(
    ("text", "room"),
    [
        # a stock's quote before: "por pessoa" was a word the room's price did not know
        ("qual o preço da tumba do faraó por pessoa?", "tumba do faraó"),
        ("quanto custa a tumba do faraó por cabeça?", "tumba do faraó"),
        ("how much per person for the haunted mansion?", "haunted mansion"),
    ],
)
def test_a_price_per_person(round18_beside_shipped: EmbeddedIntentAdapter, text: str, room: str) -> None:
    out = round18_beside_shipped.parse_sync(text, context=CONTEXT)
    assert out.goal == "ESCAPE_ROOM_INFO", out.notes
    assert out.entities == {"room_text": room}


@pytest.mark.parametrize("text", ["can you send me the list of your rooms?", "me passa a lista das salas"])
def test_a_list_is_no_name(round18_beside_shipped: EmbeddedIntentAdapter, text: str) -> None:
    out = round18_beside_shipped.parse_sync(text, context=CONTEXT)
    assert "room_text" not in out.entities, out


def test_a_room_by_its_name_is_still_read(round18_beside_shipped: EmbeddedIntentAdapter) -> None:
    out = round18_beside_shipped.parse_sync("reserva a tumba do faraó pra 6 na sexta às 21h", context=CONTEXT)
    assert out.goal == "BOOK_ESCAPE_ROOM", out.notes
    assert out.entities["room_text"] == "tumba do faraó"
