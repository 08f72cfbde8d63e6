"""A clear request told inside a story is answered: its goal reads every value it needs with
evidence, and a goal of free text (an idea) that takes the words left over is no choice to offer.
An idea with its lead-in is still an idea."""

from __future__ import annotations

from intent.base import CHOICE_NOTE
from intent.embedded import CLEAR_REQUEST_CONFIDENCE, EmbeddedIntentAdapter

CONTEXT = {"now": "2026-03-10T09:00:00-03:00", "time_zone": "America/Sao_Paulo"}

STORY = (
    "Hi there! My daughter has been begging to learn the violin for months, so I'd love to book "
    "her a first lesson this saturday at 11am if you still have a slot. Thanks a lot!"
)


def test_the_request_in_the_story_is_read(round16_beside_shipped: EmbeddedIntentAdapter) -> None:
    out = round16_beside_shipped.parse_sync(STORY, context=CONTEXT)
    assert out.goal == "BOOK_MUSIC_LESSON", out.notes
    assert out.entities == {"instrument": "VIOLIN", "day": "2026-03-14", "time": "11:00"}
    assert out.confidence >= CLEAR_REQUEST_CONFIDENCE
    assert not any(note.startswith(CHOICE_NOTE) for note in out.notes)


def test_an_idea_with_its_lead_in_stays_an_idea(round16_beside_shipped: EmbeddedIntentAdapter) -> None:
    out = round16_beside_shipped.parse_sync(
        "I have an idea: an app that books violin teachers on saturday", context=CONTEXT
    )
    assert out.goal == "RESEARCH_HYPOTHESIS", out.notes
