"""A request that opens with a cancelling verb is never read as the goal that makes the thing
cancelled: with no goal that cancels a charger's reservation, "cancela minha reserva de
carregador" is out of scope, not a new reservation asking for its day. Nor is it read as the
goal that reads the thing: "cancela minha reserva PK1042" asks for no parking spot's status."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.understanding.round9.domains import parking
from bench.understanding.round10.domains import ev_charging
from intent.embedded import EmbeddedIntentAdapter
from tests.intent.conftest import as_a_gateway_reads

CONTEXT = {"time_zone": "America/Sao_Paulo", "now": "2026-03-10T10:00:00-03:00"}


@pytest.fixture(scope="module")
def reader(tmp_path_factory: pytest.TempPathFactory) -> EmbeddedIntentAdapter:
    folder: Path = tmp_path_factory.mktemp("undo")
    return as_a_gateway_reads(folder, ev_charging)


@pytest.mark.parametrize(
    "text",
    [
        "cancela minha reserva de carregador EV3101",
        "quero cancelar minha reserva de carregador EV3101",
        "preciso desmarcar a reserva do carregador",
    ],
)
def test_cancelling_is_no_new_reservation(reader: EmbeddedIntentAdapter, text: str) -> None:
    out = reader.parse_sync(text, context=CONTEXT)
    assert out.goal is None
    assert any("undoes what RESERVE_CHARGER makes" in note for note in out.notes)


def test_the_reservation_itself_is_still_read(reader: EmbeddedIntentAdapter) -> None:
    out = reader.parse_sync("reserva um carregador no morumbi amanhã 10h por 1h", context=CONTEXT)
    assert out.goal == "RESERVE_CHARGER"


@pytest.fixture(scope="module")
def parking_reader(tmp_path_factory: pytest.TempPathFactory) -> EmbeddedIntentAdapter:
    return as_a_gateway_reads(tmp_path_factory.mktemp("undo-parking"), parking)


@pytest.mark.parametrize("text", ["cancela minha reserva PK1042", "cancel my reservation PK1042"])
def test_cancelling_is_no_status_question(parking_reader: EmbeddedIntentAdapter, text: str) -> None:
    out = parking_reader.parse_sync(text, context=CONTEXT)
    assert out.goal is None, out.notes
    assert any("undoes what RESERVATION_STATUS makes or reads" in note for note in out.notes)


def test_the_status_itself_is_still_read(parking_reader: EmbeddedIntentAdapter) -> None:
    out = parking_reader.parse_sync("status da minha reserva PK1042", context=CONTEXT)
    assert (out.goal, out.entities.get("code_text")) == ("RESERVATION_STATUS", "PK1042"), out.notes


@pytest.mark.parametrize(
    # the first is read as the booking by the classifier
    "text",
    ["cancel our escape room on Friday", "cancela minha reserva do escape de domingo"],
)
def test_the_domains_own_cancellation_undoes_it(
    round18_beside_shipped: EmbeddedIntentAdapter, text: str
) -> None:
    """A booking's words and the verb that undoes it, where the booking's domain cancels: its
    cancellation, which asks for the booking's code."""
    out = round18_beside_shipped.parse_sync(text, context={"now": "2026-03-10T09:00:00-03:00"})
    assert out.goal == "CANCEL_ESCAPE_BOOKING", out.notes
