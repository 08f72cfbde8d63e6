"""Free-text entities (a message, an idea): the words after the goal's cue, never a guess."""

from __future__ import annotations

import pytest

from domains.finance.declarations import GET_QUOTE
from domains.notifier.service import SEND_MESSAGE
from domains.research.declarations import RESEARCH_HYPOTHESIS
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


@pytest.fixture(scope="module")
def research() -> GoalEntityExtractor:
    return GoalEntityExtractor(Goal.model_validate(RESEARCH_HYPOTHESIS))


@pytest.mark.parametrize(
    ("text", "idea"),
    [
        # the goal's own phrasing after the idea ends it, and is its cue
        (
            "does code review reduce production incidents? i wanna research that",
            "does code review reduce production incidents",
        ),
        (
            "I think standing desks reduce back pain in office workers",
            "standing desks reduce back pain in office workers",
        ),
        ("hipótese: reuniões curtas reduzem retrabalho", "reuniões curtas reduzem retrabalho"),
    ],
)
def test_an_idea_is_read_around_the_goals_phrasing(
    research: GoalEntityExtractor, text: str, idea: str
) -> None:
    found = research.extract(text)
    assert found["idea_text"] == idea
    assert research.evidenced(found)  # read after (or before) its cue: evidence of what it is


def test_a_closing_thanks_is_no_part_of_the_message(extractor: GoalEntityExtractor) -> None:
    assert extractor.extract("send a telegram message saying the meeting is at 3pm. thanks!") == {
        "message": "the meeting is at 3pm"
    }


def test_a_sentence_of_other_words_is_no_cue(research: GoalEntityExtractor) -> None:
    assert "idea_text" not in research.extract("the sky is blue. the grass is green")


def test_a_goals_switch_words_can_be_set_aside() -> None:
    quote = GoalEntityExtractor(Goal.model_validate(GET_QUOTE))
    assert quote.without_switches("me avisa no telegram quanto tá a weg") == "no quanto ta a weg"
    assert quote.without_switches("quanto tá a weg") is None


#: a made-up goal: a complaint whose text is free, with a severity
COMPLAINT = {
    "goal": "FILE_COMPLAINT",
    "description": {"pt": "Registrar uma reclamação", "en": "File a complaint"},
    "capabilities": ["file"],
    "entities_schema": {
        "complaint_text": {"type": "string", "required": True, "description": {"pt": "O quê", "en": "What"}},
        "severity": {
            "type": "enum",
            "values": ["MILD", "SERIOUS"],
            "synonyms": {"MILD": ["leve", "mild"], "SERIOUS": ["grave", "serious"]},
        },
    },
    "examples": [
        {
            "text": "registra uma reclamação: o ônibus não passou",
            "entities": {"complaint_text": "o ônibus não passou"},
        },
        {
            "text": "file a complaint: the bus never came",
            "entities": {"complaint_text": "the bus never came"},
        },
    ],
}


@pytest.fixture(scope="module")
def complaint() -> GoalEntityExtractor:
    return GoalEntityExtractor(Goal.model_validate(COMPLAINT))


@pytest.mark.parametrize(
    ("text", "value"),
    [
        # a comma closes the request's own words (a severity among them)
        ("reclamação grave, o motorista foi grosseiro", "o motorista foi grosseiro"),
        ("serious complaint, the driver was rude", "the driver was rude"),
        # a lead-in right after the request's own words, "que" left out
        ("registra uma reclamação dizendo que o motorista foi grosseiro", "o motorista foi grosseiro"),
        ("file a complaint about the driver being rude", "the driver being rude"),
    ],
)
def test_free_text_after_the_requests_own_words(
    complaint: GoalEntityExtractor, text: str, value: str
) -> None:
    assert complaint.extract(text)["complaint_text"] == value


@pytest.mark.parametrize("text", ["Oi, quero registrar uma reclamação", "registra uma reclamação, por favor"])
def test_a_greeting_or_a_please_after_a_comma_is_no_complaint(
    complaint: GoalEntityExtractor, text: str
) -> None:
    assert "complaint_text" not in complaint.extract(text)


def test_a_reply_to_the_question_for_the_text_is_the_text(complaint: GoalEntityExtractor) -> None:
    reply = "o motorista foi grosseiro comigo"
    assert "complaint_text" not in complaint.extract(reply)  # said out of the blue: no cue
    assert complaint.extract(reply, prefer="complaint_text") == {"complaint_text": reply}
