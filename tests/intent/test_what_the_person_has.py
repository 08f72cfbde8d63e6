"""Requests about what the person already has or made, read by the goal that reads it: a
question after one's own thing ("has my passport arrived yet?", "quero acompanhar meu pedido"),
and a cancelling verb opening the message before a status's words ("cancela protocolo
PR48130"), which goes to the domain's cancellation that reads the same values."""

from __future__ import annotations

import pytest

from intent.embedded import EmbeddedIntentAdapter

CONTEXT = {"now": "2026-03-10T09:00:00-03:00", "time_zone": "America/Sao_Paulo"}  # a Tuesday


@pytest.mark.parametrize(
    "text",
    [
        "quero acompanhar o meu pedido de RG",
        "gostaria de acompanhar minha carteira de trabalho",
        "has my ID card arrived?",
        "is my work card ready yet?",
        "I want to track my passport request",
    ],
)
def test_asking_after_ones_document_reads_its_status(
    round20_beside_shipped: EmbeddedIntentAdapter, text: str
) -> None:
    out = round20_beside_shipped.parse_sync(text, context=CONTEXT)
    assert out.goal == "DOCUMENT_REQUEST_STATUS", out.notes


@pytest.mark.parametrize(
    "text",
    ["marca passaporte pra quinta 9h na unidade sé", "book my passport appointment for thursday at 9am"],
)
def test_a_new_appointment_stays_a_booking(round20_beside_shipped: EmbeddedIntentAdapter, text: str) -> None:
    out = round20_beside_shipped.parse_sync(text, context=CONTEXT)
    assert out.goal == "BOOK_DOCUMENT_APPOINTMENT", out.notes


@pytest.mark.parametrize(
    ("text", "code"),
    [
        # a code the status's examples write pulls the classifier to the status
        ("cancela protocolo PR48130", "PR48130"),
        ("cancela o protocolo PR48130", "PR48130"),
        ("cancel protocol PR48777 please", "PR48777"),
    ],
)
def test_a_cancelling_verb_before_a_status_cancels(
    round20_beside_shipped: EmbeddedIntentAdapter, text: str, code: str
) -> None:
    out = round20_beside_shipped.parse_sync(text, context=CONTEXT)
    assert (out.goal, out.entities) == ("CANCEL_DOCUMENT_APPOINTMENT", {"protocol_text": code}), out.notes


def test_a_status_without_a_cancelling_verb_stays_a_status(
    round20_beside_shipped: EmbeddedIntentAdapter,
) -> None:
    out = round20_beside_shipped.parse_sync("como está o protocolo PR48777?", context=CONTEXT)
    assert out.goal == "DOCUMENT_REQUEST_STATUS", out.notes


@pytest.mark.parametrize(
    "text",
    ["I need to cancel the bowling reservation I made", "quero cancelar a reserva de boliche que eu fiz"],
)
def test_what_the_person_made_is_the_thing_to_cancel(
    round20_beside_shipped: EmbeddedIntentAdapter, text: str
) -> None:
    """ "the reservation I made": saying one made it names nothing else; its code is asked for."""
    out = round20_beside_shipped.parse_sync(text, context=CONTEXT)
    assert (out.goal, out.entities) == ("CANCEL_BOWLING_BOOKING", {}), out.notes
