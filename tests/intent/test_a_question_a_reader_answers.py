"""Of two goals too close to tell apart, a question every required value of the one that only
reads is said in is that goal's when the other, which changes something, lacks one: "quanto sai
a bike elétrica por 3 horas?" asks a price, not for a rental with no station. Said as a
request, the rental is still asked for."""

from __future__ import annotations

from intent.embedded import EmbeddedIntentAdapter

CONTEXT = {"now": "2026-03-10T10:00:00-03:00", "time_zone": "America/Sao_Paulo"}


def test_the_question_is_the_readers(round13_beside_shipped: EmbeddedIntentAdapter) -> None:
    out = round13_beside_shipped.parse_sync("quanto sai a bike elétrica por 3 horas?", context=CONTEXT)
    assert (out.goal, out.entities.get("duration")) == ("RENTAL_PRICE", "PT3H"), out.notes
    assert any("only reads" in note for note in out.notes)


def test_a_request_is_still_the_rental(round13_beside_shipped: EmbeddedIntentAdapter) -> None:
    out = round13_beside_shipped.parse_sync("aluga a bike elétrica por 3 horas", context=CONTEXT)
    assert out.goal == "RENT_BIKE", out.notes


def test_a_question_with_words_the_reader_does_not_know_is_not_decided(
    round11_beside_shipped: EmbeddedIntentAdapter,
) -> None:
    out = round11_beside_shipped.parse_sync("where can I buy hair dye?", context=CONTEXT)
    assert out.goal is None, out.notes
