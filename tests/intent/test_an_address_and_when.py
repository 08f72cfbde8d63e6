"""An address is a name with its number, not a phrase that runs to the end of the message: the
day and the time after it, and a clause after a comma, are not part of it; its number is no hour;
a word with no number is no address to guess. A count may be written glued to its unit, and a
count of half-price tickets is no half past anything."""

from __future__ import annotations

import pytest

from intent.embedded import EmbeddedIntentAdapter

CONTEXT = {"now": "2026-03-10T09:00:00-03:00", "time_zone": "America/Sao_Paulo"}


@pytest.mark.parametrize(
    ("text", "entities"),
    [
        (
            "manda um chaveiro na rua bela cintra 455 quinta às 15h",
            {"address_text": "rua bela cintra 455", "day": "2026-03-12", "time": "15:00"},
        ),
        (
            "could you send a locksmith to 88 Hill Road on Friday at 9am",
            {"address_text": "88 Hill Road", "day": "2026-03-13", "time": "09:00"},
        ),
    ],
)
def test_the_day_and_time_after_an_address_are_not_part_of_it(
    round17_beside_shipped: EmbeddedIntentAdapter, text: str, entities: dict[str, str]
) -> None:
    out = round17_beside_shipped.parse_sync(text, context=CONTEXT)
    assert out.goal == "REQUEST_LOCKSMITH", out.notes
    assert {k: out.entities.get(k) for k in entities} == entities


@pytest.mark.parametrize(
    ("text", "address"),
    [
        ("preciso de um chaveiro urgente na rua da mooca 77, quebrei a chave na porta", "rua da mooca 77"),
        ("I need an urgent locksmith at 9 Park Lane, my key snapped", "9 Park Lane"),
    ],
)
def test_a_clause_after_the_address_is_not_part_of_it(
    round17_beside_shipped: EmbeddedIntentAdapter, text: str, address: str
) -> None:
    out = round17_beside_shipped.parse_sync(text, context=CONTEXT)
    assert out.goal == "REQUEST_LOCKSMITH", out.notes
    assert out.entities.get("address_text") == address


def test_the_house_number_is_no_hour(round17_beside_shipped: EmbeddedIntentAdapter) -> None:
    out = round17_beside_shipped.parse_sync("urgent locksmith at 14 Mill Street", context=CONTEXT)
    assert out.goal == "REQUEST_LOCKSMITH", out.notes
    assert out.entities.get("address_text") == "14 Mill Street"
    assert "time" not in out.entities


def test_a_word_without_a_number_is_no_address_to_guess(
    round17_beside_shipped: EmbeddedIntentAdapter,
) -> None:
    out = round17_beside_shipped.parse_sync("can a locksmith stop by tomorrow at 4pm?", context=CONTEXT)
    assert out.goal == "REQUEST_LOCKSMITH", out.notes
    assert "address_text" not in out.entities
    assert out.entities.get("time") == "16:00"


@pytest.mark.parametrize(
    "text", ["how much for an 8cm blackwork piece?", "quanto fica uma de 8cm em blackwork?"]
)
def test_a_count_glued_to_its_unit(round17_beside_shipped: EmbeddedIntentAdapter, text: str) -> None:
    out = round17_beside_shipped.parse_sync(text, context=CONTEXT)
    assert out.goal == "TATTOO_QUOTE", out.notes
    assert out.entities.get("size_cm") == 8


def test_half_price_tickets_are_counted_not_a_time(round17_beside_shipped: EmbeddedIntentAdapter) -> None:
    out = round17_beside_shipped.parse_sync("4 half price tickets for saturday", context=CONTEXT)
    assert out.goal == "BUY_MUSEUM_TICKETS", out.notes
    assert out.entities.get("tickets") == 4
    assert "entry_time" not in out.entities
