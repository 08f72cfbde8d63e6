"""Which words a typed or numeric entity takes when a message has several candidates, from the
manifest alone: a number hidden by a longer reading is read again, the number the examples put
around the entity wins over an article read as one, and a code's digits are never an amount's."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from intent.entities import GoalEntityExtractor
from intent.typed import RECOGNIZER, Clock
from shared.manifest import Goal

SAO_PAULO = "America/Sao_Paulo"
CLOCK = Clock(now=datetime(2026, 11, 26, 9, 0, tzinfo=ZoneInfo(SAO_PAULO)), time_zone=SAO_PAULO)

#: a made-up domain: a ferry ticket with a number of passengers, a day and a time
FERRY: dict[str, Any] = {
    "goal": "BOOK_FERRY",
    "description": {"pt": "Reservar a balsa", "en": "Book the ferry"},
    "capabilities": ["book"],
    "entities_schema": {
        "passengers": {
            "type": "number",
            "required": True,
            "description": {"pt": "Quantos", "en": "How many"},
        },
        "day": {"type": "date", "required": True, "description": {"pt": "O dia", "en": "The day"}},
        "time": {"type": "time", "required": True, "description": {"pt": "A hora", "en": "The time"}},
    },
    "examples": [
        {
            "text": "reserva a balsa pra 3 passageiros amanhã às 9h",
            "entities": {"passengers": "3 passageiros"},
        },
        {"text": "book the ferry for 2 on Friday at 8am", "entities": {"passengers": "2"}},
    ],
}

#: a made-up domain: a parcel tracked by a long code, paid for with an amount
PARCEL: dict[str, Any] = {
    "goal": "PAY_PARCEL",
    "description": {"pt": "Pagar uma encomenda", "en": "Pay for a parcel"},
    "capabilities": ["pay"],
    "entities_schema": {
        "parcel_text": {
            "type": "string",
            "required": True,
            "description": {"pt": "O código", "en": "The code"},
        },
        "fee": {"type": "money"},
    },
    "examples": [
        {"text": "paga a encomenda 558812", "entities": {"parcel_text": "558812"}},
        {"text": "pay parcel 771204", "entities": {"parcel_text": "771204"}},
    ],
}


def test_a_number_a_longer_reading_swallowed_is_read_again() -> None:
    # "2 on Sunday" (02:00) loses to "on Sunday at 9pm"; the 2 is still a number
    spans = RECOGNIZER.spans("book it for 2 on Sunday at 9pm", "en", time_zone=SAO_PAULO, now=CLOCK.now)
    assert [(s.type, s.value) for s in spans] == [("number", 2), ("datetime", "2026-11-29T21:00:00-03:00")]


@pytest.mark.parametrize(
    ("text", "language", "passengers"),
    [
        ("book the ferry for 4 on Sunday at 9pm", "en", 4),
        ("quero reservar uma vaga na balsa sábado às 10h para quatro passageiros", "pt", 4),
    ],
)
def test_the_number_the_examples_put_around_the_entity_wins(
    text: str, language: str, passengers: int
) -> None:
    found = GoalEntityExtractor(Goal.model_validate(FERRY)).extract(text, clock=CLOCK, language=language)
    assert found["passengers"] == passengers


def test_an_article_is_no_count_where_the_examples_never_put_one() -> None:
    found = GoalEntityExtractor(Goal.model_validate(FERRY)).extract(
        "reserva uma vaga na balsa amanhã às 9h", clock=CLOCK, language="pt"
    )
    assert "passengers" not in found  # asked for, never guessed from "uma"
    assert found["day"] == "2026-11-27"


@pytest.mark.parametrize("text", ["paga a encomenda, 1.432,77", "pay the parcel 129.90"])
def test_the_digits_of_an_amount_are_no_code(text: str) -> None:
    found = GoalEntityExtractor(Goal.model_validate(PARCEL)).extract(text, clock=CLOCK)
    assert "parcel_text" not in found


def test_a_code_is_still_taken() -> None:
    found = GoalEntityExtractor(Goal.model_validate(PARCEL)).extract("paga a encomenda 990017", clock=CLOCK)
    assert found["parcel_text"] == "990017"


#: a made-up domain: money sent to a person, the amount with or without its currency
TRANSFER: dict[str, Any] = {
    "goal": "SEND_MONEY",
    "description": {"pt": "Transferir dinheiro", "en": "Send money"},
    "capabilities": ["send"],
    "entities_schema": {
        "amount": {"type": "money", "required": True, "description": {"pt": "O valor", "en": "The amount"}},
        "recipient_text": {
            "type": "string",
            "required": True,
            "description": {"pt": "Para quem", "en": "To whom"},
        },
    },
    "examples": [
        {"text": "transfere R$ 50 pra Ana", "entities": {"amount": "R$ 50", "recipient_text": "Ana"}},
        {"text": "send $20 to Bob", "entities": {"amount": "$20", "recipient_text": "Bob"}},
    ],
}


@pytest.mark.parametrize(
    ("text", "amount"),
    [
        ("transfere 200 pra Bia", {"amount": 200, "currency": None}),
        ("manda 49,90 pro Caio", {"amount": 49.9, "currency": None}),
        ("transfere R$ 30 pra Ana", {"amount": 30, "currency": "BRL"}),
        ("send 15 dollars to Dave", {"amount": 15, "currency": "USD"}),
    ],
)
def test_an_amount_whose_currency_was_not_said_is_money_without_one(
    text: str, amount: dict[str, Any]
) -> None:
    found = GoalEntityExtractor(Goal.model_validate(TRANSFER)).extract(text, clock=CLOCK)
    assert found["amount"] == amount  # said: never asked for again; the domain applies its currency


def test_a_reply_to_the_question_for_an_amount_is_the_amount() -> None:
    found = GoalEntityExtractor(Goal.model_validate(TRANSFER)).extract("150", clock=CLOCK, prefer="amount")
    assert found["amount"] == {"amount": 150, "currency": None}


def test_a_code_is_no_amount() -> None:
    found = GoalEntityExtractor(Goal.model_validate(PARCEL)).extract("paga a encomenda 990017", clock=CLOCK)
    assert "fee" not in found and found["parcel_text"] == "990017"
