"""Understanding benchmark: goals and entities on held-out messages, and junk steps on chatty ones.

    python bench/nlu_eval.py [--set bench/nlu_eval_set.jsonl] [--out bench/results/nlu_eval.md]

The catalog is the shipped one (finance, general, notifier, research) plus the currency domain of
``tests/fixtures/currency_domain.py`` (role entities, never shipped). The production embedded
adapter learns it (``update_catalog``), then every message of the set (written by hand, none of
them a manifest example) is parsed:

* **goal accuracy**: the predicted (domain, goal) is the expected one (``null`` = out of scope);
* **entities**: micro precision/recall/F1 over (entity, value) pairs, exact span for string
  entities (as written), exact value for enums and booleans; a list counts each element; entities
  predicted under a wrong goal count as false positives;
* **junk steps**: the planner's steps for the goal's own capabilities whose entity parameters are
  not among the expected values (a quote of "incômodo"), counted on the ``chatty`` messages
  (polite, long, filler-heavy) and on the whole set;
* **parse latency**: median and p95 of a second pass.

The last output line is one JSON object with the headline numbers.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from intent.embedded import EmbeddedIntentAdapter  # noqa: E402
from planner.service import PlannerService  # noqa: E402
from shared.catalog import Catalog  # noqa: E402
from shared.errors import PlatformError  # noqa: E402
from shared.manifest import DomainManifest  # noqa: E402
from shared.models import IntentOutput  # noqa: E402

DEFAULT_SET = ROOT / "bench" / "nlu_eval_set.jsonl"
DEFAULT_OUT = ROOT / "bench" / "results" / "nlu_eval.md"


def shipped_catalog() -> Catalog:
    """The shipped domains' manifests plus the benchmark-only currency domain."""
    from domains.finance.service import build_service as finance
    from domains.general.service import build_service as general
    from domains.notifier.service import build as notifier
    from domains.research.service import build as research
    from tests.fixtures.currency_domain import service as currency

    manifests: list[DomainManifest] = [
        finance().manifest(),
        general().manifest(),
        notifier().service.manifest(),
        research().service.manifest(),
        currency.manifest(),
    ]
    return Catalog(manifests)


def pairs(entities: dict[str, Any]) -> Counter[tuple[str, str]]:
    """(entity, value) pairs; a list gives one pair per element."""
    out: Counter[tuple[str, str]] = Counter()
    for name, value in entities.items():
        for v in value if isinstance(value, list) else [value]:
            out[(name, json.dumps(v, ensure_ascii=False))] += 1
    return out


@dataclass
class Tally:
    n: int = 0
    goal_ok: int = 0
    tp: int = 0
    fp: int = 0
    fn: int = 0
    junk_steps: int = 0
    messages_with_junk: int = 0
    misses: list[str] = field(default_factory=list)

    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0

    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0

    def f1(self) -> float:
        p, r = self.precision(), self.recall()
        return 2 * p * r / (p + r) if p + r else 0.0

    def accuracy(self) -> float:
        return self.goal_ok / self.n if self.n else 0.0


def junk_steps(intent: IntentOutput, gold: dict[str, Any], planner: PlannerService) -> int:
    """Steps of the goal's own capabilities with an entity parameter the person did not name."""
    if intent.goal is None:
        return 0
    try:
        execution_intent, plan = planner.plan(intent)
    except PlatformError:
        return 0
    own = set(execution_intent.capabilities or [execution_intent.capability])
    wanted = {name: set(pairs({name: value})) for name, value in gold.items()}
    junk = 0
    for step in plan.steps:
        if step.capability not in own:
            continue
        for name, value in step.params.items():
            if name not in intent.entities or isinstance(value, bool):
                continue
            if set(pairs({name: value})) - wanted.get(name, set()):
                junk += 1
                break
    return junk


def evaluate(
    rows: list[dict[str, Any]], adapter: EmbeddedIntentAdapter, planner: PlannerService
) -> dict[str, Tally]:
    tallies = {key: Tally() for key in ("all", "pt", "en", "chatty")}
    for row in rows:
        out = adapter.parse_sync(row["text"])
        keys = ["all", row["lang"], *(["chatty"] if row.get("chatty") else [])]
        goal_ok = (out.primary_domain if out.goal else None, out.goal) == (row["domain"], row["goal"])
        gold = row.get("entities")
        junk = junk_steps(out, gold or {}, planner) if gold is not None else 0
        for key in keys:
            t = tallies[key]
            t.n += 1
            t.goal_ok += goal_ok
            t.junk_steps += junk
            t.messages_with_junk += junk > 0
            if gold is not None:
                predicted, expected = pairs(out.entities), pairs(gold)
                t.tp += sum((predicted & expected).values())
                t.fp += sum((predicted - expected).values())
                t.fn += sum((expected - predicted).values())
                if predicted != expected or not goal_ok:
                    t.misses.append(
                        f"`{row['text']}` → {out.goal} {out.entities} (expected {row['goal']} {gold})"
                    )
            elif not goal_ok:
                t.misses.append(f"`{row['text']}` → {out.goal} (expected {row['goal']})")
    return tallies


def latency_ms(rows: list[dict[str, Any]], adapter: EmbeddedIntentAdapter) -> tuple[float, float]:
    times = []
    for row in rows:
        started = time.perf_counter()
        adapter.parse_sync(row["text"])
        times.append((time.perf_counter() - started) * 1000)
    times.sort()
    return statistics.median(times), times[int(0.95 * (len(times) - 1))]


def report(tallies: dict[str, Tally], latency: tuple[float, float], n_rows: int) -> str:
    lines = [
        "# Understanding benchmark (`bench/nlu_eval.py`)",
        "",
        f"Held-out set: `bench/nlu_eval_set.jsonl`, {n_rows} hand-written messages (pt-BR and English) for",
        "the shipped domains and the benchmark-only currency domain (`tests/fixtures/currency_domain.py`,",
        "two enum entities of one type by role), 30 of them chatty/polite/long. None is a manifest example.",
        "Production embedded adapter (TF-IDF + sentence-encoder cascade), shipped catalog + currency.",
        "",
        "| slice | messages | goal accuracy | entity P | entity R | entity F1 | junk steps "
        "| messages with junk |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for key, t in tallies.items():
        lines.append(
            f"| {key} | {t.n} | {t.accuracy():.3f} | {t.precision():.3f} | {t.recall():.3f} | {t.f1():.3f} "
            f"| {t.junk_steps} | {t.messages_with_junk} |"
        )
    lines += [
        "",
        f"Parse latency (second pass, this machine): median {latency[0]:.2f} ms, p95 {latency[1]:.2f} ms.",
        "",
        "Targets (issue 13): goal ≥ 0.95, entity F1 ≥ 0.93, zero junk steps on the chatty set.",
        "",
        "## Misses (all slices)",
        "",
        *(f"- {m}" for m in tallies["all"].misses),
        "",
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", type=Path, default=DEFAULT_SET)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args()
    rows = [json.loads(line) for line in args.set.read_text().splitlines() if line.strip()]
    catalog = shipped_catalog()
    adapter = EmbeddedIntentAdapter(catalog)
    planner = PlannerService(catalog)
    tallies = evaluate(rows, adapter, planner)
    latency = latency_ms(rows, adapter)
    args.out.write_text(report(tallies, latency, len(rows)))
    print(report(tallies, latency, len(rows)))
    headline = tallies["all"]
    print(
        json.dumps(
            {
                "n": headline.n,
                "goal_accuracy": round(headline.accuracy(), 4),
                "entity_precision": round(headline.precision(), 4),
                "entity_recall": round(headline.recall(), 4),
                "entity_f1": round(headline.f1(), 4),
                "chatty_junk_steps": tallies["chatty"].junk_steps,
                "median_parse_ms": round(latency[0], 3),
            }
        )
    )


if __name__ == "__main__":
    main()
