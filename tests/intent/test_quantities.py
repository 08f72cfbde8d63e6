"""Counts said with a unit, a fraction or a dozen: "2kg de tomate", "3un", "meio quilo", "half a
kilo", "um quilo e meio", "1/2 kg", "meia dúzia", "a dozen eggs" give the count as written (the
unit stays a word of its own, for the goal's enum), and nothing that is no count becomes one."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from bench.understanding.round6.domains import groceries
from intent.embedded import EmbeddedIntentAdapter
from intent.text import tokens
from intent.typed import RECOGNIZER
from shared.catalog import Catalog

NOW = datetime(2026, 3, 10, 10, 0, tzinfo=ZoneInfo("America/Sao_Paulo"))
CONTEXT = {"now": NOW.isoformat(), "time_zone": "America/Sao_Paulo"}


def numbers(text: str, language: str) -> list[tuple[object, str]]:
    spans = RECOGNIZER.spans(text, language, time_zone="America/Sao_Paulo", now=NOW)
    return [(s.value, text[s.start : s.end]) for s in spans if s.type == "number"]


@pytest.mark.parametrize(
    ("text", "language", "expected"),
    [
        # a unit glued to its count: the count over its digits alone
        ("2kg de tomate", "pt", [(2, "2")]),
        ("add 1.5kg of potatoes", "en", [(1.5, "1.5")]),
        ("1,5kg de banana", "pt", [(1.5, "1,5")]),
        ("3un de iogurte", "pt", [(3, "3")]),
        ("2kilos de batata", "pt", [(2, "2")]),
        ("2l of milk", "en", [(2, "2")]),  # not two lakh
        ("500ml de leite", "pt", [(500, "500")]),
        # fractions and halves
        ("1/2 kg de carne", "pt", [(0.5, "1/2")]),  # not the 1st of February
        ("meio quilo de carne moída", "pt", [(0.5, "meio")]),
        ("half a kilo of cheese", "en", [(0.5, "half a")]),
        ("meio kg de queijo", "pt", [(0.5, "meio")]),
        ("um quilo e meio de batata", "pt", [(1.5, "um")]),
        ("dois quilos e meio", "pt", [(2.5, "dois")]),
        ("2 and a half kilos of potatoes", "en", [(2.5, "2 and a half")]),
        # dozens, as Duckling reads them, halved by a half said before
        ("a dozen eggs", "en", [(12, "a dozen")]),
        ("two dozen eggs", "en", [(24, "two dozen")]),
        ("uma dúzia de ovos", "pt", [(12, "uma dúzia de")]),
        ("duas dúzias de ovos", "pt", [(24, "duas dúzias de")]),
        ("meia dúzia de ovos", "pt", [(6, "meia dúzia de")]),
        ("half a dozen eggs", "en", [(6, "half a dozen")]),
        # with the unit apart, as before
        ("2 kg de tomate", "pt", [(2, "2")]),
        ("3 pacotes de cerveja", "pt", [(3, "3")]),
        ("2 pessoas", "pt", [(2, "2")]),
    ],
)
def test_the_count_as_written(text: str, language: str, expected: list[tuple[float, str]]) -> None:
    assert numbers(text, language) == expected


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("pedido RD8812", "pt"),
        ("voo PX7388", "pt"),
        ("flight LV4102", "en"),
        ("às 14h", "pt"),
        ("10h30", "pt"),
        ("R$ 50", "pt"),
        ("dia 1º de março", "pt"),
        ("the 3rd floor", "en"),
        ("meia hora", "pt"),
        ("meia entrada", "pt"),
        ("meio período", "pt"),
        ("no meio da tarde", "pt"),
        ("às 2 e meia", "pt"),
        ("half an hour", "en"),
        ("4x4", "pt"),
    ],
)
def test_no_count_where_none_is_said(text: str, language: str) -> None:
    assert numbers(text, language) == []


def test_times_and_days_stay_what_they_were() -> None:
    def typed(text: str) -> list[tuple[str, object]]:
        spans = RECOGNIZER.spans(text, "pt", time_zone="America/Sao_Paulo", now=NOW)
        return [(s.type, s.value) for s in spans]

    assert typed("às 14h") == [("time", "14:00")]
    assert typed("10h30") == [("time", "10:30")]
    assert typed("13/03") == [("date", "2026-03-13")]
    assert typed("às 2 e meia") == [("time", "14:30")]
    assert typed("R$ 50") == [("money", {"amount": 50, "currency": "BRL"})]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2kg de tomate", ["2", "kg", "de", "tomate"]),
        ("3un", ["3", "un"]),
        ("RD8812", ["rd8812"]),
        ("PX7388", ["px7388"]),
        ("10h30", ["10h30"]),
        ("14h", ["14h"]),
        ("9pm", ["9pm"]),
        ("2x", ["2x"]),
        ("3rd", ["3rd"]),
        ("1º", ["1o"]),
        ("4x4", ["4x4"]),
    ],
)
def test_a_unit_glued_to_its_count_is_a_word_of_its_own(text: str, expected: list[str]) -> None:
    assert [t.text for t in tokens(text)] == expected


@pytest.fixture(scope="module")
def adapter() -> EmbeddedIntentAdapter:
    return EmbeddedIntentAdapter(Catalog([groceries.service.manifest_with_lookups()]), use_embeddings=False)


@pytest.mark.parametrize(
    ("text", "quantity", "unit", "item"),
    [
        ("adiciona 2kg de tomate", 2, "KG", "tomate"),
        ("2kg de tomate", 2, "KG", "tomate"),
        ("adiciona 1,5kg de banana", 1.5, "KG", "banana"),
        ("adiciona 3un de iogurte", 3, "UNIT", "iogurte"),
        ("adiciona meio quilo de carne moída", 0.5, "KG", "carne moída"),
        ("adiciona um quilo e meio de batata", 1.5, "KG", "batata"),
        ("adiciona 1/2 kg de tomate", 0.5, "KG", "tomate"),
        ("adiciona uma dúzia de ovos", 12, None, "ovos"),
        ("adiciona duas dúzias de ovos", 24, None, "ovos"),
        ("adiciona meia dúzia de ovos", 6, None, "ovos"),
        ("põe 2 quilos de tomate no carrinho", 2, "KG", "tomate"),
        ("add 1.5kg of potatoes", 1.5, "KG", "potatoes"),
        ("add half a kilo of cheese", 0.5, "KG", "cheese"),
        ("add 2 and a half kilos of potatoes", 2.5, "KG", "potatoes"),
        ("add a dozen eggs", 12, None, "eggs"),
        ("add half a dozen eggs", 6, None, "eggs"),
        ("add 2 kg of tomatoes", 2, "KG", "tomatoes"),
    ],
)
def test_added_to_the_cart(
    adapter: EmbeddedIntentAdapter, text: str, quantity: float, unit: str | None, item: str
) -> None:
    read = adapter.parse_sync(text, context=CONTEXT)
    assert read.goal == "ADD_TO_CART", read.notes
    got = (read.entities.get("quantity"), read.entities.get("unit"), read.entities.get("item_text"))
    assert got == (quantity, unit, item)


def test_an_order_code_is_no_quantity(adapter: EmbeddedIntentAdapter) -> None:
    read = adapter.parse_sync("cadê meu pedido GR3301?", context=CONTEXT)
    assert read.goal == "ORDER_STATUS", read.notes
    assert read.entities == {"order_code_text": "GR3301"}
