"""The dialogue's own words follow a full language tag ("en-US", "pt-BR"), not only "en"."""

from __future__ import annotations

import pytest

from dialogue.choice import listed
from dialogue.rules import answer_text
from shared.models import ClarificationOption, DomainOutput


@pytest.mark.parametrize(
    ("language", "expected"),
    [("en-US", "I could not process the request."), ("pt-BR", "Não consegui processar o pedido.")],
)
def test_the_fallback_answer_reads_the_language_tag(language: str, expected: str) -> None:
    assert answer_text(None, language) == expected


def test_a_successful_output_without_words_is_done_in_the_tags_language() -> None:
    assert answer_text(DomainOutput(status="success"), "en-GB") == "Done."
    assert answer_text(DomainOutput(status="failure"), "en_US") == "I could not complete the request."


def test_a_listed_question_ends_with_the_hint_in_the_tags_language() -> None:
    options = [ClarificationOption(value=f"V{i}", label=f"Option {i}") for i in range(12)]
    lines = listed("Which one?", options, "en-US").splitlines()
    assert lines[-1] == "Reply with the number or the name."
    assert lines[-2].startswith("… (+") and lines[-2].endswith(" more)")
