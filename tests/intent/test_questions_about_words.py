"""A question about words (what something means, how it is said in another language) is no
request of a goal whose values it names: no session to book, no tour, no price."""

from __future__ import annotations

import pytest

from intent.embedded import EmbeddedIntentAdapter

CONTEXT = {"now": "2026-03-10T09:00:00-03:00", "time_zone": "America/Sao_Paulo"}


@pytest.mark.parametrize(
    "text",
    [
        "what does a dragon tattoo mean?",
        "o que significa uma tatuagem de lótus?",
        "how do you say guided tour in portuguese?",
        "como se escreve meia-entrada em inglês?",
    ],
)
def test_a_question_about_words_is_out_of_scope(
    round17_beside_shipped: EmbeddedIntentAdapter, text: str
) -> None:
    out = round17_beside_shipped.parse_sync(text, context=CONTEXT)
    assert out.goal is None, (out.goal, out.notes)


def test_a_request_that_names_the_same_things_is_read(round17_beside_shipped: EmbeddedIntentAdapter) -> None:
    out = round17_beside_shipped.parse_sync(
        "book a dragon tattoo with Diego on thursday at 4pm", context=CONTEXT
    )
    assert out.goal == "BOOK_TATTOO_SESSION", out.notes
