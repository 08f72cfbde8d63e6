"""Understanding benchmark: goals and entities on held-out messages, and junk steps on chatty ones.

    python bench/nlu_eval.py [--set bench/nlu_eval_set.jsonl] [--out bench/results/nlu_eval.md]
                             [--cache-dir DIR] [--rounds 5]

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
* **parse latency**, warm (the model trained once, or loaded from ``--cache-dir``): ``--rounds``
  passes over the set; per message, the parse is timed next to two *references* on the same
  text — the sentence encoder's single encode (what an unsure message pays on top of TF-IDF) and
  the TF-IDF row alone — so a busy machine (2 cores shared with other runs) shows in the
  references too and the ratios stay comparable between runs. Reported: medians over the rounds
  of each round's median and p95, the ratios, and the share of parses that needed the encoder.

The last output line is one JSON object with the headline numbers.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from intent.classifier import TrainConfig  # noqa: E402
from intent.embedded import EmbeddedIntentAdapter  # noqa: E402
from intent.embeddings import load_encoder  # noqa: E402
from planner.service import PlannerService  # noqa: E402
from shared.catalog import Catalog  # noqa: E402
from shared.errors import PlatformError  # noqa: E402
from shared.manifest import DomainManifest  # noqa: E402
from shared.models import IntentOutput  # noqa: E402

DEFAULT_SET = ROOT / "bench" / "nlu_eval_set.jsonl"
DEFAULT_OUT = ROOT / "bench" / "results" / "nlu_eval.md"


def shipped_catalog() -> Catalog:
    """The shipped domains' manifests (with the lookup tables they serve) plus the benchmark-only
    currency domain."""
    from domains.finance.service import build_service as finance
    from domains.general.service import build_service as general
    from domains.notifier.service import build as notifier
    from domains.research.service import build as research
    from tests.fixtures.currency_domain import service as currency

    manifests: list[DomainManifest] = [
        finance().manifest_with_lookups(),  # its company table, as a gateway fetches it
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


@dataclass
class Latency:
    """Medians over rounds (ms) of the per-round median / p95 of each timed operation."""

    rounds: int
    parse: tuple[float, float]
    encode: tuple[float, float]
    tfidf: tuple[float, float]
    #: share of parses that ran the sentence encoder (the rest took the TF-IDF fast path)
    encoded_share: float

    def ratio(self, reference: tuple[float, float]) -> float:
        return self.parse[0] / reference[0] if reference[0] else float("nan")


def _median_p95(times: list[float]) -> tuple[float, float]:
    ordered = sorted(times)
    return statistics.median(ordered), ordered[int(0.95 * (len(ordered) - 1))]


def latency(rows: list[dict[str, Any]], adapter: EmbeddedIntentAdapter, rounds: int) -> Latency:
    """Warm parse latency beside the encoder's single encode and the TF-IDF row of each message."""
    model = adapter.model
    encoder = load_encoder()
    if model is None or encoder is None:
        raise SystemExit("the latency measurement needs a trained model and the sentence encoder")
    texts = [row["text"] for row in rows]
    for text in texts:  # warm-up: first calls allocate (onnxruntime arenas, numpy caches)
        adapter.parse_sync(text)
        encoder.encode_one(text)
    per_round: dict[str, list[tuple[float, float]]] = {"parse": [], "encode": [], "tfidf": []}
    encoded_before, parses = adapter.encoded_texts, 0
    for _ in range(rounds):
        times: dict[str, list[float]] = {key: [] for key in per_round}
        for text in texts:
            operations: tuple[tuple[str, Callable[[str], object]], ...] = (
                ("parse", adapter.parse_sync),
                ("encode", encoder.encode_one),
                ("tfidf", model.features.row),
            )
            for key, run in operations:
                started = time.perf_counter()
                run(text)
                times[key].append((time.perf_counter() - started) * 1000)
            parses += 1
        for key, values in times.items():
            per_round[key].append(_median_p95(values))

    def over_rounds(key: str) -> tuple[float, float]:
        medians, p95s = zip(*per_round[key], strict=True)
        return statistics.median(medians), statistics.median(p95s)

    return Latency(
        rounds=rounds,
        parse=over_rounds("parse"),
        encode=over_rounds("encode"),
        tfidf=over_rounds("tfidf"),
        encoded_share=(adapter.encoded_texts - encoded_before) / parses,
    )


def report(tallies: dict[str, Tally], timing: Latency, n_rows: int, command: str) -> str:
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
        f"Parse latency, warm, `{command}` ({timing.rounds} rounds over the set; medians over rounds):",
        "",
        "| timed per message | median ms | p95 ms |",
        "|---|---|---|",
        f"| **parse** (shipped cascade, with entities) | **{timing.parse[0]:.2f}** | {timing.parse[1]:.2f} |",
        f"| reference: sentence encoder, one encode | {timing.encode[0]:.2f} | {timing.encode[1]:.2f} |",
        f"| reference: TF-IDF row alone | {timing.tfidf[0]:.3f} | {timing.tfidf[1]:.3f} |",
        "",
        f"Median parse / median encode = {timing.ratio(timing.encode):.2f}; median parse / median TF-IDF row "
        f"= {timing.ratio(timing.tfidf):.1f}. Sentence-encoder runs per parse: {timing.encoded_share:.2f} "
        "(the rest is the TF-IDF fast path; a chatty message may also score its request part alone).",
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
    parser.add_argument(
        "--cache-dir", type=Path, default=None, help="keep the trained model here (as INTENT_CACHE_DIR)"
    )
    parser.add_argument("--rounds", type=int, default=5, help="latency passes over the set")
    parser.add_argument(
        "--augment", action="store_true", help="also learn intent.augment's texts (off by default)"
    )
    args = parser.parse_args()
    rows = [json.loads(line) for line in args.set.read_text().splitlines() if line.strip()]
    catalog = shipped_catalog()
    adapter = EmbeddedIntentAdapter(
        catalog, cache_dir=args.cache_dir, config=TrainConfig(augment=args.augment)
    )
    planner = PlannerService(catalog)
    tallies = evaluate(rows, adapter, planner)
    timing = latency(rows, adapter, args.rounds)
    command = "python bench/nlu_eval.py" + (f" --rounds {args.rounds}" if args.rounds != 5 else "")
    text = report(tallies, timing, len(rows), command)
    args.out.write_text(text)
    print(text)
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
                "median_parse_ms": round(timing.parse[0], 3),
                "p95_parse_ms": round(timing.parse[1], 3),
                "median_encode_ms": round(timing.encode[0], 3),
                "parse_to_encode": round(timing.ratio(timing.encode), 3),
                "encoded_share": round(timing.encoded_share, 3),
            }
        )
    )


if __name__ == "__main__":
    main()
