"""Typed entities (dates, times, numbers, money...): candidate libraries against one case file.

Every candidate is run on ``bench/typed_entities_cases.jsonl`` (pt and en messages, each with
the typed values a person means) with the conversation's clock at a fixed instant, and scored
on the values it returns in the contract the manifest publishes (``intent/typed.py``):

* ``duckling``: Facebook's Duckling through ``pyduckling-native-phihos`` (a Rust/Haskell wheel);
* ``dateparser+text2num``: ``dateparser.search.search_dates`` for dates and times and
  ``text_to_num.alpha2digit`` for numbers in words (money, durations, emails... it does not do);
* ``recognizers``: Microsoft Recognizers-Text (``recognizers-text-suite``, Python port);
* ``shipped``: the project's recogniser (``intent.typed``), Duckling with its clean-ups.

The candidates other than the shipped one are not project dependencies; measure them in a
throw-away venv::

    python -m venv /tmp/te && /tmp/te/bin/pip install -e . dateparser text2num \
        recognizers-text-suite "emoji<1.0"
    /tmp/te/bin/python bench/typed_entities_eval.py > bench/results/typed_entities.md

A candidate that is not installed is reported as such.
"""

from __future__ import annotations

import json
import re
import statistics
import time
from collections import Counter
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

CASES = Path(__file__).with_name("typed_entities_cases.jsonl")
ZONE = "America/Sao_Paulo"
#: the conversation's clock in every case: a Thursday morning
NOW = datetime(2026, 11, 26, 9, 0, tzinfo=ZoneInfo(ZONE))
Found = set[tuple[str, str]]
Candidate = Callable[[str, str], Found]


def key(kind: str, value: Any) -> tuple[str, str]:
    """One comparable form per value: datetimes to the minute, local; phones as digits."""
    if kind == "datetime":
        return kind, str(value)[:16]
    if kind == "phone":
        return kind, re.sub(r"\D", "", str(value))
    if kind == "money":
        if isinstance(value, dict):
            return kind, f"{_num(value['amount'])} {value['currency']}"
        return kind, str(value)
    if kind == "number":
        return kind, _num(value)
    return kind, str(value)


def _num(value: Any) -> str:
    number = float(value)
    return str(int(number)) if number.is_integer() else str(number)


# ------------------------------------------------------------------ candidates


def shipped() -> Candidate:
    from intent import typed

    recogniser = typed.TypedEntityRecognizer()

    def run(text: str, language: str) -> Found:
        typed.clear_caches()  # time a fresh read, not the per-message cache
        return {key(s.type, s.value) for s in recogniser.spans(text, language, time_zone=ZONE, now=NOW)}

    return run


def duckling_raw() -> Candidate:
    """Duckling as it comes: its time values split into date / time / datetime by grain and by
    whether the day comes from the words (the same split the shipped recogniser makes)."""
    import duckling as d

    zones = d.load_time_zones("/usr/share/zoneinfo")
    dims = d.parse_dimensions(
        ["time", "number", "amount-of-money", "duration", "email", "phone-number", "url"]
    )
    langs = {"pt": ("PT", "PT_BR"), "en": ("EN", "EN_US")}

    def context(language: str, at: datetime) -> Any:
        lang, locale = langs[language]
        ref = d.parse_ref_time(zones, ZONE, int(at.timestamp()))
        return d.Context(ref, d.parse_locale(locale, d.default_locale_lang(d.parse_lang(lang))))

    def run(text: str, language: str) -> Found:
        out: Found = set()
        for hit in d.parse(text, context(language, NOW), dims, False):
            value = hit["value"]
            dim = hit["dim"]
            if dim == "time":
                if value.get("type") != "value":
                    continue
                moment = datetime.fromisoformat(value["value"])
                if value["grain"] in ("day", "week", "month", "year"):
                    out.add(("date", moment.date().isoformat()))
                    continue
                body = hit["body"] if "Ã" not in hit["body"] else text[hit["start"] : hit["end"]]
                early = d.parse(
                    body, context(language, NOW.replace(hour=0, minute=0, second=30)), dims, False
                )
                late = d.parse(
                    body, context(language, NOW.replace(hour=23, minute=59, second=30)), dims, False
                )
                days = {h["value"].get("value", "")[:10] for h in early + late if h["dim"] == "time"}
                if len(days) > 1:
                    out.add(("time", moment.strftime("%H:%M")))
                else:
                    out.add(key("datetime", moment.isoformat()))
            elif dim == "number":
                out.add(key("number", value["value"]))
            elif dim == "amount-of-money" and "value" in value:
                currency = {"$": "USD", "€": "EUR", "£": "GBP"}.get(value["unit"], value["unit"])
                out.add(key("money", {"amount": value["value"], "currency": currency}))
            elif dim == "duration":
                out.add(("duration", _iso_duration(value["normalized"]["value"])))
            elif dim == "phone-number":
                out.add(key("phone", value["value"]))
            elif dim in ("email", "url"):
                out.add((dim, value["value"]))
        return out

    return run


def _iso_duration(seconds: float) -> str:
    left = int(seconds)
    days, left = divmod(left, 86400)
    hours, left = divmod(left, 3600)
    minutes, secs = divmod(left, 60)
    clock = "".join(f"{n}{u}" for n, u in ((hours, "H"), (minutes, "M"), (secs, "S")) if n)
    return "P" + (f"{days}D" if days else "") + (f"T{clock}" if clock else "") if days or clock else "PT0S"


def dateparser_text2num() -> Candidate:
    from dateparser.search import search_dates
    from text_to_num import alpha2digit

    def found_dates(text: str, language: str, base: datetime) -> list[tuple[str, datetime]]:
        settings = {"RELATIVE_BASE": base.replace(tzinfo=None), "PREFER_DATES_FROM": "future"}
        return search_dates(text, languages=[language], settings=settings) or []  # type: ignore[arg-type, unused-ignore]

    def run(text: str, language: str) -> Found:
        out: Found = set()
        taken: list[str] = []
        for phrase, moment in found_dates(text, language, NOW):
            taken.append(phrase)
            has_clock = bool(re.search(r"\d\s*(h|:|am|pm)|noon|meio-dia|noite|night", phrase, re.I))
            if not has_clock:
                out.add(("date", moment.date().isoformat()))
                continue
            early = found_dates(phrase, language, NOW.replace(hour=0, minute=0))
            late = found_dates(phrase, language, NOW.replace(hour=23, minute=59))
            days = {m.date() for _, m in early + late}
            if len(days) > 1:
                out.add(("time", moment.strftime("%H:%M")))
            else:
                out.add(key("datetime", moment.isoformat()))
        rest = text
        for phrase in taken:
            rest = rest.replace(phrase, " ")
        for number in re.findall(r"(?<![\w.,])\d+(?:[.,]\d+)?(?![\w])", alpha2digit(rest, language)):
            out.add(key("number", number.replace(",", ".")))
        return out

    return run


def recognizers() -> Candidate:
    from recognizers_suite import (
        Culture,
        recognize_currency,
        recognize_datetime,
        recognize_email,
        recognize_number,
        recognize_phone_number,
        recognize_url,
    )

    cultures = {"pt": Culture.Portuguese, "en": Culture.English}
    currencies = {"Dollar": "USD", "United States dollar": "USD", "Euro": "EUR", "Japanese yen": "JPY"}
    currencies |= {"Brazilian real": "BRL", "Real": "BRL", "Yen": "JPY"}

    def run(text: str, language: str) -> Found:
        culture = cultures[language]
        out: Found = set()
        spans: list[tuple[int, int]] = []
        for found in recognize_datetime(text, culture, reference=NOW.replace(tzinfo=None)):
            spans.append((found.start, found.end))
            values = (found.resolution or {}).get("values") or []
            if not values:
                continue
            first = values[-1]
            kind = first.get("type")
            if kind == "date":
                out.add(("date", first["value"]))
            elif kind == "time":
                out.add(("time", first["value"][:5]))
            elif kind == "datetime":
                out.add(key("datetime", first["value"].replace(" ", "T")))
            elif kind == "duration":
                out.add(("duration", _iso_duration(float(first["value"]))))
        for found in recognize_currency(text, culture):
            res = found.resolution or {}
            spans.append((found.start, found.end))
            out.add(
                (
                    "money",
                    f"{_num(res.get('value', 0))} {currencies.get(res.get('unit', ''), res.get('unit'))}",
                )
            )
        for found in recognize_number(text, culture):
            if any(a <= found.start <= b for a, b in spans):
                continue
            out.add(key("number", (found.resolution or {}).get("value", 0)))
        for kind, recognise in (
            ("email", recognize_email),
            ("phone", recognize_phone_number),
            ("url", recognize_url),
        ):
            for found in recognise(text, culture):
                out.add(key(kind, found.text))
        return out

    return run


CANDIDATES: dict[str, Callable[[], Candidate]] = {
    "shipped (intent.typed)": shipped,
    "duckling (raw)": duckling_raw,
    "dateparser+text2num": dateparser_text2num,
    "recognizers-text": recognizers,
}


def main() -> None:
    cases = [json.loads(line) for line in CASES.read_text().splitlines() if line.strip()]
    print("# Typed entities: candidate libraries\n")
    print(f"`bench/typed_entities_eval.py` on {len(cases)} cases (`bench/typed_entities_cases.jsonl`, ")
    languages = Counter(c["lang"] for c in cases)
    print(f"{languages['pt']} pt / {languages['en']} en), clock {NOW.isoformat()} ({ZONE}).")
    print("A value counts when its type and normalised value are right;")
    print("time per message is the median of 5 runs after a warm-up.\n")
    header = "candidate | precision | recall | F1 | cases all right | junk in no-entity cases"
    print(f"| {header} | median ms/msg | import s |")
    print("|---|---|---|---|---|---|---|---|")
    misses: dict[str, list[str]] = {}
    per_type: dict[str, Counter[str]] = {}
    for name, build in CANDIDATES.items():
        started = time.perf_counter()
        try:
            run = build()
            run("warm up", "en")
        except Exception as exc:  # a candidate that does not install or import here
            print(f"| {name} | — | — | — | — | — | — | not usable: {type(exc).__name__}: {str(exc)[:80]} |")
            continue
        loaded = time.perf_counter() - started
        tp = fp = fn = right = junk = 0
        took: list[float] = []
        hits: Counter[str] = Counter()
        misses[name] = []
        for case in cases:
            expected = {key(e["type"], e["value"]) for e in case["expected"]}
            times = []
            for _ in range(5):
                t = time.perf_counter()
                try:
                    got = run(case["text"], case["lang"])
                except Exception as exc:
                    got = {("error", type(exc).__name__)}
                times.append(time.perf_counter() - t)
            took.append(statistics.median(times))
            tp += len(got & expected)
            fp += len(got - expected)
            fn += len(expected - got)
            right += got == expected
            junk += bool(got) and not expected
            for kind, _ in got & expected:
                hits[kind] += 1
            if got != expected:
                misses[name].append(
                    f"{case['lang']} `{case['text']}`: expected {sorted(expected)}, got {sorted(got)}"
                )
        per_type[name] = hits
        p = tp / (tp + fp) if tp + fp else 0.0
        r = tp / (tp + fn) if tp + fn else 0.0
        f1 = 2 * p * r / (p + r) if p + r else 0.0
        median_ms = statistics.median(took) * 1000
        scores = f"{p:.3f} | {r:.3f} | {f1:.3f} | {right}/{len(cases)} | {junk}"
        print(f"| {name} | {scores} | {median_ms:.2f} | {loaded:.2f} |")
    totals = Counter(e["type"] for c in cases for e in c["expected"])
    print("\nRecall by type (values found / expected):\n")
    print("| type | expected | " + " | ".join(per_type) + " |")
    print("|---|---|" + "---|" * len(per_type))
    for kind, total in sorted(totals.items()):
        print(f"| {kind} | {total} | " + " | ".join(f"{hits[kind]}" for hits in per_type.values()) + " |")
    for name, lines in misses.items():
        print(f"\n## Misses: {name} ({len(lines)})\n")
        for line in lines:
            print(f"- {line}")


if __name__ == "__main__":
    main()
