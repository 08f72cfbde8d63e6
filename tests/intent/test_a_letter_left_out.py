"""A letter left out where fingers skip one, a letter of a double ("poter", "aple") or a vowel
("renw"), is a typo of the word the goals learnt, in the classifier's reading and in the goal's
own phrasing; a word two learnt words shorten to, and a short word, are left alone."""

from __future__ import annotations

import pytest

from intent.embedded import EmbeddedIntentAdapter
from intent.entities import with_a_letter_dropped


def test_which_letters_fingers_skip() -> None:
    dropped = with_a_letter_dropped(["renew", "potter", "apple", "sessions", "ticket"])
    assert dropped["renw"] == "renew"
    assert dropped["poter"] == "potter"
    assert dropped["aple"] == "apple"
    assert "tiket" not in dropped  # a consonant of no double
    assert dropped["tcket"] == "ticket"
    assert "apples" not in dropped and "rene" not in dropped  # the last letter is kept
    assert "sesions" in dropped


def test_a_shortening_two_words_share_is_neither_s() -> None:
    dropped = with_a_letter_dropped(["causa", "casaa"])
    assert "casa" not in dropped


@pytest.fixture(scope="module")
def library_and_cinema(round4_beside_shipped: EmbeddedIntentAdapter) -> EmbeddedIntentAdapter:
    return round4_beside_shipped


def test_a_renewal_typed_in_a_hurry(library_and_cinema: EmbeddedIntentAdapter) -> None:
    read = library_and_cinema.parse_sync("renw harry poter")
    assert read.goal == "RENEW_LOAN", read.notes
    assert read.entities.get("book_text") == "harry poter"


def test_a_verb_s_own_form_is_no_slip(library_and_cinema: EmbeddedIntentAdapter) -> None:
    assert library_and_cinema.model is not None
    assert library_and_cinema.model.spelled("compra 2 ingressos", "pt") == "compra 2 ingressos"
