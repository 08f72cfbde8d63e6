"""Values written with numbers among their words: an address's number is part of it ("rua
harmonia 300", "10 pine road"), not ten o'clock; a plate's letters and its digits with a letter
among them are one code however they are written apart ("bra-2e19"); and a verb is no address
when it is the only word left ("quero avisar que acabou a luz" asks where)."""

from __future__ import annotations

import pytest

from bench.understanding.round9.domains import parking, phone_plan, utilities
from intent.embedded import EmbeddedIntentAdapter
from tests.intent.conftest import as_a_gateway_reads

CONTEXT = {"now": "2026-03-10T10:00:00-03:00", "time_zone": "America/Sao_Paulo"}


@pytest.fixture(scope="module")
def city(tmp_path_factory: pytest.TempPathFactory) -> EmbeddedIntentAdapter:
    return as_a_gateway_reads(tmp_path_factory.mktemp("city"), parking, phone_plan, utilities)


@pytest.mark.parametrize(
    ("text", "address"),
    [
        ("tô sem luz aqui na rua harmonia 300", "rua harmonia 300"),
        ("water outage at 10 pine road", "10 pine road"),
        ("sem luz aki na r. augusta 500 desde hj cedo", "r. augusta 500"),
    ],
)
def test_an_address_keeps_its_number(city: EmbeddedIntentAdapter, text: str, address: str) -> None:
    read = city.parse_sync(text, context=CONTEXT)
    assert read.goal == "REPORT_OUTAGE", read.notes
    assert read.entities.get("address_text") == address


def test_a_verb_is_no_address(city: EmbeddedIntentAdapter) -> None:
    read = city.parse_sync("quero avisar que acabou a luz", context=CONTEXT)
    assert read.goal == "REPORT_OUTAGE", read.notes
    assert "address_text" not in read.entities
    assert read.entities.get("service") == "POWER"


@pytest.mark.parametrize(
    ("text", "plate"),
    [
        ("pagar estacionamento do carro placa bra-2e19", "bra2e19"),
        ("pay parking 4 plate abc-1d23 pls", "abc1d23"),
        ("paga a placa ABC1D23", "ABC1D23"),
    ],
)
def test_a_plate_written_apart_is_one_code(city: EmbeddedIntentAdapter, text: str, plate: str) -> None:
    read = city.parse_sync(text, context=CONTEXT)
    assert read.goal == "PAY_PARKING", read.notes
    assert read.entities.get("plate_text") == plate


@pytest.mark.parametrize(
    ("text", "start", "duration"),
    [
        ("spot at eldorado wednesday 3pm for 2 hours", "15:00", "PT2H"),
        ("vaga no shopping eldorado sábado 11h por 4h", "11:00", "PT4H"),
        ("vaga aeroporto domingo 7h por meia hora", "07:00", "PT30M"),
    ],
)
def test_a_start_and_how_long(city: EmbeddedIntentAdapter, text: str, start: str, duration: str) -> None:
    read = city.parse_sync(text, context=CONTEXT)
    assert read.goal == "RESERVE_SPOT", read.notes
    assert (read.entities.get("start"), read.entities.get("duration")) == (start, duration)


def test_an_english_reading_with_no_function_word_groups_its_thousands(city: EmbeddedIntentAdapter) -> None:
    read = city.parse_sync("electricity meter reading 48,700", context=CONTEXT)
    assert read.goal == "METER_READING", read.notes
    assert read.entities.get("reading") == 48700


@pytest.mark.parametrize(
    ("goal", "text"),
    [
        ("TOP_UP", "put 15 bucks of credit on 11 91234-5678"),  # "coloca 30 de crédito" in the examples
        ("CHANGE_PLAN", "altera meu plano pro pré"),  # "muda meu plano" in the examples
    ],
)
def test_another_everyday_verb_of_the_same_action_is_the_goal_s(
    city: EmbeddedIntentAdapter, goal: str, text: str
) -> None:
    assert city.model is not None
    extractor = next(x for (_, name), x in city.model.extractors.items() if name == goal)
    assert extractor.unsupported_action(text) is None


def test_a_phone_number_is_what_a_top_up_is_about(city: EmbeddedIntentAdapter) -> None:
    """Words the goal does not know ("mom", "line") beside a phone number are no other object."""
    read = city.parse_sync("top up my mom's line 21 99888-7777", context=CONTEXT)
    assert read.goal == "TOP_UP", read.notes
    assert read.entities == {"phone": "21998887777"}
