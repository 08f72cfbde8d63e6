"""A percentage is a number, never a year ("friday 6pm up to 90%" was a Friday of 1990); "por 1
hora e meia" is how long, not half past one; "700k reais" in an English message is in reais."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from intent.typed import RECOGNIZER

NOW = datetime(2026, 3, 10, 13, 0, tzinfo=UTC)  # Tuesday, 10:00 in São Paulo


def read(text: str, language: str) -> list[tuple[str, object, str]]:
    spans = RECOGNIZER.spans(text, language, time_zone="America/Sao_Paulo", now=NOW)
    return [(s.type, s.value, text[s.start : s.end]) for s in spans]


@pytest.mark.parametrize(
    ("text", "language", "expected"),
    [
        (
            "charge at morumbi friday 6pm up to 90%",
            "en",
            [("datetime", "2026-03-13T18:00:00-03:00", "friday 6pm"), ("number", 90, "90")],
        ),
        (
            "charger tomorrow 8am up to 80%",
            "en",
            [("datetime", "2026-03-11T08:00:00-03:00", "tomorrow 8am"), ("number", 80, "80")],
        ),
        ("up to 90 percent", "en", [("number", 90, "90")]),
        ("carrega até 80,5% amanhã", "pt", [("number", 80.5, "80,5"), ("date", "2026-03-11", "amanhã")]),
        ("90 por cento", "pt", [("number", 90, "90")]),
    ],
)
def test_a_percentage_is_a_number(text: str, language: str, expected: list[tuple[str, object, str]]) -> None:
    assert read(text, language) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "recarga amanha 12h por 1 hora e meia",
            [
                ("datetime", "2026-03-11T12:00:00-03:00", "amanha 12h"),
                ("duration", "PT1H30M", "1 hora e meia"),
            ],
        ),
        ("por uma hora e meia", [("duration", "PT1H30M", "uma hora e meia")]),
        ("durante 2 horas e meia", [("duration", "PT2H30M", "2 horas e meia")]),
        # without "por" it is a time of day
        ("às 2 horas e meia", [("time", "02:30", "às 2 horas e meia")]),
    ],
)
def test_hours_after_por_are_how_long(text: str, expected: list[tuple[str, object, str]]) -> None:
    assert read(text, "pt") == expected


def test_thousands_of_reais_in_an_english_message() -> None:
    assert read("file a claim for 700k reais, crash yesterday", "en") == [
        ("money", {"amount": 700000, "currency": "BRL"}, "700k reais"),
        ("date", "2026-03-09", "yesterday"),
    ]
