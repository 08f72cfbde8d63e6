"""Greetings and thanks around a request: the request decides the goal, even where the polite
words outweigh it in the whole message ("Hi there, hope you're doing well. Could you please tell
me how Microsoft's stock is doing today? Thanks a lot!" was answered with a greeting)."""

from __future__ import annotations

import pytest

from intent.embedded import EmbeddedIntentAdapter


@pytest.mark.parametrize(
    "text",
    [
        "Olá, bom dia, tudo bem? Vai chover em Natal? Muito obrigado, boa noite!",
        "Good morning, hope you are well! Will it rain in Porto? Thanks so much, have a nice day.",
    ],
)
def test_greetings_around_a_request_do_not_make_it_small_talk(
    adapter: EmbeddedIntentAdapter, text: str
) -> None:
    out = adapter.parse_sync(text)
    assert out.goal == "GET_FORECAST", out
    assert out.entities["city_text"]


def test_greetings_alone_are_still_greetings(adapter: EmbeddedIntentAdapter) -> None:
    assert adapter.parse_sync("Olá, bom dia, tudo bem? Muito obrigado, boa noite!").goal == "GREET"


def test_a_sentence_of_politeness_alone_keeps_its_goal(adapter: EmbeddedIntentAdapter) -> None:
    out = adapter.parse_sync("Oi! Tudo bem? Bom dia.")
    assert out.goal == "GREET", out
