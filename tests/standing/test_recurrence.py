"""Recurrences in a person's wall-clock time: local times stay put across daylight-saving changes,
missed ticks collapse to the latest, and the rules read back in words."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from shared.recurrence import Recurrence, RecurrenceError, describe_rule, interval_tick, shortest_gap

WEEKDAYS_9 = "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=9;BYMINUTE=0"


def ticks(recurrence: Recurrence, start: datetime, count: int) -> list[datetime]:
    found: list[datetime] = []
    tick = recurrence.next_after(start)
    while tick is not None and len(found) < count:
        found.append(tick)
        tick = recurrence.next_after(tick)
    return found


def test_weekday_nine_oclock_new_york_keeps_local_time_across_spring_forward() -> None:
    # US clocks go forward on Sunday 2026-03-08: 09:00 EST is 14:00 UTC, 09:00 EDT is 13:00 UTC
    r = Recurrence(WEEKDAYS_9, "America/New_York")
    found = ticks(r, datetime(2026, 3, 5, 12, tzinfo=UTC), 4)
    assert [t.isoformat() for t in found] == [
        "2026-03-05T14:00:00+00:00",  # Thursday, EST
        "2026-03-06T14:00:00+00:00",  # Friday, EST
        "2026-03-09T13:00:00+00:00",  # Monday, EDT
        "2026-03-10T13:00:00+00:00",
    ]
    assert {t.astimezone(ZoneInfo("America/New_York")).strftime("%a %H:%M") for t in found[2:]} == {
        "Mon 09:00",
        "Tue 09:00",
    }


def test_daily_lisbon_across_autumn_change_and_sao_paulo_without_dst() -> None:
    # Lisbon goes back on 2026-10-25: 08:00 WEST is 07:00 UTC, 08:00 WET is 08:00 UTC
    lisbon = Recurrence("FREQ=DAILY;BYHOUR=8;BYMINUTE=0", "Europe/Lisbon")
    found = ticks(lisbon, datetime(2026, 10, 23, 12, tzinfo=UTC), 3)
    assert [t.strftime("%d %H:%M") for t in found] == ["24 07:00", "25 08:00", "26 08:00"]
    # São Paulo has kept UTC-3 all year since 2019
    sao_paulo = Recurrence("FREQ=DAILY;BYHOUR=9;BYMINUTE=0", "America/Sao_Paulo")
    assert {t.hour for t in ticks(sao_paulo, datetime(2026, 1, 1, tzinfo=UTC), 200)} == {12}


def test_hourly_runs_once_per_wall_hour_through_both_changes() -> None:
    hourly = Recurrence("FREQ=HOURLY;BYMINUTE=0", "Europe/Lisbon")
    spring = ticks(hourly, datetime(2026, 3, 28, 23, 30, tzinfo=UTC), 5)
    # 01:00 local does not exist on 2026-03-29: no tick twice, none missing in UTC
    assert [t.strftime("%H:%M") for t in spring] == ["00:00", "01:00", "02:00", "03:00", "04:00"]
    assert len(set(spring)) == len(spring)
    autumn = ticks(hourly, datetime(2026, 10, 24, 23, 30, tzinfo=UTC), 5)
    assert all(b > a for a, b in itertools.pairwise(autumn))


def test_a_time_that_does_not_exist_runs_an_hour_later_local() -> None:
    r = Recurrence("FREQ=DAILY;BYHOUR=2;BYMINUTE=30", "America/New_York")
    found = ticks(r, datetime(2026, 3, 7, 12, tzinfo=UTC), 3)
    local = [t.astimezone(ZoneInfo("America/New_York")).strftime("%d %H:%M") for t in found]
    assert local == ["08 03:30", "09 02:30", "10 02:30"]


def test_latest_missed_tick_is_the_one_run() -> None:
    r = Recurrence(WEEKDAYS_9, "America/Sao_Paulo")
    # down from Friday 08:00 to Tuesday 10:00 local: Friday, Monday and Tuesday 09:00 were missed
    latest = r.latest_at_or_before(
        datetime(2026, 11, 24, 13, tzinfo=UTC), not_before=datetime(2026, 11, 20, 12, tzinfo=UTC)
    )
    assert latest == datetime(2026, 11, 24, 12, tzinfo=UTC)
    # Thursday 08:30, back since the 1st: Wednesday's 09:00, a day back
    assert r.latest_at_or_before(
        datetime(2026, 11, 26, 11, 30, tzinfo=UTC), not_before=datetime(2026, 11, 1, tzinfo=UTC)
    ) == datetime(2026, 11, 25, 12, tzinfo=UTC)
    minutely = Recurrence("FREQ=MINUTELY;INTERVAL=5", "UTC")
    assert minutely.latest_at_or_before(
        datetime(2026, 11, 26, 11, 33, tzinfo=UTC), not_before=datetime(2026, 11, 20, tzinfo=UTC)
    ) == datetime(2026, 11, 26, 11, 30, tzinfo=UTC)
    assert (
        r.latest_at_or_before(
            datetime(2026, 11, 24, 11, tzinfo=UTC), not_before=datetime(2026, 11, 24, 11, 30, tzinfo=UTC)
        )
        is None
    )


def test_interval_ticks_and_gaps() -> None:
    t0 = datetime(2026, 1, 1, tzinfo=UTC)
    assert interval_tick(t0, timedelta(minutes=5), t0 + timedelta(minutes=17)) == t0 + timedelta(minutes=15)
    assert interval_tick(t0, timedelta(minutes=5), t0 - timedelta(minutes=1)) == t0
    gap = shortest_gap(Recurrence("FREQ=MINUTELY;INTERVAL=2", "UTC"), t0)
    assert gap == timedelta(minutes=2)
    assert shortest_gap(Recurrence(WEEKDAYS_9, "UTC"), t0) == timedelta(days=1)


@pytest.mark.parametrize(
    ("rule", "language", "words"),
    [
        (WEEKDAYS_9, "pt", "Todo dia útil às 09:00"),
        (WEEKDAYS_9, "en", "Every weekday at 09:00"),
        ("FREQ=WEEKLY;BYDAY=MO;BYHOUR=8;BYMINUTE=0", "pt", "Toda segunda-feira às 08:00"),
        ("FREQ=WEEKLY;BYDAY=SA;BYHOUR=10;BYMINUTE=30", "pt", "Todo sábado às 10:30"),
        ("FREQ=WEEKLY;BYDAY=MO,WE;BYHOUR=8;BYMINUTE=0", "en", "Every Monday and Wednesday at 08:00"),
        ("FREQ=DAILY;BYHOUR=21;BYMINUTE=0", "en", "Every day at 21:00"),
        ("FREQ=HOURLY;BYMINUTE=0", "pt", "A cada hora"),
        ("FREQ=MINUTELY;INTERVAL=15", "en", "Every 15 minutes"),
    ],
)
def test_rules_in_words(rule: str, language: str, words: str) -> None:
    assert describe_rule(rule, language) == words


@pytest.mark.parametrize(
    ("rule", "zone"),
    [
        ("FREQ=YEARLY", "UTC"),
        ("FREQ=DAILY;COUNT=3", "UTC"),
        ("FREQ=DAILY;BYHOUR=25", "UTC"),
        ("FREQ=DAILY", "Mars/Olympus_Mons"),
        ("FREQ", "UTC"),
    ],
)
def test_unusable_rules_are_refused(rule: str, zone: str) -> None:
    with pytest.raises(RecurrenceError):
        Recurrence(rule, zone)
