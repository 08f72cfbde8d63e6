"""Typed entities: dates, times, durations, numbers, money, emails, phones and URLs, recognised
by Duckling (``pyduckling-native-phihos``: the Haskell library Rasa uses, as a wheel) and
normalised to the contract the manifest publishes (``shared.manifest.TYPED_ENTITY_TYPES``):

* ``date``: ``"2026-11-27"``; ``time``: ``"14:00"``; ``datetime``: ``"2026-11-27T14:00:00-03:00"``
  (ISO 8601, resolved against the conversation's clock and time zone);
* ``duration``: ISO 8601 (``"PT2H"``, ``"P3D"``); ``number``: an ``int`` or ``float``;
* ``money``: ``{"amount": 20, "currency": "USD"}``;
* ``email``, ``url``: the text; ``phone``: digits, ``+`` first when the person wrote one.

A time whose day the words do not give ("às 14h") is a ``time``, never a ``datetime``: a day
nobody said is no value (``bench/typed_entities_eval.py`` measures the candidates).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from datetime import date, datetime, time, timedelta
from functools import cache, lru_cache
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import duckling
from dateutil.relativedelta import relativedelta
from rapidfuzz.distance import OSA

from shared.clock import utcnow
from shared.entities import TypedValue

#: Duckling's dimensions, by the manifest's type that each gives.
_DIMENSIONS = ["time", "number", "amount-of-money", "duration", "email", "phone-number", "url"]
#: Duckling's measures ("2kg", "1/2 kg", "um quilo", "500ml", "3 pounds"): read so that a unit glued
#: to its count ("2kg") and a fraction before one ("1/2 kg", else a date) give the count as written.
_MEASURES = ["quantity", "volume"]
_LOCALES = {"pt": ("PT", "PT_BR"), "en": ("EN", "EN_US")}
_CURRENCY_SIGNS = {"$": "USD", "€": "EUR", "£": "GBP", "¥": "JPY"}
#: A month's short name that is also an everyday word ("dez pessoas" is ten people, "passeio no mar"
#: the sea, "um set de 3" a set): alone, with no day or year beside it ("dez/26"), it names no month.
_SHORT_MONTH_ALONE = re.compile(
    r"(?:(?:um|uma|o|a)\s+)?(?:dez|mar|set|out|jan|jun|jul|ago|abr|fev|sep|dec|oct|feb|apr|aug)\.?",
    re.IGNORECASE,
)
#: Fewer digits than any phone number with its area code.
_PHONE_DIGITS = 8
_DAY_GRAINS = frozenset({"day", "week", "month", "year", "quarter"})
#: How long a period of each grain lasts ("essa semana", "este mês"), for the grains longer than a day.
_GRAIN_LENGTH = {
    "week": relativedelta(weeks=1),
    "month": relativedelta(months=1),
    "quarter": relativedelta(months=3),
    "year": relativedelta(years=1),
}
_WHOLE_YEAR = re.compile(r"\b\d{4}\b")
#: Chat shorthands Duckling does not know, written out before it reads the text (offsets kept).
_SHORTHANDS = {
    "hj": "hoje",
    "amn": "amanhã",
    "tmr": "tomorrow",
    "tmrw": "tomorrow",
    "tmw": "tomorrow",
    # Duckling's Portuguese reads no half hour as a duration
    "meia hora": "30 minutos",
    "meia-hora": "30 minutos",
}
_SHORTHAND_WORD = re.compile(r"\b(" + "|".join(_SHORTHANDS) + r")\b", re.IGNORECASE)
#: "1º", "2ª": an ordinal sign Duckling stops at ("dia 1º de março" would read as "dia 1").
_ORDINAL_SIGN = re.compile(r"(?<=\d)[ºª°]")
#: The space between noon or midnight and a number, which Duckling reads as minutes ("meio dia 2
#: pessoas" as 12:02; people say "meio-dia e dez"): a comma is put there before it reads.
_NOON_BEFORE_NUMBER = re.compile(r"(?:(?<=meio[- ]dia)|(?<=meia[- ]noite))\s+(?=\d)", re.IGNORECASE)
#: The space between hours written with "h" and a count of something ("18h 6 pessoas"), which
#: Duckling reads as minutes (18:06): a comma is put there before it reads. Minutes said as such
#: ("18h 30 min") stay minutes.
_HOURS_BEFORE_A_COUNT = re.compile(
    r"(?<=\dh)\s+(?=\d{1,2}\s+(?!(?:min|mins|minutos?|minutes?)\b)[^\W\d_])", re.IGNORECASE
)
#: The "ao" of "amanhã ao meio-dia", which Duckling reads as "until" (midnight to 1 pm, so only
#: the day was kept): dropped before it reads.
_AT_NOON = re.compile(r"\bao\s+(?=mei[oa][- ](?:dia|noite)\b)", re.IGNORECASE)
#: A count written with a times sign ("ingresso duna 2x", "x3", "2×"): the sign is dropped before
#: Duckling reads, and the number keeps the sign's word edges ("4x4" is neither).
_TIMES_SIGN = re.compile(r"(?<=\b\d)[x×](?!\w)|(?<=\b\d\d)[x×](?!\w)|(?<!\w)[x×](?=\d{1,2}\b)", re.IGNORECASE)
#: Everything :func:`_expanded` rewrites, in one pattern.
_REWRITES = re.compile(
    "|".join(
        p.pattern
        for p in (
            _SHORTHAND_WORD,
            _ORDINAL_SIGN,
            _NOON_BEFORE_NUMBER,
            _HOURS_BEFORE_A_COUNT,
            _AT_NOON,
            _TIMES_SIGN,
        )
    ),
    re.IGNORECASE,
)
#: Currency words Duckling's Portuguese misses ("100 dólares"), and the real's slang after an
#: amount ("30 conto", "50 pila").
_PT_CURRENCIES = re.compile(
    r"(?P<amount>\d+(?:[.,]\d+)?)\s*(?P<unit>d[oó]lar(?:es)?|euros?|libras?|ienes?|contos?|pilas?)\b",
    re.IGNORECASE,
)
#: the dollar's slang after an amount in English ("15 bucks")
_EN_CURRENCIES = re.compile(r"(?P<amount>\d+(?:[.,]\d+)?)\s*(?P<unit>bucks?)\b", re.IGNORECASE)
_EN_UNITS = {"buc": "USD"}
_PT_UNITS = {"dol": "USD", "dól": "USD", "eur": "EUR", "lib": "GBP", "ien": "JPY", "con": "BRL", "pil": "BRL"}
#: The real's sign and name in a message in English ("refund R$ 25", "30 reais"), which only
#: Duckling's Portuguese reads as money: that reading is asked for when they occur.
_REAL = re.compile(r"R\$|\dk?\s*reais\b", re.IGNORECASE)
#: A code, letters then digits ("IM2055", "TK4821", "P13"): no number, amount or day. A times
#: sign is no code ("tickets x3").
_CODE_DIGITS = re.compile(r"\b(?![xX]\d)([^\W\d_]+)(\d+)")
#: A percentage ("até 80%", "up to 90 percent"): a number, never a year nor a day ("friday 6pm up
#: to 90%" is no Friday of 1990).
_PERCENT = re.compile(r"\b(\d+(?:[.,]\d+)?)(\s*(?:%|percent\b|per\s+cent\b|por\s*cento\b))", re.IGNORECASE)
#: A comma or a point between digits: English groups thousands with the one and writes decimals
#: with the other, Portuguese the other way round.
_DIGIT_MARK = re.compile(r"(?<=\d)[,.](?=\d)")
#: A part of the day said with no day: "de manhã", "à tarde", "in the evening" ("tonight",
#: "hoje à noite", "friday morning" name their day).
_PART_OF_DAY_ALONE = re.compile(
    r"(?:\s*\b(?:de|da|do|à|a|na|no|pela|pelo|in|the|of|early|late|manh[aã]|tarde|noite|madrugada"
    r"|morning|afternoon|evening|night)\b)+\s*",
    re.IGNORECASE,
)
#: A weekday and "que vem" ("segunda que vem"): that day of next week.
_COMING_WEEKDAY = re.compile(
    r"\b(?:segunda|ter[cç]a|quarta|quinta|sexta|s[aá]bado|domingo)(?:-feira)?\s+que\s+vem\b", re.IGNORECASE
)
_WEEK = 7
#: A determiner up to two words before the end: the English "one" after it is a pronoun.
_DETERMINED = re.compile(r"\b(?:the|that|this|which|another|other|each)(?:\s+\S+){0,2}\s+$", re.IGNORECASE)
#: "the first *one*", "the second *ones*": an ordinal that picks among things said, no day
_PICKED_ONE = re.compile(r"\s+ones?\b", re.IGNORECASE)
_ORDINAL_WORD = re.compile(
    r"\b(?:first|second|third|fourth|fifth|last|1st|2nd|3rd|4th|5th)\s*$", re.IGNORECASE
)


@dataclass(frozen=True)
class Clock:
    """The conversation's clock: the instant a message is read at and the person's time zone."""

    now: datetime
    time_zone: str = "UTC"

    @classmethod
    def of(cls, context: dict[str, Any] | None, default_zone: str = "UTC") -> Clock:
        """From a parse ``context``: ``time_zone`` (IANA name; an unknown one is ignored) and
        ``now`` (an aware datetime or ISO text; the platform's clock otherwise)."""
        context = context or {}
        zone = valid_time_zone(context.get("time_zone"), valid_time_zone(default_zone))
        now = context.get("now")
        if isinstance(now, str):
            try:
                now = datetime.fromisoformat(now)
            except ValueError:
                now = None
        if not isinstance(now, datetime) or now.tzinfo is None:
            now = utcnow()
        return cls(now=now, time_zone=zone)

    def local(self) -> datetime:
        """Now, in the person's time zone."""
        return self.now.astimezone(ZoneInfo(self.time_zone))


@dataclass(frozen=True)
class TypedSpan:
    """A typed value and where the person wrote it (character offsets in the original text)."""

    type: str
    value: TypedValue
    start: int
    end: int
    #: A day that repeats ("sexta", "dia 12", "1º de março") is read as its next time; this is
    #: its last time up to now, for an entity whose days are already past (an incident).
    earlier: TypedValue | None = field(default=None, kw_only=True)
    #: The time that ends a range of hours ("das 14h *às 16h*", "from 2 *to 4pm*"): how long the
    #: range lasts (ISO 8601), for a goal that reads a start and a duration.
    lasting: str | None = field(default=None, kw_only=True)

    def leaning_past(self) -> TypedSpan:
        """This span with its last time up to now as its value, when its day repeats."""
        return self if self.earlier is None else replace(self, value=self.earlier, earlier=None)

    def as_lasting(self) -> TypedSpan:
        """This span as the duration of the range it ends, when it ends one."""
        if self.lasting is None:
            return self
        return replace(self, type="duration", value=self.lasting, lasting=None)


def zone_directory() -> Path:
    """The IANA zone files Duckling reads: the ``tzdata`` package's, else the system's."""
    try:
        import tzdata

        return Path(tzdata.__file__).parent / "zoneinfo"
    except ImportError:  # pragma: no cover - tzdata is a dependency
        return Path("/usr/share/zoneinfo")


def valid_time_zone(name: str | None, default: str = "UTC") -> str:
    """``name`` when it is an IANA zone ("America/Sao_Paulo"), else ``default``."""
    if not name:
        return default
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return default
    return name


@cache
def _zones() -> Any:
    return duckling.load_time_zones(str(zone_directory()))


@cache
def _locale(language: str) -> Any:
    lang, locale = _LOCALES.get(language, _LOCALES["en"])
    return duckling.parse_locale(locale, duckling.default_locale_lang(duckling.parse_lang(lang)))


@cache
def _dimensions() -> Any:
    return duckling.parse_dimensions(_DIMENSIONS + _MEASURES)


@cache
def _number_dimension() -> Any:
    return duckling.parse_dimensions(["number"])


@cache
def _measure_dimensions() -> Any:
    return duckling.parse_dimensions(_MEASURES)


def names_a_currency(value: str, language: str) -> bool:
    """Whether ``value`` is a currency's name ("dólar", "euro", "yen"): Duckling reads "1 <value>"
    as an amount of money, all of it ("Real Madrid" is no currency: only "1 real" would be)."""
    text = f"1 {value}"
    spans = RECOGNIZER.spans(text, language, time_zone="UTC", now=utcnow())
    return any(span.type == "money" and span.start == 0 and span.end == len(text) for span in spans)


class TypedEntityRecognizer:
    """Stateless apart from Duckling's loaded tables; one per process is enough."""

    def spans(self, text: str, language: str, *, time_zone: str, now: datetime) -> list[TypedSpan]:
        """Every typed value in ``text``, in order. ``now``: the conversation's clock (aware)."""
        zone = valid_time_zone(time_zone)
        # to the minute: the goals' extractors of one message share one read
        instant = int(now.timestamp()) // 60 * 60
        return list(_spans_cached(text, language, zone, instant))


RECOGNIZER = TypedEntityRecognizer()


@lru_cache(maxsize=512)
def _spans_cached(text: str, language: str, zone: str, instant: int) -> tuple[TypedSpan, ...]:
    """One Duckling read per message and clock minute: every goal's extractor asks for the same.
    Codes are read as marks that join no words (blanks would join "no" and "quinta" around one):
    "visita no IM2055 quinta às 16h" is no Thursday of the year 2055 but a Thursday at 16:00,
    and "uma P13 amanhã" is no "uma p" (1 p.m.) but tomorrow."""
    text = _CODE_DIGITS.sub(lambda m: "#" * len(m.group()), text)
    percentages = [
        TypedSpan("number", _number(float(m.group(1).replace(",", "."))), m.start(1), m.end(1))
        for m in _PERCENT.finditer(text)
    ]
    text = _PERCENT.sub(lambda m: " " * len(m.group()), text)
    read = _read(text, language, zone, instant) + percentages
    kept = _without_overlaps(read)
    if len(kept) < len(read):
        # a longer reading won over one that also held other words: "for 2 on Sunday at 9pm"
        # is read as "2 on Sunday" (02:00) and "on Sunday at 9pm"; the second wins and the 2 was
        # nobody's. The words no kept reading covers are read again on their own.
        masked = "".join(" " if any(k.start <= i < k.end for k in kept) else c for i, c in enumerate(text))
        kept += [
            span
            for span in _without_overlaps(_read(masked, language, zone, instant))
            if not _overlapping(span, kept)
        ]
    # a measure is the count as written, over its own words: the unit's ("kg" of "2kg") and the
    # product's ("de tomate") are left to the goal's enums and names
    counts = [
        TypedSpan("number", s.value, s.start, s.count_end) if isinstance(s, _Measure) else s for s in kept
    ]
    # "3 of us", "4 de nós": the count is of the people asking, and its words are the count's
    counts = [
        replace(s, end=party.end()) if s.type == "number" and (party := _OF_US.match(text, s.end)) else s
        for s in counts
    ]
    return tuple(_the_day_after(text, _clock_ranges(text, sorted(counts, key=lambda s: s.start))))


#: The words after a count that say it counts the people asking: "3 *of us*", "4 *de nós*".
_OF_US = re.compile(r"\s+(?:of\s+us|de\s+n[oó]s|da\s+gente)\b", re.IGNORECASE)
#: The last word of such a count, accent-free: a count of people, never an amount of money.
PARTY_ENDS = frozenset({"us", "nos", "gente"})

#: A day named by the one before it: "amanhã e *o dia seguinte*", "Friday and *the day after*".
_THE_DAY_AFTER = re.compile(
    r"\b(?:(?:the|o)\s+)?(?:day\s+after(?!\s+tomorrow)|next\s+day|following\s+day|dia\s+seguinte)\b",
    re.IGNORECASE,
)


def _next_day(day: str) -> str:
    return (date.fromisoformat(day) + timedelta(days=1)).isoformat()


def _the_day_after(text: str, spans: list[TypedSpan]) -> list[TypedSpan]:
    """ "The day after" is the day after the day said before it (Duckling reads "the day" as
    today); with no day before it, "the day after" names none."""
    for m in _THE_DAY_AFTER.finditer(text):
        before = [s for s in spans if s.type == "date" and s.end <= m.start()]
        rest = [s for s in spans if s.end <= m.start() or s.start >= m.end()]
        if before and isinstance(before[-1].value, str):
            said = before[-1]
            earlier = _next_day(said.earlier) if isinstance(said.earlier, str) else None
            rest.append(TypedSpan("date", _next_day(str(said.value)), m.start(), m.end(), earlier=earlier))
        elif m.group().lower().endswith("after"):
            pass  # nothing to be after: the words say no day
        else:
            continue  # "the next day", "no dia seguinte" alone: tomorrow, as Duckling reads them
        spans = sorted(rest, key=lambda s: s.start)
    return spans


def _read(text: str, language: str, zone: str, instant: int) -> list[TypedSpan]:
    """Every reading Duckling gives of ``text``, overlapping ones included."""
    clean, origin = _expanded(text)
    out: list[TypedSpan] = []
    for hit in _parse(clean, language, zone, instant):
        start, end = origin[hit["start"]], origin[hit["end"] - 1] + 1
        if hit["dim"] in _MEASURES:
            measure = _measure(hit, clean, origin, text, language, start, end)
            if measure is not None:
                out.append(measure)
            continue
        if (
            hit["dim"] == "time"
            and _SHORT_MONTH_ALONE.fullmatch(text[start:end])
            and text[end : end + 1] != "/"
        ):
            continue
        if not _on_word_edges(text, start, end):
            glued = _glued_count(hit, text, start, end)
            if glued is not None:
                out.append(glued)
            continue  # "ABC123" is a code, not the number 123
        ends = (
            _range_of_days(hit, text, start, end, language, zone, instant)
            or _range_of_amounts(hit, text, start, end)
            or _a_time_for_a_while(hit, text, start, end, language, zone, instant)
            or _a_clock_range(hit, text, start, end, language, zone, instant)
        )
        if ends is not None:
            out.extend(ends)
            continue
        out.extend(_normalised(hit, clean, language, zone, instant, start, end))
    out = _with_halves(text, language, out)
    out = _with_currency_words(text, language, out)
    if language != "pt" and _REAL.search(text):
        reais = _money_in_portuguese(text, zone, instant)
        # "under 2000 reais": English reads a bound with no currency where Portuguese reads reais
        out = [s for s in out if not (_without_currency(s) and _overlapping(s, reais))] + reais
    return out


def _without_currency(span: TypedSpan) -> bool:
    return span.type == "money" and isinstance(span.value, dict) and span.value.get("currency") is None


def _overlapping(span: TypedSpan, others: list[TypedSpan]) -> bool:
    return any(span.start < other.end and other.start < span.end for other in others)


@dataclass(frozen=True)
class _Measure(TypedSpan):
    """A count said with its unit ("2kg de tomate", "meio quilo", "3un"), while readings compete:
    ``start``-``end`` covers the count and its unit, ``count_end`` where the count's words end.
    It leaves :func:`_spans_cached` as a ``number`` over the count's words alone."""

    count_end: int


#: Units Duckling's measures do not read (its quantity knows "kg", "g", "quilo", "lb", its volume
#: "l", "ml"; neither knows "kilo", "kgs" nor a shop's count abbreviations): a count glued to one
#: ("3un", "2kilos") is a count, and a half before one ("half a kilo") half of one. Kept small:
#: every other glued word stays a code or nothing ("RD8812", "3rd").
_COUNT_UNITS = frozenset({"kilo", "kilos", "quilo", "quilos", "kgs", "un", "und", "unid", "pct", "pcs"})
#: Duckling reads no half ("meio quilo", "half a kilo", "um quilo e meio", "2 and a half"), and
#: takes "meia dúzia" and "half a dozen" for a dozen: these words halve or add a half.
_HALF_BEFORE = re.compile(r"\b(?:mei[oa]|half)(?:\s+an?)?\s+$", re.IGNORECASE)
_HALF_OF = re.compile(r"\b(?:mei[oa]|half)(?:\s+an?)?(?=\s+([^\W\d_]+)\b)", re.IGNORECASE)
_AND_A_HALF = re.compile(r"\s+(?:e\s+mei[oa]|and\s+a\s+half)\b", re.IGNORECASE)
_WORD_AFTER = re.compile(r"\s+([^\W\d_]+)\b")
_GLUED_LETTERS = re.compile(r"[^\W\d_]+")
#: Of a number written in words, the least that half of is still a count ("meia dúzia", "half a
#: million"; "half two" is a time of day).
_HALVED_FROM = 12


def _measure(
    hit: dict[str, Any], clean: str, origin: list[int], text: str, language: str, start: int, end: int
) -> _Measure | None:
    """A reading of Duckling's measures as the count written ("2kg de tomate" 2, "1/2 kg" 0.5,
    "dois quilos" 2: not Duckling's 2000 grams) over the count and its unit, without the product
    it joins to them; ``None`` when no number opens it ("a kg") or it is half a decimal
    ("1.5kg" in Portuguese, read as "1" and "5kg")."""
    if not _on_word_edges(text, start, end) or _in_a_decimal(text, start, end):
        return None
    body = clean[hit["start"] : hit["end"]]
    count = _leading_number(body, language)
    if count is None:
        return None
    value, length = count
    product = hit["value"].get("product")
    if isinstance(product, str) and product and body.rstrip().endswith(product):
        head = re.sub(r"\s+(?:de|do|da|of)?\s*$", "", body[: body.rstrip().rfind(product)], flags=re.I)
        if len(head) > length:
            end = origin[hit["start"] + len(head) - 1] + 1
    return _Measure("quantity", value, start, end, origin[hit["start"] + length - 1] + 1)


_DIGITS_FIRST = re.compile(r"\d+(?:[.,]\d+)?(?:\s*/\s*\d+)?")


@lru_cache(maxsize=256)
def _leading_number(body: str, language: str) -> tuple[int | float, int] | None:
    """The number that opens ``body`` and how many characters it takes ("2kg" -> (2, 1))."""
    digits = _DIGITS_FIRST.match(body)
    if digits is not None:
        # the digits alone: glued to its unit, Duckling reads "2l" as two lakh, "500g" as giga
        body = digits.group()
    hits = [h for h in _parse(body, language, "UTC", 0, _number_dimension()) if h["start"] == 0]
    if not hits:
        return None
    first = max(hits, key=lambda h: h["end"])
    return _number(first["value"]["value"]), first["end"]


def _in_a_decimal(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` is one side of a decimal point ("1.5kg")."""
    return bool(
        re.search(r"\d[.,]$", text[max(0, start - 2) : start]) or re.match(r"[.,]\d", text[end : end + 2])
    )


def _glued_count(hit: dict[str, Any], text: str, start: int, end: int) -> _Measure | None:
    """A number glued to a unit of :data:`_COUNT_UNITS` ("3un", "2kilos") as a count."""
    if hit["dim"] != "number" or not text[start:end].isdigit():
        return None
    letters = _GLUED_LETTERS.match(text, end)
    if letters is None or letters.group().lower() not in _COUNT_UNITS:
        return None
    if not _on_word_edges(text, start, letters.end()) or _in_a_decimal(text, start, end):
        return None
    return _Measure("quantity", _number(hit["value"]["value"]), start, letters.end(), end)


@lru_cache(maxsize=256)
def _a_unit(word: str, language: str) -> bool:
    """Whether ``word`` is a unit: one of :data:`_COUNT_UNITS`, or Duckling reads "1 <word>" as a
    measure ("quilo", "kg", "litro"; not "hora", "pacote" nor "entrada")."""
    if word.lower() in _COUNT_UNITS:
        return True
    text = f"1 {word}"
    return any(
        h["start"] == 0 and h["end"] == len(text)
        for h in _parse(text, language, "UTC", 0, _measure_dimensions())
    )


@lru_cache(maxsize=4096)
def measures(word: str, language: str) -> bool:
    """Whether ``word`` is a unit of measure ("litros", "kg", "ml"), which says how big a thing is
    rather than how many of it ("un", "pct" count)."""
    return word.lower() not in _COUNT_UNITS and _a_unit(word, language)


def _with_halves(text: str, language: str, spans: list[TypedSpan]) -> list[TypedSpan]:
    """The halves Duckling does not read: "um quilo e meio", "2 and a half kilos" add one to
    their count; "meia dúzia", "half a dozen" halve theirs; "meio quilo", "half a kilo" are
    half of one (the count over the half's words, the unit's left to the goal)."""
    out: list[TypedSpan] = []
    for span in spans:
        if span.type in ("number", "quantity") and isinstance(span.value, int | float):
            span = _half_of(text, _and_a_half(text, language, span))
        out.append(span)
    for half in _HALF_OF.finditer(text):
        if any(s.start <= half.start() < s.end or s.start <= half.start(1) < s.end for s in out):
            continue  # "meio-dia", "meia dúzia", "um quilo e meio": read already
        if _a_unit(half.group(1), language):
            out.append(_Measure("quantity", 0.5, half.start(), half.end(1), half.end()))
    return out


def _and_a_half(text: str, language: str, span: TypedSpan) -> TypedSpan:
    """``span`` with the half said after it or after its unit ("um quilo e meio")."""
    assert isinstance(span.value, int | float)
    after = _AND_A_HALF.match(text, span.end)
    if after is not None:
        return replace(span, value=_number(span.value + 0.5), end=after.end())
    unit = _WORD_AFTER.match(text, span.end)
    if span.type == "number" and unit is not None and _a_unit(unit.group(1), language):
        after = _AND_A_HALF.match(text, unit.end())
        if after is not None:  # "2 kilos e meio": the count is 2.5, the unit still a word of its own
            return _Measure("quantity", _number(span.value + 0.5), span.start, after.end(), span.end)
    return span


def _half_of(text: str, span: TypedSpan) -> TypedSpan:
    """``span`` halved when a half is said before it: "meia dúzia" (Duckling's "dúzia", 12) is 6."""
    assert isinstance(span.value, int | float)
    before = _HALF_BEFORE.search(text, 0, span.start)
    if before is None:
        return span
    written = text[span.start : span.end]
    if span.type == "quantity" or (span.value >= _HALVED_FROM and not any(c.isdigit() for c in written)):
        return replace(span, value=_number(span.value / 2), start=before.start())
    return span


def _money_in_portuguese(text: str, zone: str, instant: int) -> list[TypedSpan]:
    """The amounts in reais of a message in another language, as Portuguese reads them; they
    are longer than the bare numbers read before, so they win over them. The message's digits
    are grouped its own way ("R$ 6,000.50"): Portuguese reads them with the marks swapped."""
    clean, origin = _expanded(_DIGIT_MARK.sub(lambda m: "." if m.group() == "," else ",", text))
    out: list[TypedSpan] = []
    for hit in _parse(clean, "pt", zone, instant):
        if hit["dim"] != "amount-of-money":
            continue
        start, end = origin[hit["start"]], origin[hit["end"] - 1] + 1
        if _on_word_edges(text, start, end):
            out.extend(_normalised(hit, clean, "pt", zone, instant, start, end))
    return out


#: Of two readings of the same words, the more specific: "2 horas" is a duration, not 2 o'clock;
#: "20/12" a date, not a fraction.
_PRIORITY = {
    "quantity": 1,
    "money": 0,
    "email": 0,
    "url": 0,
    "phone": 0,
    "duration": 1,
    "datetime": 2,
    "date": 3,
    "time": 3,
}


def _without_overlaps(spans: list[TypedSpan]) -> list[TypedSpan]:
    """The longest reading of any stretch of text, the more specific type on a tie."""
    kept: list[TypedSpan] = []
    for span in sorted(spans, key=lambda s: (s.start - s.end, _PRIORITY.get(s.type, 9))):
        if not _overlapping(span, kept):
            kept.append(span)
    return kept


def clear_caches() -> None:
    """Forget the messages read (a benchmark times fresh reads)."""
    _spans_cached.cache_clear()
    _said_day.cache_clear()


def _parse(
    text: str, language: str, zone: str, instant: int, dimensions: Any | None = None
) -> list[dict[str, Any]]:
    """Duckling's hits in ``text`` at ``instant`` in ``zone``, of every dimension read here unless
    ``dimensions`` (a ``parse_dimensions`` result) narrows them."""
    reference = duckling.parse_ref_time(_zones(), zone, instant)
    context = duckling.Context(reference, _locale(language))
    found: list[dict[str, Any]] = duckling.parse(text, context, dimensions or _dimensions(), False)
    return found


def _expanded(text: str) -> tuple[str, list[int]]:
    """``text`` with shorthands written out, ordinal signs and the "ao" before noon or midnight
    dropped, and a comma between noon or midnight and a number; and for every character of the
    result the offset of the original character it came from."""
    # a shorthand written out, a comma after noon; an ordinal or a times sign, "ao " dropped
    rewrites = [
        (m.start(), m.end(), ", " if m.group().isspace() else _SHORTHANDS.get(m.group().lower(), ""))
        for m in _REWRITES.finditer(text)
    ]
    # a weekday's name with a typing slip, as it was meant ("thrusday")
    rewrites += [
        (m.start(), m.end(), meant)
        for m in _LONG_WORD.finditer(text)
        if (meant := _weekday_meant(m.group())) is not None
        and not any(start < m.end() and m.start() < end for start, end, _ in rewrites)
    ]
    out: list[str] = []
    origin: list[int] = []
    pos = 0
    for start, end, replacement in sorted(rewrites):
        out.append(text[pos:start])
        origin.extend(range(pos, start))
        out.append(replacement)
        origin.extend([start] * len(replacement))
        if replacement:
            origin[-1] = end - 1
        pos = end
    out.append(text[pos:])
    origin.extend(range(pos, len(text)))
    origin.append(len(text))
    return "".join(out), origin


#: A word long enough to be a weekday's name written with a slip.
_LONG_WORD = re.compile(r"\b[^\W\d_]{5,}\b")
#: English weekdays (Portuguese ones are too near other words: "quarta" and "quanta").
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
#: Portuguese weekdays, meant only through two letters swapped side by side ("sexat", "qiunta"):
#: one letter off is as often another word ("sesta", "quanta", "terra").
_WEEKDAYS_PT = ("segunda", "terça", "terca", "quarta", "quinta", "sexta", "sábado", "sabado", "domingo")
#: Slips allowed in a weekday's name by its length: two in the longest ("wensday"), one in the
#: middle ones ("tuesdy"), only two letters swapped in the shortest ("firday"; "sundae" is a word).
_TWO_SLIPS, _ONE_SLIP = 8, 7


def _weekday_meant(word: str) -> str | None:
    """The weekday ``word`` is with a typing slip, when it is not one as written: "thrusday",
    "wensday", "tuesdy", "firday", "sexat", "qiunta". Swapped letters are one slip."""
    lowered = word.lower()
    if lowered in _WEEKDAYS or lowered.rstrip("s") in _WEEKDAYS:
        return None
    for day in _WEEKDAYS:
        if lowered[0] != day[0]:
            continue
        if len(day) < _ONE_SLIP and sorted(lowered) != sorted(day):
            continue
        budget = 2 if len(day) >= _TWO_SLIPS else 1
        if OSA.distance(lowered, day, score_cutoff=budget) <= budget:
            return day
    if lowered in _WEEKDAYS_PT:
        return None
    for day in _WEEKDAYS_PT:
        if sorted(lowered) == sorted(day) and OSA.distance(lowered, day, score_cutoff=1) == 1:
            return day
    return None


def _on_word_edges(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` is whole words, a times sign glued to a count included."""
    if end < len(text) and _TIMES_SIGN.match(text, end):
        end += 1
    elif start > 0 and _TIMES_SIGN.match(text, start - 1):
        start -= 1
    before = text[start - 1] if start > 0 else " "
    after = text[end] if end < len(text) else " "
    return not (before.isalnum() or after.isalnum())


def _normalised(
    hit: dict[str, Any], clean: str, language: str, zone: str, instant: int, start: int, end: int
) -> Iterable[TypedSpan]:
    dim, value = hit["dim"], hit["value"]
    if dim == "time":
        moment = _time_value(value)
        if moment is None:
            return
        stamp, grain = moment
        if grain == "second":
            return  # "agora", "now": the moment of asking, no value a person chose
        body = clean[hit["start"] : hit["end"]]
        if grain == "year" and body.strip().isdigit():
            return  # "tá marcando 1560": a number, no year (and no day of one)
        if _PICKED_ONE.match(clean, hit["end"]) and _ORDINAL_WORD.search(body):
            return  # "book the *first* one": which of the things listed, no first of the month
        if grain not in _DAY_GRAINS:
            stamp = _not_past(value, _as_written(value, stamp, body), body, instant)
        when = datetime.fromisoformat(stamp)
        if grain in _DAY_GRAINS:
            if _PART_OF_DAY_ALONE.fullmatch(body):
                return  # "de manhã", "in the evening": no day said (a window, or an earlier day's)
            day = when.date()
            said = _said_day(body, language, zone, instant) if value.get("type") == "interval" else None
            if said is not None and _PART_OF_DAY_ALONE.fullmatch(said.hour_words):
                # "sexta de manhã" is the Friday "sexta" is: said on a Friday, next week's
                day = said.day
            today = datetime.fromtimestamp(instant, ZoneInfo(zone)).date()
            day = _in_the_coming_week(day, body, today)
            if grain != "day" and day < today < day + _GRAIN_LENGTH[grain]:
                # "essa semana", "this month": the part of it still ahead, from today ("março de
                # 2025", all past, is its first day)
                day = today
            before = _last_time(value, datetime.combine(day, time(), when.tzinfo), body, instant)
            earlier = before.date().isoformat() if before is not None else None
            yield TypedSpan("date", day.isoformat(), start, end, earlier=earlier)
        elif (said := _said_day(body, language, zone, instant)) is not None:
            when = _on_the_said_day(when, said, language, zone)
            before = _last_time(value, when, body, instant)
            yield TypedSpan(
                "datetime",
                when.isoformat(timespec="seconds"),
                start,
                end,
                earlier=before.isoformat(timespec="seconds") if before is not None else None,
            )
        elif _LASTING.search(clean, 0, hit["start"]) and _HOURS_WORD.search(body):
            # "por 1 hora e meia": how long, which Duckling's Portuguese reads as half past one
            hours = when.hour % _HALF_DAY or _HALF_DAY
            yield TypedSpan("duration", iso_duration(hours * 3600 + when.minute * 60), start, end)
        else:
            yield TypedSpan("time", when.strftime("%H:%M"), start, end)
    elif dim == "number":
        if clean[hit["start"] : hit["end"]].lower() == "one" and _DETERMINED.search(clean, 0, hit["start"]):
            return  # "the 6:30pm *one*", "that one": a thing pointed at, no count
        yield TypedSpan("number", _number(value["value"]), start, end)
    elif dim == "amount-of-money":
        # "under $60", "at least $30": the one amount said is the value (a budget, a limit)
        bound = value if "value" in value else value.get("to") or value.get("from")
        if isinstance(bound, dict) and "value" in bound:
            yield _money(bound, start, end)
    elif dim == "duration":
        body = clean[hit["start"] : hit["end"]]
        if "/" in body:
            return  # "18/03 14h" is a day and a time, not 25 days
        clock = None if _LASTING.search(clean, 0, hit["start"]) else _CLOCK_FORM.match(body)
        if clock:  # "14h", "7h30": a time of day as Portuguese writes it, not a number of hours
            yield TypedSpan("time", f"{int(clock.group(1)):02d}:{clock.group(2) or '00'}", start, end)
            return
        yield TypedSpan("duration", iso_duration(value["normalized"]["value"]), start, end)
    elif dim == "phone-number":
        digits = re.sub(r"\D", "", value["value"])
        if len(digits) < _PHONE_DIGITS:  # "pedido 77801": a code or a number, not a phone
            if digits == clean[hit["start"] : hit["end"]]:
                yield TypedSpan("number", int(digits), start, end)
            return
        yield TypedSpan(
            "phone", ("+" if value["value"].lstrip().startswith("(+") else "") + digits, start, end
        )
    elif dim in ("email", "url"):
        yield TypedSpan(dim, value["value"], start, end)


#: The words that put a repeating day ahead on purpose: "*next* Friday", "sexta *que vem*".
_AHEAD = re.compile(r"\b(?:next|coming|pr[oó]xim[oa]|que\s+vem)\b", re.IGNORECASE)
#: How far apart Duckling's readings of a repeating day are -> one step back to its last time.
_REPEATS_EVERY = {7: relativedelta(weeks=1), **dict.fromkeys(range(28, 32), relativedelta(months=1))}
_REPEATS_EVERY |= dict.fromkeys((365, 366), relativedelta(years=1)) | {1461: relativedelta(years=4)}


def _last_time(value: dict[str, Any], when: datetime, body: str, instant: int) -> datetime | None:
    """The last time up to ``instant`` of the day ``when`` is, when it is ahead and its words name
    a day that repeats (a weekday, a day of the month, a date without its year) and do not put it
    ahead on purpose; ``None`` otherwise ("amanhã", "sexta que vem", "2025-03-01")."""
    readings = [v["value"] for v in value.get("values") or [] if isinstance(v.get("value"), str)]
    if when.timestamp() <= instant or len(readings) < 2 or _AHEAD.search(body):
        return None
    gap = (datetime.fromisoformat(readings[1]) - datetime.fromisoformat(readings[0])).days
    step = _REPEATS_EVERY.get(gap)
    if step is None:
        return None
    for steps in range(1, _STEPS_BACK + 1):
        earlier = when - step * steps
        # "dia 31" steps back to a month that has one: relativedelta stops at a shorter month's
        # last day, which is another day of the month
        if earlier.timestamp() <= instant and (step.weeks or earlier.day == when.day):
            return earlier
    return None


#: enough for the 31st of a month, or for the 29th of February (four years)
_STEPS_BACK = 48


#: What joins the two ends of a range of days: "de sexta *a* segunda", "from the 20th *to* the
#: 23rd", "3/21 *-* 3/24", "between March 21 *and* March 24".
_RANGE_JOINT = re.compile(
    r"\s*[-–—]\s*|\s+(?:a|à|ao|até|ate|to|till|until|thru|through|and|e)\s+", re.IGNORECASE
)


def _last_joint(text: str, start: int, end: int) -> re.Match[str] | None:
    """The last word or dash joining two ends of a range within ``text[start:end]``."""
    joints = list(_RANGE_JOINT.finditer(text, start, end))
    return joints[-1] if joints else None


def _range_of_days(
    hit: dict[str, Any], text: str, start: int, end: int, language: str, zone: str, instant: int
) -> list[TypedSpan] | None:
    """A range of whole days ("de sexta a segunda") as its two ends, each a date over its own
    words, so a goal with two days (a pick-up and a return) gets both; ``None`` for anything
    else. Duckling gives the range's end as the start of the day after it. Of its readings, the
    first that starts today or later: on a Tuesday, "de segunda a quarta" is next week's."""
    value = hit["value"] if hit["dim"] == "time" else None
    if value is None or value.get("type") != "interval":
        return None
    joint = _last_joint(text, start, end)
    if joint is None:
        return None
    today = datetime.fromtimestamp(instant, ZoneInfo(zone)).date()
    readings = [d for d in map(_whole_days, value.get("values") or [value]) if d is not None]
    if not readings:
        return _range_of_day_numbers(text, start, joint, end, language, zone, instant)
    begin, last = next((d for d in readings if d[0] >= today), readings[0])
    if last < begin:
        return None
    return [
        TypedSpan("date", begin.isoformat(), start, joint.start()),
        TypedSpan("date", last.isoformat(), joint.end(), end),
    ]


def _a_time_for_a_while(
    hit: dict[str, Any], text: str, start: int, end: int, language: str, zone: str, instant: int
) -> list[TypedSpan] | None:
    """A start and how long ("wednesday 3pm for 2 hours", "amanhã às 10h durante 3 horas"), which
    Duckling reads as one interval, as the time (or day and time) before the word and the duration
    after it, each over its own words; ``None`` for anything else."""
    value = hit["value"] if hit["dim"] == "time" else None
    if value is None or value.get("type") != "interval":
        return None
    joint = _FOR_A_WHILE.search(text, start, end)
    if joint is None:
        return None
    when = [
        replace(s, start=s.start + start, end=s.end + start)
        for s in _read(text[start : joint.start()], language, zone, instant)
        if s.type in ("date", "time", "datetime")
    ]
    # read with its "for" ("for 1h"), which makes hours how long rather than a clock's
    lasting = [
        TypedSpan(s.type, s.value, s.start + joint.start(), s.end + joint.start())
        for s in _read(text[joint.start() : end], language, zone, instant)
        if s.type == "duration"
    ]
    if not when or not lasting:
        return None
    return [max(when, key=lambda s: s.end - s.start), max(lasting, key=lambda s: s.end - s.start)]


#: the word between when something starts and how long it lasts
_FOR_A_WHILE = re.compile(r"\s(?:for|por|durante)\s", re.IGNORECASE)
#: the same word right before a span: "por 4h" lasts four hours, it is no 4 o'clock
_LASTING = re.compile(r"\b(?:for|por|durante)\s+$", re.IGNORECASE)
#: hours counted in words ("1 hora e meia", "duas horas e quinze"), not a clock's "14h"
_HOURS_WORD = re.compile(r"\bhoras?\b", re.IGNORECASE)
_HALF_DAY = 12


#: the words between the two ends of a range of hours ("14h *às* 16h", "2 *to* 4pm")
_UNTIL = "a|à|às|as|até|ate|to|till|until"
_DASH = r"(?<=[\dhm])\s*[-–—]\s*(?=\d)|\s+[-–—]\s+"
#: the word or dash between the two ends
_CLOCK_JOINT = re.compile(rf"{_DASH}|\s+(?:{_UNTIL})\s+", re.IGNORECASE)
#: the same within one reading of Duckling's, where "and" joins the two ends ("between 2 and 4pm")
_INTERVAL_JOINT = re.compile(rf"{_DASH}|\s+(?:{_UNTIL}|and|e)\s+", re.IGNORECASE)
#: the same word opening the span of a range's end ("*às 16h*"), as Duckling's Portuguese reads it
_JOINT_OPENS = re.compile(rf"(?:[-–—]|(?:{_UNTIL})\b)", re.IGNORECASE)
#: the word before a range's start: "*das* 9 às 11", "*from* 2 to 4"
_SINCE = "das?|de|from|between"
_RANGE_OPENS = re.compile(rf"\b(?:{_SINCE})\s+$", re.IGNORECASE)
_RANGE_OPENS_INSIDE = re.compile(rf"\b(?:{_SINCE})\b", re.IGNORECASE)
#: what a clock's time is written with: a digit, noon or midnight
_A_CLOCK = re.compile(r"\d|\b(?:meio[- ]dia|meia[- ]noite|noon|midnight)\b", re.IGNORECASE)
_HALF_OF_DAY_SAID = re.compile(r"\d\s*(?:am|pm|a\.m|p\.m)\b", re.IGNORECASE)
_CLOCK_GRAINS = {"hour": timedelta(hours=1), "minute": timedelta(minutes=1)}


def _a_clock_range(
    hit: dict[str, Any], text: str, start: int, end: int, language: str, zone: str, instant: int
) -> list[TypedSpan] | None:
    """A range of hours ("tomorrow from 2 to 4pm", "today 3pm to 5pm"), which Duckling reads as
    one interval, as its start (a datetime when a day is said before it, else a time) and its end,
    a time that also says how long the range lasts; ``None`` for anything else."""
    value = hit["value"] if hit["dim"] == "time" else None
    if value is None or value.get("type") != "interval":
        return None
    begin, finish = value.get("from"), value.get("to")
    if not (isinstance(begin, dict) and isinstance(finish, dict)) or finish.get("grain") not in _CLOCK_GRAINS:
        return None
    joints = list(_INTERVAL_JOINT.finditer(text, start, end))
    if not joints:
        return None
    joint = joints[-1]
    if not (_A_CLOCK.search(text, start, joint.start()) and _A_CLOCK.search(text, joint.end(), end)):
        return None  # "hoje à noite", "this evening": a part of a day, no hours said
    first = datetime.fromisoformat(begin["value"])
    last = datetime.fromisoformat(finish["value"]) - _CLOCK_GRAINS[finish["grain"]]
    # the start's words, without the word that opens the range ("from 14:00" alone is no day)
    words = _RANGE_OPENS_INSIDE.sub(lambda m: " " * len(m.group()), text[start : joint.start()])
    before = _read(words, language, zone, instant)
    own = next((c for s in before if (c := _clock_of(s)) is not None), None)
    if own is not None and (first.date() != last.date() or first.time() == time.min):
        # Duckling's Portuguese reads "das 10h até meio-dia" from the evening before, and "amanhã
        # de 10h até meio-dia" from midnight: the start's own words tell its hour
        starts = own.replace(hour=_same_half_of_day(own.hour, last.hour))
        first = datetime.combine(last.date(), starts, last.tzinfo)
    if not _HALF_OF_DAY_SAID.search(text, start, joint.start()):
        first = first.replace(hour=_same_half_of_day(first.hour, last.hour))
    if not first < last < first + timedelta(days=1):
        return None
    day_said = any(s.type in _DAY_SPANS for s in before) or any(
        s.type in _DAY_SPANS for s in _read(text[joint.end() : end], language, zone, instant)
    )
    opening = (
        TypedSpan("datetime", first.isoformat(timespec="seconds"), start, joint.start())
        if day_said
        else TypedSpan("time", first.strftime("%H:%M"), start, joint.start())
    )
    lasting = iso_duration((last - first).total_seconds())
    return [opening, TypedSpan("time", last.strftime("%H:%M"), joint.end(), end, lasting=lasting)]


def _clock_ranges(text: str, spans: list[TypedSpan]) -> list[TypedSpan]:
    """A start and an end of hours read apart ("das 14h às 16h", "das 9 às 11"): the end says
    how long the range lasts, and a bare number after "das"/"from" is the start's hour."""
    out = list(spans)
    for k in range(len(out) - 1):
        first, last = out[k], out[k + 1]
        if last.type != "time" or last.lasting is not None or not isinstance(last.value, str):
            continue
        between = text[first.end : last.start]
        joined = _CLOCK_JOINT.fullmatch(between) or (
            not between.strip() and _JOINT_OPENS.match(text, last.start) is not None
        )
        if not joined:
            continue
        ends = time.fromisoformat(last.value)
        if first.type == "number" and isinstance(first.value, int) and 0 <= first.value < _DAY_HOURS:
            if not _RANGE_OPENS.search(text, 0, first.start):
                continue  # "mesa pra 2 às 16h": a count before a time, no range
            hour = _same_half_of_day(first.value, ends.hour)
            out[k] = TypedSpan("time", f"{hour:02d}:00", first.start, first.end)
            starts = time(hour)
        elif (clock := _clock_of(first)) is not None:
            starts = clock
        else:
            continue
        minutes = (ends.hour * 60 + ends.minute) - (starts.hour * 60 + starts.minute)
        if minutes > 0:
            out[k + 1] = replace(last, lasting=iso_duration(minutes * 60))
    return out


_DAY_HOURS = 24
_DAY_SPANS = ("date", "datetime")


def _clock_of(span: TypedSpan) -> time | None:
    """The hour and minute of a time or a datetime span; ``None`` for any other."""
    if span.type == "time" and isinstance(span.value, str):
        return time.fromisoformat(span.value)
    if span.type == "datetime" and isinstance(span.value, str):
        return time.fromisoformat(span.value[11:16])
    return None


def _same_half_of_day(hour: int, ends: int) -> int:
    """The start's hour of a range that ends in the afternoon: "das 2 às 4 da tarde" from 14h."""
    return hour + _HALF_DAY if hour < _HALF_DAY <= ends and hour + _HALF_DAY < ends else hour


def _whole_days(reading: dict[str, Any]) -> tuple[date, date] | None:
    """The first and last day of an interval of whole days; ``None`` for any other reading."""
    first, after = reading.get("from"), reading.get("to")
    if not (isinstance(first, dict) and isinstance(after, dict)):
        return None
    if first.get("grain") != "day" or after.get("grain") != "day":
        return None
    begin = datetime.fromisoformat(first["value"]).date()
    return begin, datetime.fromisoformat(after["value"]).date() - timedelta(days=1)


def _range_of_day_numbers(
    text: str, start: int, joint: re.Match[str], end: int, language: str, zone: str, instant: int
) -> list[TypedSpan] | None:
    """A range of days one of whose ends names only the day of the month ("do dia 20 ao 22",
    "de 20 a 22 de março"), which Duckling reads as hours: each end read on its own, the bare
    number in the other end's month (the next one when the range would end before it starts,
    the one before when it would start after it ends)."""
    first = _day_or_number(text[start : joint.start()], language, zone, instant)
    last = _day_or_number(text[joint.end() : end], language, zone, instant)
    if isinstance(first, date) and isinstance(last, int):
        last = _in_month(first, last, months=0)
        if last is not None and last < first:
            last = _in_month(first, last.day, months=1)
    elif isinstance(first, int) and isinstance(last, date):
        first = _in_month(last, first, months=0)
        if first is not None and first > last:
            first = _in_month(last, first.day, months=-1)
    if not (isinstance(first, date) and isinstance(last, date)) or last < first:
        return None
    return [
        TypedSpan("date", first.isoformat(), start, joint.start()),
        TypedSpan("date", last.isoformat(), joint.end(), end),
    ]


def _day_or_number(words: str, language: str, zone: str, instant: int) -> date | int | None:
    """The day ``words`` name ("do dia 20", "22 de março"), else the day of the month a bare
    number could be ("de 20", "22"), else ``None``."""
    clean, _ = _expanded(words)
    hits = sorted(_parse(clean, language, zone, instant), key=lambda h: h["start"] - h["end"])
    for hit in hits:
        value = hit["value"]
        if hit["dim"] == "time" and value.get("type") == "value" and value.get("grain") == "day":
            return datetime.fromisoformat(value["value"]).date()
        if hit["dim"] == "number" and float(value["value"]).is_integer() and 1 <= value["value"] <= 31:
            return int(value["value"])
    return None


def _in_month(day: date, number: int, *, months: int) -> date | None:
    """The day ``number`` of the month ``months`` after ``day``'s; ``None`` when it has no such day."""
    month = day.month - 1 + months
    try:
        return date(day.year + month // 12, month % 12 + 1, number)
    except ValueError:
        return None


def _range_of_amounts(hit: dict[str, Any], text: str, start: int, end: int) -> list[TypedSpan] | None:
    """A range of amounts ("between $50 and $100") as its two ends, each over its own words."""
    value = hit["value"] if hit["dim"] == "amount-of-money" else None
    if value is None or value.get("type") != "interval":
        return None
    low, high = value.get("from"), value.get("to")
    if not (isinstance(low, dict) and isinstance(high, dict) and "value" in low and "value" in high):
        return None
    joint = _last_joint(text, start, end)
    if joint is None:
        return None
    return [_money(low, start, joint.start()), _money(high, joint.end(), end)]


def _money(amount: dict[str, Any], start: int, end: int) -> TypedSpan:
    unit = amount.get("unit")
    # Duckling's "unknown" is a bound with no currency said ("under 3k"): none, for the domain
    currency = None if unit in (None, "unknown") else _CURRENCY_SIGNS.get(unit, unit)
    return TypedSpan("money", {"amount": _number(amount["value"]), "currency": currency}, start, end)


def _time_value(value: dict[str, Any]) -> tuple[str, str] | None:
    """(ISO stamp, grain) of a time value; an interval ("de manhã", "this weekend") gives its start,
    and one from now or from nothing to a moment ("by thursday at 11am", "até sexta") that moment:
    a day at midnight, else its time."""
    if value.get("type") == "value":
        return value["value"], value["grain"]
    start, end = value.get("from"), value.get("to")
    if isinstance(start, dict) and "value" in start and start.get("grain") != "second":
        return start["value"], "day"
    if isinstance(end, dict) and "value" in end:
        stamp = end["value"]
        return stamp, "day" if datetime.fromisoformat(stamp).time() == time.min else "minute"
    if isinstance(start, dict) and "value" in start:
        return start["value"], "day"
    return None


def _in_the_coming_week(day: date, words: str, today: date) -> date:
    """ "sexta que vem" is next week's Friday, and "segunda que vem" next week's Monday, which
    Duckling's Portuguese puts a week later."""
    next_week = today + timedelta(days=_WEEK - today.weekday())
    if _COMING_WEEKDAY.search(words) and day >= next_week + timedelta(days=_WEEK):
        return day - timedelta(days=_WEEK)
    return day


@dataclass(frozen=True)
class _SaidDay:
    """The words of a time that give its day, read alone, and the rest: its hour."""

    day: date
    hour_words: str


@lru_cache(maxsize=256)
def _said_day(body: str, language: str, zone: str, instant: int) -> _SaidDay | None:
    """The day the words of a time give: some of its first or last words, read alone, are a day
    ("*amanhã* às 14h", "*Sat* 10am", "*tonight* at 8"); "às 14h" has none."""
    words = body.split()
    # the longest words first: "sexta que vem", not "sexta"
    parts = [(" ".join(words[:k]), " ".join(words[k:])) for k in range(len(words) - 1, 0, -1)] + [
        (" ".join(words[k:]), " ".join(words[:k])) for k in range(1, len(words))
    ]
    first: _SaidDay | None = None
    today = datetime.fromtimestamp(instant, ZoneInfo(zone)).date()
    for part, rest in parts:
        moment = next(
            (
                m
                for hit in _parse(part, language, zone, instant)
                if hit["dim"] == "time"
                and (m := _time_value(hit["value"])) is not None
                and m[1] in _DAY_GRAINS
                # a year is written whole: the "45" of "às 9 e 45" is minutes, not 2045
                and (_WHOLE_YEAR.search(part) is not None or not _another_year(m[0], zone, instant))
            ),
            None,
        )
        if moment is None:
            continue
        said = _SaidDay(_in_the_coming_week(datetime.fromisoformat(moment[0]).date(), part, today), rest)
        # the split whose other words are an hour of their own: "terça que vem | às 10", not
        # "terça que vem às | 10"
        if _an_hour(rest, language, zone, instant):
            return said
        first = first or said
    return first


def _another_year(stamp: str, zone: str, instant: int) -> bool:
    """Whether ``stamp`` falls in another year than now and the next one."""
    year = datetime.fromtimestamp(instant, ZoneInfo(zone)).year
    return datetime.fromisoformat(stamp).year not in (year, year + 1)


def _an_hour(words: str, language: str, zone: str, instant: int) -> bool:
    return any(
        (moment := _time_value(hit["value"])) is not None and moment[1] not in _DAY_GRAINS
        for hit in _parse(words, language, zone, instant)
        if hit["dim"] == "time"
    )


def _on_the_said_day(when: datetime, said: _SaidDay, language: str, zone: str) -> datetime:
    """``when`` on the day its own words give. Duckling may join a day and an hour into another
    day ("terça que vem às 10h" said on a Tuesday morning reads as that evening): the hour's
    words are then read again from the start of the day said, which gives its first such hour
    ("às 10" is 10:00, "10pm" 22:00)."""
    if when.date() == said.day:
        return when
    midnight = datetime.combine(said.day, datetime.min.time(), ZoneInfo(zone))
    for hit in _parse(said.hour_words, language, zone, int(midnight.timestamp())):
        moment = _time_value(hit["value"]) if hit["dim"] == "time" else None
        if moment is not None and moment[1] not in _DAY_GRAINS:
            hour = datetime.fromisoformat(moment[0])
            if hour.date() == said.day:
                return hour
    return when


_CLOCK_FORM = re.compile(r"^([01]?\d|2[0-3])[hH]([0-5]\d)?$")
_LITERAL_HOUR = re.compile(r"(\d{1,2})\s*(?:h|:)", re.IGNORECASE)
_HALF_OF_DAY = re.compile(r"\b(pm|am|tarde|noite|night|evening|afternoon|manh[aã]|morning|madrugada)\b", re.I)
#: "8h", "8h30": the 24-hour clock Portuguese writes, where 20:00 would be "20h"
_TWENTY_FOUR_HOUR = re.compile(r"\b\d{1,2}h(?:\d{2})?\b", re.I)


def _as_written(value: dict[str, Any], stamp: str, body: str) -> str:
    """A clock time as written: "7h30" is 07:30, not the 19:30 Duckling reaches first when 07:30
    has passed; a word that names the half of the day ("da noite", "pm") keeps Duckling's."""
    written = _LITERAL_HOUR.search(body)
    if written is None or _HALF_OF_DAY.search(body):
        return stamp
    hour = int(written.group(1))
    for candidate in value.get("values") or []:
        other = candidate.get("value")
        if isinstance(other, str) and int(other[11:13]) == hour:
            return other
    return stamp


def _not_past(value: dict[str, Any], stamp: str, body: str, instant: int) -> str:
    """An hour of a day that is already past, when the same day has it again later and no word
    names the half of the day: "hoje às 8" said at 10:00 is 20:00. An hour of the 24-hour clock
    ("sexta 8h") is the one written, past or not."""
    if (
        datetime.fromisoformat(stamp).timestamp() >= instant
        or _HALF_OF_DAY.search(body)
        or _TWENTY_FOUR_HOUR.search(body)
    ):
        return stamp
    for candidate in value.get("values") or []:
        other = candidate.get("value")
        if (
            isinstance(other, str)
            and other[:10] == stamp[:10]
            and datetime.fromisoformat(other).timestamp() >= instant
        ):
            return other
    return stamp


def _with_currency_words(text: str, language: str, found: list[TypedSpan]) -> list[TypedSpan]:
    """ "100 dólares", "50 euros" in Portuguese and "15 bucks" in English, which Duckling reads
    as a bare number."""
    words, units = (_PT_CURRENCIES, _PT_UNITS) if language == "pt" else (_EN_CURRENCIES, _EN_UNITS)
    out = list(found)
    for match in words.finditer(text):
        bare = next(
            (s for s in out if s.start == match.start() and (s.type == "number" or _without_currency(s))),
            None,
        )
        if bare is None:
            continue
        amount = bare.value.get("amount") if isinstance(bare.value, dict) else bare.value
        if not isinstance(amount, int | float):
            continue
        out.remove(bare)
        currency = units[match.group("unit")[:3].lower()]
        out.append(TypedSpan("money", {"amount": amount, "currency": currency}, match.start(), match.end()))
    return out


def _number(value: float) -> int | float:
    return int(value) if float(value).is_integer() else float(value)


def iso_duration(seconds: float) -> str:
    """Seconds as an ISO 8601 duration.

    >>> iso_duration(7200), iso_duration(1800), iso_duration(4 * 86400), iso_duration(0)
    ('PT2H', 'PT30M', 'P4D', 'PT0S')
    """
    left = int(seconds)
    days, left = divmod(left, 86400)
    hours, left = divmod(left, 3600)
    minutes, secs = divmod(left, 60)
    clock = "".join(f"{n}{unit}" for n, unit in ((hours, "H"), (minutes, "M"), (secs, "S")) if n)
    if not days and not clock:
        return "PT0S"
    return "P" + (f"{days}D" if days else "") + (f"T{clock}" if clock else "")
