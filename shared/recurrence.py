"""Recurrences of standing requests: an RFC 5545 RRULE read in a person's wall-clock time.

The rule is iterated by ``dateutil.rrule`` over naive local times and each occurrence is placed in
its IANA zone with ``zoneinfo``, so "every weekday at 09:00 America/New_York" stays at 09:00 local
across a daylight-saving change (13:00 UTC in summer, 14:00 UTC in winter). A local time that does
not exist on the day clocks go forward (02:30) runs at the same offset as before the change
(03:30 local); one that exists twice on the day clocks go back runs once, at its first occurrence.

>>> r = Recurrence("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=9;BYMINUTE=0", "America/New_York")
>>> r.next_after(datetime(2026, 3, 6, 15, 0, tzinfo=UTC)).isoformat()  # Friday, before the change
'2026-03-09T13:00:00+00:00'
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import cached_property
from itertools import pairwise
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from dateutil.rrule import rrule, rrulestr

#: RRULE parts a standing request may use; the rest (COUNT, UNTIL, BYSETPOS...) are refused so
#: every rule can be told back to the person in words.
ALLOWED_PARTS = frozenset({"FREQ", "INTERVAL", "BYDAY", "BYHOUR", "BYMINUTE"})
ALLOWED_FREQS = ("MINUTELY", "HOURLY", "DAILY", "WEEKLY")
WEEKDAYS = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")
#: How far back a missed tick is looked for, and forward a next one (a rule that never fires).
_HORIZON = timedelta(days=400)
#: How far around a moment its wall-time neighbours are looked at (more than any offset change).
_MARGIN = timedelta(hours=3)


class RecurrenceError(ValueError):
    """The rule or the time zone cannot be used; the message says why, for the person."""


def zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise RecurrenceError(f"unknown time zone {name!r}") from exc


def rule_parts(rule: str) -> dict[str, str]:
    """The ``KEY=VALUE`` parts of an RRULE (an optional ``RRULE:`` prefix is dropped)."""
    text = rule.strip().removeprefix("RRULE:")
    parts: dict[str, str] = {}
    for item in filter(None, text.split(";")):
        key, sep, value = item.partition("=")
        if not sep or not value:
            raise RecurrenceError(f"malformed recurrence part {item!r}")
        parts[key.strip().upper()] = value.strip().upper()
    return parts


@dataclass(frozen=True)
class Recurrence:
    """A rule and the zone its times are read in."""

    rule: str
    timezone: str

    def __post_init__(self) -> None:
        parts = rule_parts(self.rule)
        unknown = set(parts) - ALLOWED_PARTS
        if unknown:
            raise RecurrenceError(f"unsupported recurrence parts: {', '.join(sorted(unknown))}")
        if parts.get("FREQ") not in ALLOWED_FREQS:
            raise RecurrenceError(f"FREQ must be one of {', '.join(ALLOWED_FREQS)}")
        zone(self.timezone)
        try:
            self._rule_at(datetime(2026, 1, 1))
        except (ValueError, TypeError) as exc:
            raise RecurrenceError(f"invalid recurrence: {exc}") from exc

    @cached_property
    def parts(self) -> dict[str, str]:
        return rule_parts(self.rule)

    @cached_property
    def zone(self) -> ZoneInfo:
        return zone(self.timezone)

    def _rule_at(self, anchor: datetime) -> rrule:
        # Hourly and minutely intervals count from local midnight; the rule starts at the last
        # interval boundary before ``anchor`` (iterating from further back costs time per tick).
        start = anchor.replace(hour=0, minute=0, second=0, microsecond=0)
        freq, interval = self.parts.get("FREQ"), int(self.parts.get("INTERVAL", "1"))
        if freq in ("MINUTELY", "HOURLY"):
            step = timedelta(minutes=interval) if freq == "MINUTELY" else timedelta(hours=interval)
            start += ((anchor - start) // step) * step
        parsed = rrulestr(self.rule.strip().removeprefix("RRULE:"), dtstart=start)
        assert isinstance(parsed, rrule)
        return parsed

    def _utc(self, local: datetime) -> datetime:
        return local.replace(tzinfo=self.zone).astimezone(UTC)

    def next_after(self, after: datetime) -> datetime | None:
        """The first tick strictly after ``after`` (aware), in UTC; None if there is none."""
        local = after.astimezone(self.zone).replace(tzinfo=None)
        # from a little before, in wall time: an offset change moves wall times by up to hours
        rule = self._rule_at(local - _MARGIN)
        for candidate in rule.xafter(local - _MARGIN):
            if candidate - local > _HORIZON:
                return None
            tick = self._utc(candidate)
            if tick > after:
                return tick
        return None

    def latest_at_or_before(self, moment: datetime, *, not_before: datetime) -> datetime | None:
        """The last tick in ``[not_before, moment]``, in UTC (the missed tick to run once)."""
        local = moment.astimezone(self.zone).replace(tzinfo=None)
        rule = self._rule_at(local - _MARGIN)
        near = rule.between(local - _MARGIN, local + _MARGIN, inc=True)
        since = not_before.astimezone(self.zone).replace(tzinfo=None)
        earlier = self._rule_at(since - _MARGIN).before(local - _MARGIN)
        for candidate in [*reversed(near), *([earlier] if earlier is not None else [])]:
            tick = self._utc(candidate)
            if tick <= moment:
                return tick if tick >= not_before else None
        return None


def interval_tick(first: datetime, interval: timedelta, moment: datetime) -> datetime:
    """The latest tick of ``first + k * interval`` at or before ``moment`` (``first`` when earlier).

    >>> t0 = datetime(2026, 1, 1, tzinfo=UTC)
    >>> interval_tick(t0, timedelta(minutes=5), t0 + timedelta(minutes=17)).minute
    15
    """
    if moment <= first:
        return first
    return first + ((moment - first) // interval) * interval


_DAY_NAMES = {
    "pt": {
        "MO": "segunda-feira",
        "TU": "terça-feira",
        "WE": "quarta-feira",
        "TH": "quinta-feira",
        "FR": "sexta-feira",
        "SA": "sábado",
        "SU": "domingo",
    },
    "en": {
        "MO": "Monday",
        "TU": "Tuesday",
        "WE": "Wednesday",
        "TH": "Thursday",
        "FR": "Friday",
        "SA": "Saturday",
        "SU": "Sunday",
    },
}
_WORKDAYS = ["MO", "TU", "WE", "TH", "FR"]


def describe_rule(rule: str, language: str) -> str:
    """A rule in words, capitalised, in ``language`` ("pt" or "en"; other rules as written).

    >>> describe_rule("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=9;BYMINUTE=0", "pt")
    'Todo dia útil às 09:00'
    >>> describe_rule("FREQ=WEEKLY;BYDAY=MO;BYHOUR=8;BYMINUTE=0", "en")
    'Every Monday at 08:00'
    >>> describe_rule("FREQ=HOURLY;INTERVAL=2;BYMINUTE=0", "pt")
    'A cada 2 horas'
    """
    pt = language == "pt"
    parts = rule_parts(rule)
    freq, interval = parts.get("FREQ"), int(parts.get("INTERVAL", "1"))
    days = [d for d in parts.get("BYDAY", "").split(",") if d]
    names = _DAY_NAMES["pt" if pt else "en"]
    if freq == "WEEKLY" and days == _WORKDAYS:
        words = "Todo dia útil" if pt else "Every weekday"
    elif freq == "WEEKLY" and days and all(d in names for d in days):
        listed = [names[d] for d in days]
        joined = (
            listed[0]
            if len(listed) == 1
            else ", ".join(listed[:-1]) + (" e " if pt else " and ") + listed[-1]
        )
        first_masculine = days[0] in ("SA", "SU")
        words = f"{'Todo' if first_masculine else 'Toda'} {joined}" if pt else f"Every {joined}"
    elif freq == "DAILY" and interval == 1:
        words = "Todo dia" if pt else "Every day"
    elif freq == "HOURLY":
        if interval == 1:
            words = "A cada hora" if pt else "Every hour"
        else:
            words = f"A cada {interval} horas" if pt else f"Every {interval} hours"
        return words
    elif freq == "MINUTELY":
        return f"A cada {interval} minutos" if pt else f"Every {interval} minutes"
    else:
        return rule
    if "BYHOUR" in parts and "," not in parts["BYHOUR"]:
        clock = f"{int(parts['BYHOUR']):02d}:{int(parts.get('BYMINUTE', '0')):02d}"
        words += f" às {clock}" if pt else f" at {clock}"
    return words


def shortest_gap(recurrence: Recurrence, start: datetime, *, samples: int = 8) -> timedelta | None:
    """The shortest time between consecutive ticks among the first few after ``start`` (a
    per-tenant minimum interval is checked against it)."""
    ticks: list[datetime] = []
    tick = recurrence.next_after(start)
    while tick is not None and len(ticks) < samples:
        ticks.append(tick)
        tick = recurrence.next_after(tick)
    gaps = [b - a for a, b in pairwise(ticks)]
    return min(gaps) if gaps else None
