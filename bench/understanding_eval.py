"""Understanding on material the project was not written next to: ``bench/understanding/``.

    python bench/understanding_eval.py [--set round1|round2|round3|round4|round4b|round5|round6|round7|round8
                                              |round9|round10|round11|round12|round13|round14
                                              |round15|round16|round17|round18|round19
                                              |round20|round21]
                                       [--split dev|test|both]
                                       [--out bench/results/understanding.md]
                                       [--skip-early] [--settle SECONDS]

Case sets, each with domains written by someone who read only the docs:
``round1`` (``bench/understanding/cases.jsonl``; weather, shop_orders, clinic), ``round2``
(``bench/understanding/round2/cases.jsonl``; every module of ``round2/domains/`` whose name does
not start with ``_``), ``round3`` (likewise; pharmacy, car_rental, gym), ``round4`` (likewise;
cinema, library, home_services), ``round4b`` (dev cases only, for round 4's domains, written later
by another tester), ``round5``, ``round6``, ``round7``, ``round8``, ``round9``, ``round10``,
``round11``, ``round12``, ``round13``, ``round14``, ``round15``, ``round16``, ``round17``,
``round18``, ``round19``, ``round20`` and ``round21`` (likewise; their own domains). The set's domains run as
processes beside the shipped ones (finance, notifier, general, research); a real gateway starts with
the shipped ones and the set's domains are registered at run time (``POST /v1/domains``, admin token),
as an operator would.
Every case's turns are played, in order, on one session through ``POST /v1/runs``
(``metadata.time_zone``: the cases' zone), and each turn's trace is scored:

* **goal**: the goal the turn runs or asks about (a pending question's goal), ``null`` for out
  of scope and for the general domain's help and small talk; turns whose expected goal is
  ``null`` but that must be handled (a resend, a reply inside a domain conversation, a "no") are
  scored on behaviour only;
* **entities**: micro precision/recall/F1 over (entity, value) pairs on the turns with a goal;
  the platform's spans are normalised as the case file says (days and times against the cases'
  reference clock; a typed day the gateway resolved against its own clock is read again, from
  the words of the case's turns it came from, against the reference clock; numbers, money,
  lookup tables' canonical values, accents and case folded,
  research ideas and other free text by word overlap); entities under a wrong goal are all wrong;
* **behaviour**: answer / ask / confirm / out_of_scope, from the trace (an approval question
  is confirm; a slot, domain or confidence-gate question is ask; a turn with steps, or a reply
  to a pending question, is answer; nothing run and no goal is out_of_scope);
* **side-effecting calls with unsaid values**: steps called on a capability that needs a yes
  (``policy.confirm``) or sends a notification, with an entity parameter (``*_text``, or an
  entity a manifest gives a value type) whose value no expected entity of the case's turns so
  far has (a yes runs what an earlier turn said; a turn whose yes is followed by a domain's
  suggestion expects the suggested value, while the call it made carried the person's own);
* **junk steps**: steps called on a turn that expects out of scope, or with an entity parameter
  no expected entity of the turns so far has.

``dev`` prints one line per failed case; ``test`` prints aggregate numbers only (nothing of a
test case is ever printed). "Within 5 s of a registration": the set's domains are removed and
registered again, and the cases played until 5 s have passed since the registration answered
are scored apart; repeated until every case of the split was played once so.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import statistics
import sys
import tempfile
import time
import unicodedata
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path
from types import FrameType
from typing import Any, NoReturn
from zoneinfo import ZoneInfo

import httpx
from rapidfuzz import fuzz, process

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from intent.typed import RECOGNIZER  # noqa: E402
from shared.manifest import parse_manifest  # noqa: E402
from tests.conftest import (  # noqa: E402
    Process,
    free_port,
    spawn,
    stop_process,
    wait_http,
    write_bootstrap,
)

DEFAULT_OUT = ROOT / "bench" / "results" / "understanding.md"
ADMIN_TOKEN = "bench-admin-token"
ZONE = "America/Sao_Paulo"
#: the cases' reference clock (bench/understanding/README.md)
REFERENCE = datetime(2026, 3, 10, 9, 0, tzinfo=ZoneInfo(ZONE))
EARLY_WINDOW_S = 5.0
#: At most this long after a registration, the "settled" model is measured from (it is measured
#: as soon as the gateway's log says the full training that follows the warm start is installed).
SETTLE_S = 900.0
_WARM_STARTED = re.compile(r"intent model of catalog (\w+) warm-started")
#: ISO day and 24-hour time, as the case file writes them
_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_TIME = re.compile(r"^\d{2}:\d{2}$")
_ONE = {"a", "an", "um", "uma", "one"}
#: free text, compared by word overlap (the case files' READMEs)
LOOSE = {"idea_text", "versions_text", "problem_text", "message"}
#: the manifest's value types (docs/domains.md); their values are normalised by the platform
TYPED = {"date", "time", "datetime", "duration", "number", "money", "email", "url", "phone"}


@dataclass(frozen=True)
class CaseSet:
    """A case file and the domains written beside it (modules run as ``python -m MODULE.NAME``)."""

    name: str
    directory: Path
    #: the package the domain modules are imported from
    package: str
    #: the domain modules, when the folder also holds helpers not marked with a leading ``_``
    listed: tuple[str, ...] = ()
    #: the domains read typed days the gateway resolved on its own clock: their today
    #: (``BENCH_TODAY``) is the gateway's, so that "a date in the past" means the same to both
    today_is_the_gateways: bool = False

    @property
    def cases(self) -> Path:
        return self.directory / "cases.jsonl"

    def domains(self) -> tuple[str, ...]:
        """The domain modules in ``domains/``; a module whose name starts with ``_`` is a helper."""
        if self.listed:
            return self.listed
        folder = self.directory / "domains"
        return tuple(sorted(p.stem for p in folder.glob("*.py") if not p.stem.startswith("_")))


SETS = {
    "round1": CaseSet(
        "round1",
        ROOT / "bench" / "understanding",
        "bench.understanding.domains",
        ("weather", "shop_orders", "clinic"),  # domains/common.py is their shared helper
    ),
    "round2": CaseSet(
        "round2",
        ROOT / "bench" / "understanding" / "round2",
        "bench.understanding.round2.domains",
        today_is_the_gateways=True,
    ),
    "round3": CaseSet(
        "round3",
        ROOT / "bench" / "understanding" / "round3",
        "bench.understanding.round3.domains",
        today_is_the_gateways=True,
    ),
    "round4": CaseSet(
        "round4",
        ROOT / "bench" / "understanding" / "round4",
        "bench.understanding.round4.domains",
        today_is_the_gateways=True,
    ),
    # more dev material for round 4's domains, written later by another outside tester
    "round4b": CaseSet(
        "round4b",
        ROOT / "bench" / "understanding" / "round4b",
        "bench.understanding.round4.domains",
        ("cinema", "home_services", "library"),
        today_is_the_gateways=True,
    ),
    "round5": CaseSet(
        "round5",
        ROOT / "bench" / "understanding" / "round5",
        "bench.understanding.round5.domains",
        today_is_the_gateways=True,
    ),
    "round6": CaseSet(
        "round6",
        ROOT / "bench" / "understanding" / "round6",
        "bench.understanding.round6.domains",
        today_is_the_gateways=True,
    ),
    "round7": CaseSet(
        "round7",
        ROOT / "bench" / "understanding" / "round7",
        "bench.understanding.round7.domains",
        today_is_the_gateways=True,
    ),
    "round8": CaseSet(
        "round8",
        ROOT / "bench" / "understanding" / "round8",
        "bench.understanding.round8.domains",
        today_is_the_gateways=True,
    ),
    "round9": CaseSet(
        "round9",
        ROOT / "bench" / "understanding" / "round9",
        "bench.understanding.round9.domains",
        today_is_the_gateways=True,
    ),
    "round10": CaseSet(
        "round10",
        ROOT / "bench" / "understanding" / "round10",
        "bench.understanding.round10.domains",
        today_is_the_gateways=True,
    ),
    "round11": CaseSet(
        "round11",
        ROOT / "bench" / "understanding" / "round11",
        "bench.understanding.round11.domains",
        today_is_the_gateways=True,
    ),
    "round12": CaseSet(
        "round12",
        ROOT / "bench" / "understanding" / "round12",
        "bench.understanding.round12.domains",
        today_is_the_gateways=True,
    ),
    "round13": CaseSet(
        "round13",
        ROOT / "bench" / "understanding" / "round13",
        "bench.understanding.round13.domains",
        today_is_the_gateways=True,
    ),
    "round14": CaseSet(
        "round14",
        ROOT / "bench" / "understanding" / "round14",
        "bench.understanding.round14.domains",
        today_is_the_gateways=True,
    ),
    "round15": CaseSet(
        "round15",
        ROOT / "bench" / "understanding" / "round15",
        "bench.understanding.round15.domains",
        today_is_the_gateways=True,
    ),
    "round16": CaseSet(
        "round16",
        ROOT / "bench" / "understanding" / "round16",
        "bench.understanding.round16.domains",
        today_is_the_gateways=True,
    ),
    "round17": CaseSet(
        "round17",
        ROOT / "bench" / "understanding" / "round17",
        "bench.understanding.round17.domains",
        today_is_the_gateways=True,
    ),
    "round18": CaseSet(
        "round18",
        ROOT / "bench" / "understanding" / "round18",
        "bench.understanding.round18.domains",
        today_is_the_gateways=True,
    ),
    "round19": CaseSet(
        "round19",
        ROOT / "bench" / "understanding" / "round19",
        "bench.understanding.round19.domains",
        today_is_the_gateways=True,
    ),
    "round20": CaseSet(
        "round20",
        ROOT / "bench" / "understanding" / "round20",
        "bench.understanding.round20.domains",
        today_is_the_gateways=True,
    ),
    "round21": CaseSet(
        "round21",
        ROOT / "bench" / "understanding" / "round21",
        "bench.understanding.round21.domains",
        today_is_the_gateways=True,
    ),
}


# ------------------------------------------------------------------ normalising


def fold(text: str) -> str:
    """Lower case, no accents, single spaces."""
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(re.sub(r"[^\w\s:/.,$-]", " ", plain.lower()).split())


@dataclass
class Lookups:
    """Every lookup table of the registered manifests, by entity name: alias -> canonical value."""

    tables: dict[str, dict[str, str]] = field(default_factory=dict)

    def add(self, manifest: dict[str, Any]) -> None:
        for goal in manifest.get("goals", []):
            for name, spec in goal.get("entities_schema", {}).items():
                for entry in spec.get("lookup") or []:
                    table = self.tables.setdefault(name, {})
                    for alias in [entry["value"], *entry.get("aliases", [])]:
                        table[fold(alias)] = entry["value"]

    def canonical(self, entity: str, value: str) -> str:
        table = self.tables.get(entity)
        if not table:
            return fold(value)
        key = fold(value)
        if key in table:
            return fold(table[key])
        near = process.extractOne(key, list(table), scorer=fuzz.ratio, score_cutoff=85)
        return fold(table[near[0]]) if near else key


def _read(value: str, language: str) -> list[tuple[str, Any]]:
    """What ``value`` says, read in the case's language first, then in the other ("30 reais" in
    an English message is money only in Portuguese)."""
    other = "en" if language == "pt" else "pt"
    first = [(s.type, s.value) for s in RECOGNIZER.spans(value, language, time_zone=ZONE, now=REFERENCE)]
    second = [(s.type, s.value) for s in RECOGNIZER.spans(value, other, time_zone=ZONE, now=REFERENCE)]
    return first + [found for found in second if found[0] not in {t for t, _ in first}]


_ISO_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}")


@dataclass
class Clocks:
    """Typed days the gateway resolved against its own clock, as the cases' reference clock reads
    the same words: the platform says "amanhã" is the day after the real today, the case file
    the day after ``REFERENCE``. Built from the texts of a case's turns so far (a follow-up
    carries a day said earlier), each read at the instant it was sent and at ``REFERENCE``."""

    days: dict[str, str] = field(default_factory=dict)

    @classmethod
    def of(cls, said: list[tuple[str, datetime]], language: str) -> Clocks:
        days: dict[str, str] = {}
        # the latest words first: "e sexta?" after "amanhã" may name the same real day
        for text, at in reversed(said):
            for lang in (language, "en" if language == "pt" else "pt"):
                real = RECOGNIZER.spans(text, lang, time_zone=ZONE, now=at)
                ours = {
                    (s.start, s.end, s.type): s.value
                    for s in RECOGNIZER.spans(text, lang, time_zone=ZONE, now=REFERENCE)
                }
                for span in real:
                    if span.type not in ("date", "datetime"):
                        continue
                    mine = ours.get((span.start, span.end, span.type))
                    if mine is not None:
                        days.setdefault(str(span.value), str(mine))
                        days.setdefault(str(span.value)[:10], str(mine)[:10])
        return cls(days)

    def reference(self, value: Any) -> Any:
        """``value`` (a typed day or date-time the gateway gave) on the reference clock. A day
        nobody said (a domain's suggestion: "segunda" after a full "domingo") is as far from the
        nearest day said as it is on the real clock."""
        if isinstance(value, str) and _ISO_DAY.match(value):
            if value in self.days:
                return self.days[value]
            if value[:10] in self.days:
                return self.days[value[:10]] + value[10:]
            said = [
                (date.fromisoformat(real), date.fromisoformat(ours))
                for real, ours in self.days.items()
                if len(real) == 10
            ]
            if said:
                day = date.fromisoformat(value[:10])
                real, ours = min(said, key=lambda pair: abs((pair[0] - day).days))
                return (ours + (day - real)).isoformat() + value[10:]
        return value


def normalised(
    entity: str, predicted: Any, expected: Any, language: str, lookups: Lookups, clocks: Clocks | None = None
) -> Any:
    """``predicted`` in the form ``expected`` is written in (the case file's conventions)."""
    if clocks is not None:
        predicted = (
            [clocks.reference(p) for p in predicted]
            if isinstance(predicted, list)
            else clocks.reference(predicted)
        )
    if isinstance(predicted, list):
        return [normalised(entity, p, expected, language, lookups) for p in predicted]
    if isinstance(expected, list):
        expected = expected[0] if expected else ""
    if isinstance(predicted, bool) or predicted is None:
        return predicted
    if isinstance(predicted, dict):  # a typed money value
        return {"amount": predicted.get("amount"), "currency": predicted.get("currency")}
    if isinstance(predicted, int | float) and not isinstance(expected, str):
        return predicted
    text = str(predicted)
    if isinstance(expected, str) and _ISO_DAY.match(text) and (_DAY.match(expected) or _TIME.match(expected)):
        # a typed day or date-time, already on the reference clock (``Clocks``)
        return text[:10] if _DAY.match(expected) else (text[11:16] if len(text) >= 16 else text)
    if isinstance(expected, str) and _DAY.match(expected):
        read = _read(text, language)
        return next((str(v)[:10] for t, v in read if t in ("date", "datetime")), fold(text))
    if isinstance(expected, str) and _TIME.match(expected):
        read = _read(text, language)
        found = next((v for t, v in read if t == "time"), None)
        found = found or next((str(v)[11:16] for t, v in read if t == "datetime"), None)
        return found or fold(text)
    if isinstance(expected, int | float) and not isinstance(expected, bool):
        if fold(text) in _ONE:
            return 1
        read = _read(text, language)
        return next((v for t, v in read if t == "number"), fold(text))
    if isinstance(expected, dict):
        read = _read(text, language)
        money = next((v for t, v in read if t == "money"), None)
        if isinstance(money, dict):
            return {"amount": money["amount"], "currency": money["currency"]}
        number = next((v for t, v in read if t == "number"), None)
        return {"amount": number, "currency": None} if number is not None else fold(text)
    return lookups.canonical(entity, text)


def expected_form(entity: str, value: Any, lookups: Lookups) -> Any:
    if isinstance(value, list):
        return [expected_form(entity, v, lookups) for v in value]
    if isinstance(value, str) and not (_DAY.match(value) or _TIME.match(value)):
        return lookups.canonical(entity, value)
    return value


#: An ISO 8601 duration as the case files and the platform write it ("PT90M", "PT1H30M", "P2D").
_ISO_DURATION = re.compile(r"p(?:(\d+)d)?(?:t(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?)?", re.IGNORECASE)


def _seconds(value: Any) -> int | None:
    """The seconds an ISO duration lasts ("PT90M" and "PT1H30M" are the same while), else None."""
    match = _ISO_DURATION.fullmatch(value) if isinstance(value, str) and len(value) > 1 else None
    if match is None or not any(match.groups()):
        return None
    days, hours, minutes, seconds = (int(part or 0) for part in match.groups())
    return ((days * 24 + hours) * 60 + minutes) * 60 + seconds


def same(entity: str, predicted: Any, expected: Any) -> bool:
    if (while_ := _seconds(expected)) is not None and _seconds(predicted) is not None:
        return _seconds(predicted) == while_
    if entity in LOOSE and isinstance(predicted, str) and isinstance(expected, str):
        a, b = set(fold(predicted).split()), set(fold(expected).split())
        return bool(a and b) and len(a & b) / len(b) >= 0.5
    if isinstance(expected, dict) and isinstance(predicted, dict):
        amount = predicted.get("amount")
        return (
            amount is not None
            and float(amount) == float(expected.get("amount") or 0)
            and (expected.get("currency") in (None, predicted.get("currency")))
        )
    if isinstance(expected, int | float) and isinstance(predicted, int | float):
        return float(expected) == float(predicted)
    return bool(predicted == expected)


def pairs(entities: dict[str, Any]) -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = []
    for name, value in entities.items():
        for item in value if isinstance(value, list) else [value]:
            if item is not None:
                out.append((name, item))
    return out


# ------------------------------------------------------------------ one turn's trace


@dataclass
class Observed:
    goal: str | None
    domain: str | None
    entities: dict[str, Any]
    behaviour: str
    steps: list[dict[str, Any]]
    answer: str
    #: when the turn was sent: the gateway's clock for the typed days it resolved
    at: datetime = field(default_factory=lambda: datetime.now(ZoneInfo(ZONE)))


def observe(trace: dict[str, Any], pending_before: bool) -> Observed:
    question = trace.get("question") or None
    intent = trace.get("intent") or None
    if question is not None:
        resumed = (question.get("resume") or {}).get("intent") or intent or {}
        intent = resumed
    goal = (intent or {}).get("goal")
    domain = (intent or {}).get("primary_domain")
    if domain == "general":
        goal = None
    steps = [s for s in trace.get("steps") or [] if s.get("status") not in ("pending", "skipped")]
    conversing = (
        question is not None
        and question.get("kind") == "domain_clarification"
        and (question.get("resume") or {}).get("continue_with") is not None
        # a domain that names the value it still needs asks for it ("a research request names no
        # idea"), whatever conversation it keeps
        and (question.get("resume") or {}).get("param") is None
        # the asking step ran: its answer is the domain's reply (a settled step, or the one waiting
        # for the person's next message)
        and any(s.get("status") in ("completed", "waiting_input") for s in steps)
    )
    if conversing:
        behaviour = "answer"  # the domain ran and keeps its conversation open (research's replies)
    elif question is not None:
        behaviour = "confirm" if question.get("kind") == "approval" else "ask"
    elif any(s.get("domain") != "general" for s in steps):
        behaviour = "answer"
    elif pending_before:
        behaviour = "answer"  # a reply to a pending question that ended it (a "no", a give-up)
    else:
        behaviour = "out_of_scope" if goal is None else "answer"
    entities = dict((intent or {}).get("entities") or {}) if goal is not None else {}
    return Observed(goal, domain, entities, behaviour, steps, str(trace.get("answer") or ""))


# ------------------------------------------------------------------ scoring


@dataclass
class Tally:
    turns: int = 0
    goal_turns: int = 0
    goal_right: int = 0
    behaviour_right: int = 0
    tp: int = 0
    fp: int = 0
    fn: int = 0
    side_effects_unsaid: int = 0
    junk_steps: int = 0
    failures: list[str] = field(default_factory=list)
    by_behaviour: Counter[str] = field(default_factory=Counter)
    behaviour_hits: Counter[str] = field(default_factory=Counter)
    #: goal turns / right ones, leaving out the cases tagged ``notifier_no_goal``: the case file
    #: calls "manda no telegram: <texto>" out of scope, issue 21 asks for a notifier goal for it
    goal_turns_without_notifier_texts: int = 0
    goal_right_without_notifier_texts: int = 0

    def line(self) -> dict[str, Any]:
        p = self.tp / (self.tp + self.fp) if self.tp + self.fp else 0.0
        r = self.tp / (self.tp + self.fn) if self.tp + self.fn else 0.0
        return {
            "turns": self.turns,
            "goal": round(self.goal_right / self.goal_turns, 3) if self.goal_turns else None,
            "entity_precision": round(p, 3),
            "entity_recall": round(r, 3),
            "entity_f1": round(2 * p * r / (p + r), 3) if p + r else 0.0,
            "behaviour": round(self.behaviour_right / self.turns, 3) if self.turns else None,
            "side_effecting_calls_with_unsaid_values": self.side_effects_unsaid,
            "junk_steps": self.junk_steps,
            "goal_without_notifier_texts": round(
                self.goal_right_without_notifier_texts / self.goal_turns_without_notifier_texts, 3
            )
            if self.goal_turns_without_notifier_texts
            else None,
        }


@dataclass
class Platform:
    gateway: Process
    side_effecting: set[tuple[str, str]]
    lookups: Lookups
    #: the gateway's output (INFO): the intent model's trainings are logged there
    log: Path | None = None
    #: entities some manifest declares with a value type (date, time, number, money, ...): their
    #: parameters are checked for unsaid values like ``*_text`` ones
    typed_entities: set[str] = field(default_factory=set)

    def log_size(self) -> int:
        return self.log.stat().st_size if self.log is not None and self.log.exists() else 0

    def wait_settled(self, since: int, most_s: float) -> float:
        """Wait until the full training that follows the last warm start logged after byte
        ``since`` has finished (none: the registration trained in full), at most ``most_s``
        seconds; the seconds waited. A loaded machine trains slowly: a fixed wait would measure
        the warm-started model."""
        began = time.perf_counter()
        if self.log is None:
            time.sleep(most_s)
            return most_s
        while time.perf_counter() - began < most_s:
            with self.log.open("rb") as handle:
                handle.seek(since)
                tail = handle.read().decode("utf-8", "replace")
            warm = _WARM_STARTED.findall(tail)
            if not warm:
                return time.perf_counter() - began
            last = tail.rfind(f"intent model of catalog {warm[-1]} warm-started")
            if re.search(rf"intent model of catalog {warm[-1]} trained in", tail[last:]):
                return time.perf_counter() - began
            time.sleep(1.0)
        return time.perf_counter() - began


def score_turn(
    tally: Tally,
    case_id: str,
    index: int,
    turn: dict[str, Any],
    seen: Observed,
    lang: str,
    platform: Platform,
    tags: tuple[str, ...] = (),
    said: list[tuple[str, datetime]] | None = None,
    earlier: Sequence[dict[str, Any]] = (),
) -> bool:
    """``said``: the case's turns so far (this one last), each with the instant it was sent;
    ``earlier``: the expectations of the turns before this one."""
    clocks = Clocks.of(said or [(turn["text"], seen.at)], lang)
    expect = turn["expect"]
    tally.turns += 1
    problems: list[str] = []
    behaviour = expect["behaviour"]
    tally.by_behaviour[behaviour] += 1
    if seen.behaviour == behaviour:
        tally.behaviour_right += 1
        tally.behaviour_hits[behaviour] += 1
    else:
        problems.append(f"behaviour {seen.behaviour} (expected {behaviour})")
    goal = expect.get("goal")
    scored_goal = goal is not None or behaviour == "out_of_scope"
    if scored_goal:
        tally.goal_turns += 1
        counted = "notifier_no_goal" not in tags
        tally.goal_turns_without_notifier_texts += counted
        if seen.goal == goal:
            tally.goal_right += 1
            tally.goal_right_without_notifier_texts += counted
        else:
            problems.append(f"goal {seen.goal} (expected {goal})")
    expected = {k: expected_form(k, v, platform.lookups) for k, v in (expect.get("entities") or {}).items()}
    if goal is not None:
        got = {
            k: normalised(k, v, expected.get(k, ""), lang, platform.lookups, clocks)
            for k, v in seen.entities.items()
            if v not in (None, "", [])
        }
        want = pairs(expected)
        have = pairs(got)
        matched: set[int] = set()
        right = 0
        for name, value in have:
            hit = next(
                (
                    i
                    for i, (n, v) in enumerate(want)
                    if i not in matched and n == name and seen.goal == goal and same(name, value, v)
                ),
                None,
            )
            if hit is None:
                tally.fp += 1
                problems.append(f"entity {name}={value!r} not expected")
            else:
                matched.add(hit)
                right += 1
        tally.tp += right
        missing = [want[i] for i in range(len(want)) if i not in matched]
        tally.fn += len(missing)
        problems += [f"entity {n}={v!r} missed" for n, v in missing]
    # a value is said when any turn so far says it: the yes that runs a request said before, and
    # a re-issue with a domain's suggestion, whose turn expects the suggested value, call the
    # person's own values first
    said = [v for _, v in pairs(expected)]
    for before in earlier:
        entities = before.get("entities") or {}
        said += [v for _, v in pairs({k: expected_form(k, v, platform.lookups) for k, v in entities.items()})]
    for step in seen.steps:
        params = step.get("params") or {}
        unsaid = [
            name
            for name, value in params.items()
            if (name.endswith("_text") or name in platform.typed_entities)
            and value not in (None, "", [])
            and not any(
                same(name, normalised(name, value, v, lang, platform.lookups, clocks), v)
                for v in said
                if not isinstance(v, bool)
            )
        ]
        junk = (behaviour == "out_of_scope" and step.get("domain") != "general") or bool(unsaid)
        if junk:
            tally.junk_steps += 1
            problems.append(f"junk step {step.get('domain')}.{step.get('capability')} {params}")
        if unsaid and (step.get("domain"), step.get("capability")) in platform.side_effecting:
            tally.side_effects_unsaid += 1
            problems.append(f"SIDE EFFECT with unsaid {unsaid}")
    if problems:
        tally.failures.append(f"{case_id} turn {index + 1} `{turn['text']}`: " + "; ".join(problems))
    return not problems


def play(platform: Platform, case: dict[str, Any], session: str) -> list[tuple[dict[str, Any], Observed]]:
    out = []
    pending = False
    for turn in case["turns"]:
        at = datetime.now(ZoneInfo(ZONE))
        response = httpx.post(
            f"{platform.gateway.url}/v1/runs",
            json={"input_text": turn["text"], "session_id": session, "metadata": {"time_zone": ZONE}},
            timeout=120,
        )
        trace = response.json() if response.status_code == 200 else {}
        seen = observe(trace, pending)
        seen.at = at
        pending = trace.get("question") is not None
        out.append((turn, seen))
    return out


# ------------------------------------------------------------------ processes


def _start(name: str, module: str, env: dict[str, str], tree: Path, log: Path | None = None) -> Process:
    """``python -m module --port P`` run from ``tree`` (the code under test), waited for."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    # the tree under test first; this one for bench.understanding (an older tree lacks it)
    full = {**os.environ, **env, "PYTHONPATH": os.pathsep.join(dict.fromkeys([str(tree), str(ROOT)]))}
    argv = [sys.executable, "-m", module]
    if module == "gateway":  # the gateway reads its port from its settings
        full["GATEWAY_PORT"] = str(port)
    else:
        argv += ["--port", str(port)]
    output = log.open("ab") if log is not None else None
    proc = spawn(argv, env=full, cwd=tree, output=output)
    if output is not None:
        output.close()  # the child holds its own copy
    try:
        wait_http(f"{url}/health", None, proc=proc)
    except BaseException:
        stop_process(proc)
        raise
    return Process(name, url, proc)


@contextmanager
def running_platform(
    work: Path, case_set: CaseSet, augment: bool = False, tree: Path = ROOT
) -> Iterator[tuple[Platform, dict[str, Process]]]:
    with ExitStack() as stack:
        env = {"NOTIFIER_OUTBOX_PATH": str(work / "outbox.sqlite3"), "TELEGRAM_BOT_TOKEN": ""}
        shipped: dict[str, Process] = {}
        for name in ("finance", "notifier", "general"):
            shipped[name] = _start(name, f"domains.{name}", env, tree)
            stack.callback(shipped[name].stop)
        research_db = f"sqlite+aiosqlite:///{work / 'research.sqlite3'}"
        research_env = {"RESEARCH_DATABASE_URL": research_db, "LLM_BASE_URL": "", "LLM_MODEL": ""}
        shipped["research"] = _start("research", "domains.research", research_env, tree)
        stack.callback(shipped["research"].stop)
        new: dict[str, Process] = {}
        today = datetime.now(ZoneInfo(ZONE)).date().isoformat()
        domain_env = {"BENCH_TODAY": today} if case_set.today_is_the_gateways else {}
        for name in case_set.domains():
            new[name] = _start(name, f"{case_set.package}.{name}", domain_env, tree)
            stack.callback(new[name].stop)
        bootstrap = write_bootstrap(work / "bootstrap.json", {n: p.url for n, p in shipped.items()})
        gateway = _start(
            "gateway",
            "gateway",
            {
                "DATABASE_URL": f"sqlite+aiosqlite:///{work / 'gateway.sqlite3'}",
                "BOOTSTRAP_FILE": str(bootstrap),
                "ADMIN_TOKEN": ADMIN_TOKEN,
                "API_KEYS": "",
                "REDIS_URL": "",
                "LLM_BASE_URL": "",
                "LLM_MODEL": "",
                # every registration trains: no model stored by an earlier run answers
                "INTENT_CACHE_DIR": "",
                "INTENT_TIME_ZONE": ZONE,
                "INTENT_AUGMENT": "true" if augment else "false",
                "GATEWAY_HOST": "127.0.0.1",
                "LOG_LEVEL": "INFO",  # the intent model's trainings, read by wait_settled
            },
            tree,
            work / "gateway.log",
        )
        stack.callback(gateway.stop)
        lookups = Lookups()
        side_effecting: set[tuple[str, str]] = set()
        typed_entities: set[str] = set()
        for process_ in [*shipped.values(), *new.values()]:
            manifest = httpx.get(f"{process_.url}/manifest", timeout=30).json()
            for goal in manifest.get("goals", []):
                for name, spec in goal.get("entities_schema", {}).items():
                    if spec.get("lookup_path"):
                        served = httpx.get(f"{process_.url}{spec['lookup_path']}", timeout=30).json()
                        goal["entities_schema"][name]["lookup"] = served
            parse_manifest(
                json.dumps(manifest).encode(), None
            )  # a manifest that breaks the schema stops here
            lookups.add(manifest)
            for goal in manifest.get("goals", []):
                for name, spec in goal.get("entities_schema", {}).items():
                    if spec.get("type") in TYPED:
                        typed_entities.add(name)
            for capability in manifest.get("capabilities", []):
                metadata = capability.get("metadata") or {}
                if (metadata.get("policy") or {}).get("confirm") or capability.get("role") == "notifier":
                    side_effecting.add((manifest["domain"], capability["name"]))
        yield Platform(gateway, side_effecting, lookups, work / "gateway.log", typed_entities), new


def register(platform: Platform, new: dict[str, Process]) -> float:
    """Register the set's domains (after removing them if present); seconds the POSTs took."""
    headers = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
    for name in new:
        httpx.delete(f"{platform.gateway.url}/v1/domains/{name}", headers=headers, timeout=120)
    began = time.perf_counter()
    for name, process_ in new.items():
        response = httpx.post(
            f"{platform.gateway.url}/v1/domains",
            json={"name": name, "base_url": process_.url, "allow_overlap": True},
            headers=headers,
            timeout=900,
        )
        if response.status_code >= 300:
            raise SystemExit(f"registering {name} failed: {response.status_code} {response.text[:300]}")
    return time.perf_counter() - began


# ------------------------------------------------------------------ report


def report(
    split: str,
    settled: Tally,
    early: Tally | None,
    cases: int,
    registration_s: list[float],
    case_set: str = "round1",
    domains: int = 3,
) -> str:
    lines = [f"## {case_set} {split} ({cases} cases, {settled.turns} turns)", ""]
    columns = "model | turns | goal | entity P | entity R | entity F1 | behaviour"
    lines.append(f"| {columns} | side effects unsaid | junk steps |")
    lines.append("|---|---|---|---|---|---|---|---|---|")
    for label, tally in (("settled", settled), (f"within {EARLY_WINDOW_S:g} s of a registration", early)):
        if tally is None:
            continue
        d = tally.line()
        lines.append(
            f"| {label} | {d['turns']} | {d['goal']} | {d['entity_precision']} | {d['entity_recall']} | "
            f"{d['entity_f1']} | {d['behaviour']} | {d['side_effecting_calls_with_unsaid_values']} | "
            f"{d['junk_steps']} |"
        )
    lines.append("")
    lines.append(
        "Goal accuracy leaving out the cases tagged `notifier_no_goal` (the case file expects "
        '"manda no telegram: <texto>" to be out of scope; issue 21 gives the notifier a goal for it): '
        + ", ".join(
            f"{label} {tally.line()['goal_without_notifier_texts']}"
            for label, tally in (("settled", settled), ("early", early))
            if tally is not None
        )
        + "."
    )
    hits = ", ".join(f"{b} {settled.behaviour_hits[b]}/{n}" for b, n in sorted(settled.by_behaviour.items()))
    lines.append(f"Right behaviour by expected behaviour (settled): {hits}.")
    if registration_s:
        lines.append(
            f"Registration of the set's {domains} domains ({domains} POSTs): median "
            f"{statistics.median(registration_s):.2f} s over {len(registration_s)} registrations."
        )
    lines.append("")
    if split == "dev":
        lines.append(f"### Failed dev turns (settled, {len(settled.failures)})")
        lines.append("")
        lines += [f"- {line}" for line in settled.failures]
        lines.append("")
    return "\n".join(lines)


def run_split(
    platform: Platform,
    new: dict[str, Process],
    cases: list[dict[str, Any]],
    early: bool,
    label: str,
    settle_s: float = SETTLE_S,
) -> tuple[Tally, Tally | None, list[float]]:
    since = platform.log_size()
    registration_s = [register(platform, new)]
    settled = Tally()
    # the settled model: the full training that follows a registration's warm start runs in the
    # background; its end is in the gateway's log
    waited = platform.wait_settled(since, settle_s)
    print(f"{label}: settled {waited:.0f} s after the registration", file=sys.stderr, flush=True)
    for n, case in enumerate(cases):
        played = play(platform, case, f"{label}-settled-{n}")
        for index, (turn, seen) in enumerate(played):
            said = [(t["text"], s.at) for t, s in played[: index + 1]]
            earlier = [t["expect"] for t, _ in played[:index]]
            score_turn(
                settled,
                case["id"],
                index,
                turn,
                seen,
                case["lang"],
                platform,
                tuple(case["tags"]),
                said,
                earlier,
            )
    if not early:
        return settled, None, registration_s
    early_tally = Tally()
    left = list(cases)
    while left:
        registration_s.append(register(platform, new))
        began = time.perf_counter()
        while left and time.perf_counter() - began < EARLY_WINDOW_S:
            case = left.pop(0)
            played = play(platform, case, f"{label}-early-{len(left)}")
            for index, (turn, seen) in enumerate(played):
                said = [(t["text"], s.at) for t, s in played[: index + 1]]
                score_turn(
                    early_tally,
                    case["id"],
                    index,
                    turn,
                    seen,
                    case["lang"],
                    platform,
                    tuple(case["tags"]),
                    said,
                    [t["expect"] for t, _ in played[:index]],
                )
    return settled, early_tally, registration_s


def _exit_on_sigterm(signum: int, frame: FrameType | None) -> NoReturn:
    raise SystemExit(128 + signum)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--set", dest="case_set", choices=sorted(SETS), default="round1")
    parser.add_argument("--split", choices=["dev", "test", "both"], default="both")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--skip-early", action="store_true", help="do not measure right after registrations")
    parser.add_argument(
        "--augment", action="store_true", help="INTENT_AUGMENT=true (measure intent.augment; off by default)"
    )
    parser.add_argument(
        "--tree", type=Path, default=ROOT, help="run the platform from this checkout (a baseline)"
    )
    parser.add_argument(
        "--settle",
        type=float,
        default=SETTLE_S,
        help="at most this long after the registration, the settled model is measured (it is as soon "
        "as the gateway logs the end of the full training)",
    )
    args = parser.parse_args()
    # a run stopped with SIGTERM unwinds like Ctrl-C, so the domain processes it started stop too
    signal.signal(signal.SIGTERM, _exit_on_sigterm)
    case_set = SETS[args.case_set]
    every = [json.loads(line) for line in case_set.cases.read_text().splitlines() if line.strip()]
    splits = ["dev", "test"] if args.split == "both" else [args.split]
    sections = []
    summary: dict[str, Any] = {}
    with (
        tempfile.TemporaryDirectory(prefix="bench-understanding-") as work,
        running_platform(Path(work), case_set, augment=args.augment, tree=args.tree) as (platform, new),
    ):
        for split in splits:
            cases = [c for c in every if c["split"] == split]
            settled, early, registration_s = run_split(
                platform, new, cases, not args.skip_early, split, args.settle
            )
            sections.append(
                report(split, settled, early, len(cases), registration_s, case_set.name, len(new))
            )
            summary[split] = {"settled": settled.line(), **({"early": early.line()} if early else {})}
            print(f"{split}: {json.dumps(summary[split])}", flush=True)
    header = [
        "# Understanding on held-out domains and phrasings",
        "",
        f"`python bench/understanding_eval.py --set {case_set.name}` (see its docstring): domains written",
        f"from the docs only (`{case_set.directory.relative_to(ROOT)}/`), registered at run time",
        "beside the shipped ones, every case played through a real gateway (`POST /v1/runs`).",
        "Test-split numbers are aggregates only.",
        "",
    ]
    args.out.write_text("\n".join(header + sections) + "\n")
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
