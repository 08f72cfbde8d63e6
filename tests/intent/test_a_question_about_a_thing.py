"""A question about one of a domain's things, named from its table, is asked of the goal that
only reads it, however far down the classifier put that goal; a question about what the person
has, asked anywhere in the message, reads their records."""

from __future__ import annotations

import pytest

from intent.embedded import EmbeddedIntentAdapter

CONTEXT = {"now": "2026-03-10T09:00:00-03:00", "time_zone": "America/Sao_Paulo"}


@pytest.mark.parametrize(
    "text",
    [
        "quantos jogadores cabem no laboratório zumbi?",
        "how many players does the haunted mansion take?",
        "o laboratório zumbi é assustador?",
        "is the bank heist room hard?",
    ],
)
def test_a_question_about_a_room_is_the_rooms_details(
    round18_beside_shipped: EmbeddedIntentAdapter, text: str
) -> None:
    out = round18_beside_shipped.parse_sync(text, context=CONTEXT)
    assert out.goal == "ESCAPE_ROOM_INFO", out.notes


def test_a_booking_asked_as_a_question_stays_the_booking(
    round18_beside_shipped: EmbeddedIntentAdapter,
) -> None:
    out = round18_beside_shipped.parse_sync(
        "can you book the haunted mansion for 4 on saturday at 6pm?", context=CONTEXT
    )
    assert out.goal == "BOOK_ESCAPE_ROOM", out.notes


@pytest.mark.parametrize(
    "text",
    ["could you check on my translation order for me?", "queria saber como está o meu pedido de tradução"],
)
def test_asking_after_an_order_reads_it(round18_beside_shipped: EmbeddedIntentAdapter, text: str) -> None:
    out = round18_beside_shipped.parse_sync(text, context=CONTEXT)
    assert out.goal == "TRANSLATION_ORDER_STATUS", out.notes


@pytest.mark.parametrize(
    "text",
    ["já levaram o colchão da rua augusta 900?", "did you take the couch from 40 Pine Road yet?"],
)
def test_asking_what_was_done_reads_it(round19_beside_shipped: EmbeddedIntentAdapter, text: str) -> None:
    out = round19_beside_shipped.parse_sync(text, context=CONTEXT)
    assert out.goal == "PICKUP_STATUS", out.notes
