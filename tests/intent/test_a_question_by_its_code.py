"""A question about one of a goal's things by its code, the goal only reading it, is that goal's
with a word or two it does not know beside the code: "has PX7388 been delivered yet?" tracks
the parcel. Without the question, or with many such words, nothing is guessed."""

from __future__ import annotations

import pytest

from bench.understanding.round5.domains import hotel, parcels, pet_care
from intent.embedded import EmbeddedIntentAdapter
from tests.intent.conftest import as_a_gateway_reads

CONTEXT = {"now": "2026-03-10T10:00:00-03:00", "time_zone": "America/Sao_Paulo"}


@pytest.fixture(scope="module")
def round5(tmp_path_factory: pytest.TempPathFactory) -> EmbeddedIntentAdapter:
    return as_a_gateway_reads(tmp_path_factory.mktemp("round5"), hotel, parcels, pet_care)


def test_a_question_by_the_code_is_tracked(round5: EmbeddedIntentAdapter) -> None:
    out = round5.parse_sync("has PX7388 been delivered yet?", context=CONTEXT)
    assert (out.goal, out.entities.get("tracking_code_text")) == ("TRACK_PARCEL", "PX7388"), out.notes


def test_many_other_words_are_no_tracking(round5: EmbeddedIntentAdapter) -> None:
    out = round5.parse_sync("has PX7388 been delivered to my neighbour's house yet?", context=CONTEXT)
    assert out.goal != "TRACK_PARCEL", out.notes
