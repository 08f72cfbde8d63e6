"""Two counts of one goal (an age and a weight, words and pages) each take the number said their
way: the noun it counts in either number, its unit of time in either language, and no word that
only followed another count's unit in the examples."""

from __future__ import annotations

import pytest

from intent.embedded import EmbeddedIntentAdapter

CONTEXT = {"now": "2026-03-10T09:00:00-03:00", "time_zone": "America/Sao_Paulo"}


@pytest.mark.parametrize(
    ("text", "entities"),
    [
        # the weight's examples say "55 kg, can I…": "can" follows the unit, not the number
        ("I'm 19, can I give blood?", {"age": 19}),
        ("is a 68 year old allowed to donate?", {"age": 68}),
        ("I'm 30 years old and weigh 52 kilos, can I donate?", {"age": 30, "weight": 52}),
        ("tenho 25 anos e peso 60 kg, posso doar?", {"age": 25, "weight": 60}),
    ],
)
def test_an_age_and_a_weight(
    round18_beside_shipped: EmbeddedIntentAdapter, text: str, entities: dict[str, int]
) -> None:
    out = round18_beside_shipped.parse_sync(text, context=CONTEXT)
    assert out.goal == "DONATION_ELIGIBILITY", out.notes
    assert out.entities == entities


@pytest.mark.parametrize(
    ("text", "pages"),
    [
        # pages are annotated "5 page" and "10 páginas": "pages" is the same noun
        ("quote to translate 7 pages from english to spanish", 7),
        # a hedge before a bare number is no hour to a goal that reads none
        ("quote to translate my thesis into spanish, it's around 9 pages", 9),
    ],
)
def test_pages_are_no_words(round18_beside_shipped: EmbeddedIntentAdapter, text: str, pages: int) -> None:
    out = round18_beside_shipped.parse_sync(text, context=CONTEXT)
    assert out.goal == "TRANSLATION_QUOTE", out.notes
    assert out.entities.get("pages") == pages
    assert "words" not in out.entities
