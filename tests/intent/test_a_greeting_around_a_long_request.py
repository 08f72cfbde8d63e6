"""A long request between a greeting and thanks is the request: the greeting alone reads as
small talk, so it made the whole message small talk though the request alone reads as a
booking. Its narrative words ("a gente", "seremos", "desde já") say nothing against it."""

from __future__ import annotations

import pytest

from intent.embedded import EmbeddedIntentAdapter

CONTEXT = {"now": "2026-03-10T10:00:00-03:00", "time_zone": "America/Sao_Paulo"}
REQUEST = (
    "Eu vou receber um cliente importante na sexta-feira e queria muito garantir a sala Ipê para a "
    "gente, das 10h até meio-dia, seremos em quatro pessoas."
)


@pytest.mark.parametrize("text", [f"Bom dia! Tudo bem? {REQUEST} Muito obrigado desde já!", REQUEST])
def test_the_request_is_read(round11_beside_shipped: EmbeddedIntentAdapter, text: str) -> None:
    read = round11_beside_shipped.parse_sync(text, context=CONTEXT)
    assert read.goal == "BOOK_SPACE", read.notes
    assert read.entities == {
        "space_text": "sala Ipê",
        "day": "2026-03-13",
        "start": "10:00",
        "duration": "PT2H",
        "people": 4,
    }


def test_a_greeting_alone_is_still_small_talk(round11_beside_shipped: EmbeddedIntentAdapter) -> None:
    read = round11_beside_shipped.parse_sync("Oi, tudo bem? obrigado!", context=CONTEXT)
    assert read.goal == "SMALL_TALK", read.notes


@pytest.mark.parametrize("text", ["bom dia, Maria", "oi, bot"])
def test_one_word_after_a_greeting_is_whom_it_greets(
    round11_beside_shipped: EmbeddedIntentAdapter, text: str
) -> None:
    read = round11_beside_shipped.parse_sync(text, context=CONTEXT)
    assert read.goal == "SMALL_TALK", read.notes


def test_a_greeting_around_something_no_domain_does(round11_beside_shipped: EmbeddedIntentAdapter) -> None:
    read = round11_beside_shipped.parse_sync("Oi, tudo bem? qual a capital da frança?", context=CONTEXT)
    assert read.goal is None, read.notes


def test_the_surest_sentence_of_an_unsure_request_decides(
    round4_beside_shipped: EmbeddedIntentAdapter,
) -> None:
    """The request alone is unsure (a story, then the ask): its sentence that asks decides."""
    text = (
        "Boa tarde! Estou lendo Grande Sertão: Veredas e não vou conseguir terminar até a data de "
        "devolução. Seria possível renovar por mais duas semanas? Obrigada"
    )
    read = round4_beside_shipped.parse_sync(text, context=CONTEXT)
    assert (read.goal, read.entities.get("book_text")) == ("RENEW_LOAN", "Grande Sertão: Veredas"), read.notes
