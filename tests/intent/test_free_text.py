"""Free-text entities (a message, an idea): the words after the goal's cue, never a guess."""

from __future__ import annotations

import pytest

from domains.notifier.service import SEND_MESSAGE
from intent.entities import GoalEntityExtractor
from shared.manifest import Goal


@pytest.fixture(scope="module")
def extractor() -> GoalEntityExtractor:
    return GoalEntityExtractor(Goal.model_validate(SEND_MESSAGE))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("manda no telegram: reunião às 15h", "reunião às 15h"),
        ("envie no telegram: reunião às 15h", "reunião às 15h"),
        ("avisa no telegram que o pedido chegou", "o pedido chegou"),
        ("send a telegram message saying the meeting is at 3pm", "the meeting is at 3pm"),
        ("telegram me: buy milk", "buy milk"),
    ],
)
def test_the_message_is_what_follows_the_cue(extractor: GoalEntityExtractor, text: str, message: str) -> None:
    assert extractor.extract(text) == {"message": message}


@pytest.mark.parametrize(
    "text", ["manda isso no telegram", "send it to my telegram", "me avisa no telegram quanto tá a weg"]
)
def test_no_cue_no_message(extractor: GoalEntityExtractor, text: str) -> None:
    # what to send was not said: the platform asks (or sends the last answer), never guesses
    assert "message" not in extractor.extract(text)
