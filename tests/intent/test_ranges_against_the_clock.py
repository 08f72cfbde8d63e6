"""Ranges of days and hours read against the conversation's clock: an end that names only the
day of the month takes the other end's month, a range of weekdays that contains today is next
week's, an hour of today already past is the later one, and a day and an hour said together are
on the day the day's own words give."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from intent.typed import RECOGNIZER

SAO_PAULO = "America/Sao_Paulo"
#: a Tuesday, mid-morning
NOW = datetime(2026, 3, 10, 10, 0, tzinfo=ZoneInfo(SAO_PAULO))


def dates(text: str, language: str) -> list[str]:
    spans = RECOGNIZER.spans(text, language, time_zone=SAO_PAULO, now=NOW)
    return [str(s.value) for s in spans if s.type == "date"]


@pytest.mark.parametrize(
    ("text", "language", "ends"),
    [
        ("do dia 20 ao 22", "pt", ["2026-03-20", "2026-03-22"]),
        ("de 20 a 22 de março", "pt", ["2026-03-20", "2026-03-22"]),
        ("de 20 a 22/03", "pt", ["2026-03-20", "2026-03-22"]),
        ("de 28 a 2 de abril", "pt", ["2026-03-28", "2026-04-02"]),
        ("do dia 28 ao 2", "pt", ["2026-03-28", "2026-04-02"]),
        ("from March 20 to 22", "en", ["2026-03-20", "2026-03-22"]),
    ],
)
def test_an_end_naming_only_the_day_of_the_month_takes_the_other_ends_month(
    text: str, language: str, ends: list[str]
) -> None:
    assert dates(text, language) == ends


@pytest.mark.parametrize(
    ("text", "language", "ends"),
    [
        ("de sábado a quarta", "pt", ["2026-03-14", "2026-03-18"]),
        ("aluga um carro de segunda a quarta", "pt", ["2026-03-16", "2026-03-18"]),
        ("rent a car from Monday to Wednesday", "en", ["2026-03-16", "2026-03-18"]),
    ],
)
def test_a_range_of_weekdays_that_contains_today_is_next_weeks(
    text: str, language: str, ends: list[str]
) -> None:
    assert dates(text, language) == ends


@pytest.mark.parametrize(
    ("text", "language", "value"),
    [
        ("hoje às 8", "pt", "2026-03-10T20:00:00-03:00"),
        ("today at 8", "en", "2026-03-10T20:00:00-03:00"),
        ("hoje às 11", "pt", "2026-03-10T11:00:00-03:00"),
        # a word for the half of the day keeps the hour said, past or not
        ("hoje às 8 da manhã", "pt", "2026-03-10T08:00:00-03:00"),
        ("amanhã às 8", "pt", "2026-03-11T08:00:00-03:00"),
        # the 24-hour clock names one hour: "8h" is never 20h
        ("hoje 8h", "pt", "2026-03-10T08:00:00-03:00"),
        ("hoje às 8h30", "pt", "2026-03-10T08:30:00-03:00"),
    ],
)
def test_an_hour_of_today_already_past_is_the_later_one(text: str, language: str, value: str) -> None:
    spans = RECOGNIZER.spans(text, language, time_zone=SAO_PAULO, now=NOW)
    assert [(s.type, s.value) for s in spans] == [("datetime", value)]


@pytest.mark.parametrize("text", ["das 14 às 16", "de 9 a 11 da manhã", "de 9 a 11"])
def test_a_range_of_hours_is_not_read_as_two_days(text: str) -> None:
    assert len(dates(text, "pt")) < 2


@pytest.mark.parametrize(
    ("text", "language", "value"),
    [
        # said on a Tuesday morning: Duckling alone joins the two into this evening
        ("na terça que vem às 10h", "pt", "2026-03-17T10:00:00-03:00"),
        ("terça que vem às 10", "pt", "2026-03-17T10:00:00-03:00"),
        ("terça que vem às 10 da noite", "pt", "2026-03-17T22:00:00-03:00"),
        ("sexta que vem às 15h", "pt", "2026-03-20T15:00:00-03:00"),
        # next week's Monday, which Duckling's Portuguese puts a week later, with an hour too
        ("segunda que vem às 17h", "pt", "2026-03-16T17:00:00-03:00"),
        ("domingo que vem 9h", "pt", "2026-03-22T09:00:00-03:00"),
        ("next tuesday at 10", "en", "2026-03-17T10:00:00-03:00"),
    ],
)
def test_a_day_and_an_hour_are_on_the_day_its_own_words_give(text: str, language: str, value: str) -> None:
    spans = RECOGNIZER.spans(text, language, time_zone=SAO_PAULO, now=NOW)
    assert [(s.type, s.value) for s in spans] == [("datetime", value)]
