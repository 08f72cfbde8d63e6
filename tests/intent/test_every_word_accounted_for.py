"""A request the classifier is unsure of, well under the out-of-scope threshold, is still read
when every word of it is the first goal's phrasing, a value it reads with evidence or a function
word, every required value said, and the runner-up leaves some words unexplained; a request with
a word the goal does not know stays out of scope."""

from __future__ import annotations

import pytest

from intent.embedded import EmbeddedIntentAdapter

CONTEXT = {"now": "2026-03-10T10:00:00-03:00", "time_zone": "America/Sao_Paulo"}


@pytest.mark.parametrize(
    ("text", "session"),
    [
        ("yo can i get headshots tmrw 3pm", "HEADSHOT"),
        ("can I get a portrait session tomorrow at 10am?", "PORTRAIT"),
    ],
)
def test_a_request_in_the_goals_own_words_is_read(
    round14_beside_shipped: EmbeddedIntentAdapter, text: str, session: str
) -> None:
    out = round14_beside_shipped.parse_sync(text, context=CONTEXT)
    assert (out.goal, out.entities.get("session_type")) == ("BOOK_SESSION", session), out.notes
    assert out.entities.get("day") == "2026-03-11"


def test_a_word_the_goal_does_not_know_keeps_it_out(round14_beside_shipped: EmbeddedIntentAdapter) -> None:
    out = round14_beside_shipped.parse_sync("can I get a tattoo tomorrow at 10am?", context=CONTEXT)
    assert out.goal is None, out.notes


def test_one_value_alone_overrules_nothing(round14_beside_shipped: EmbeddedIntentAdapter) -> None:
    """ "whats up" is the day's gainers in a market's words, and a greeting all the same."""
    out = round14_beside_shipped.parse_sync("yo whats up", context=CONTEXT)
    assert out.goal != "TOP_MOVERS", out.notes
