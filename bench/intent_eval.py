"""CLINC150-style benchmark of the production embedded intent adapter.

    python bench/intent_eval.py --train TRAIN.json --eval EVAL.json --split val

Builds one synthetic domain manifest per CLINC domain (``domains.json`` next to TRAIN.json, else
one domain per intent prefix group), one goal per intent with the training utterances as
examples, registers them through ``Catalog`` + ``EmbeddedIntentAdapter.update_catalog`` (the
production code path), then classifies EVAL.json's ``NAME`` (in scope) and ``oos_NAME`` items.
``oos_train`` is used only to fit calibration (never as a goal). The last output line is one
JSON object: {"split", "in_scope_accuracy", "oos_recall", "median_ms", "n"}.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from intent.calibration import expected_calibration_error
from intent.classifier import TrainConfig
from intent.embedded import EmbeddedIntentAdapter
from shared.catalog import Catalog
from shared.i18n.bilingual import text_in
from shared.manifest import DomainManifest

#: The calibrated-confidence cut-off: 0.5 = "more likely right than wrong", the same default as
#: ``INTENT_OOS_THRESHOLD`` (checked on CLINC150 ``val`` only; see bench/results/intent.md).
DEFAULT_OOS_THRESHOLD = 0.5
#: The orchestrator confidence gate recommended on the calibrated scale (bench/results/intent.md).
RECOMMENDED_GATE = 0.7


def _ident(name: str) -> str:
    return re.sub(r"[^a-z0-9_]", "_", name.lower())


def build_manifests(train: list[list[str]], domains_file: Path | None) -> list[DomainManifest]:
    by_intent: dict[str, list[str]] = {}
    for text, intent in train:
        if intent != "oos":
            by_intent.setdefault(intent, []).append(text)
    if domains_file is not None and domains_file.exists():
        domains: dict[str, list[str]] = json.loads(domains_file.read_text())
    else:
        domains = {"clinc": sorted(by_intent)}
    manifests = []
    for domain, intents in sorted(domains.items()):
        intents = [i for i in intents if i in by_intent]
        if not intents:
            continue
        manifests.append(
            DomainManifest.model_validate(
                {
                    "domain": _ident(domain),
                    "version": "1",
                    "description": domain.replace("_", " "),
                    "capabilities": [
                        {"name": _ident(i), "description": i.replace("_", " ")} for i in intents
                    ],
                    "goals": [
                        {
                            "goal": _ident(i).upper(),
                            "description": i.replace("_", " "),
                            "capabilities": [_ident(i)],
                            "examples": by_intent[i],
                        }
                        for i in intents
                    ],
                }
            )
        )
    return manifests


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--train", type=Path)
    ap.add_argument("--eval", type=Path)
    ap.add_argument("--split")
    ap.add_argument("--pt", type=Path, help="run the Portuguese set for the shipped domains instead")
    ap.add_argument("--oos-threshold", type=float, default=DEFAULT_OOS_THRESHOLD)
    ap.add_argument("--sweep", action="store_true", help="print accuracy/recall for several thresholds")
    ap.add_argument("--no-embeddings", action="store_true", help="TF-IDF path only (the fallback)")
    ap.add_argument(
        "--augment", action="store_true", help="also learn intent.augment's texts (off by default)"
    )
    ap.add_argument("--gate", type=float, default=RECOMMENDED_GATE, help="confidence gate for --pt")
    args = ap.parse_args()
    if args.pt is not None:
        run_pt(args.pt, use_embeddings=not args.no_embeddings, gate=args.gate)
        return
    if not (args.train and args.eval and args.split):
        ap.error("--train, --eval and --split are required (or --pt FILE)")

    train = json.loads(args.train.read_text())
    data = json.loads(args.eval.read_text())
    manifests = build_manifests(train["train"], args.train.parent / "domains.json")
    negatives = [t for t, _ in train.get("oos_train", [])]
    started = time.perf_counter()
    adapter = EmbeddedIntentAdapter(
        oos_threshold=args.oos_threshold,
        negatives=negatives,
        use_embeddings=not args.no_embeddings,
        config=TrainConfig(augment=args.augment),
    )
    adapter.update_catalog(Catalog(manifests))
    print(f"trained {sum(len(m.goals) for m in manifests)} goals in {time.perf_counter() - started:.1f}s")
    cal = adapter.calibration
    print(
        f"held-out calibration: n={cal.heldout} (+{cal.negatives} oos_train) acc={cal.heldout_accuracy:.3f} "
        f"T={cal.temperature:.3f} ECE before={cal.ece_before:.3f} after={cal.ece_after:.3f}"
    )

    inscope = data[args.split]
    oos = data[f"oos_{args.split}"]
    items = [(t, i) for t, i in inscope] + [(t, "oos") for t, _ in oos]
    goal_of = {
        g.goal.goal: _ident(i) for g in adapter.catalog.goals() for i in [text_in(g.goal.description, "en")]
    }
    times, predicted, confidence, top_goal = [], [], [], []
    for text, _ in items:
        t0 = time.perf_counter()
        out = adapter.parse_sync(text)
        times.append((time.perf_counter() - t0) * 1000)
        top_name = out.alternatives[0].goal if out.alternatives else None
        predicted.append(goal_of.get(out.goal or "", "oos"))
        top_goal.append(goal_of.get(top_name or "", "oos"))
        confidence.append(out.confidence)

    gold = np.array([_ident(i) if i != "oos" else "oos" for _, i in items])
    pred = np.array(predicted)
    top = np.array(top_goal)
    conf = np.array(confidence, dtype=np.float32)
    is_in = gold != "oos"
    correct_top = (top == gold) & is_in
    print(f"top-1 accuracy without the threshold: {float(correct_top[is_in].mean()):.4f}")
    print(
        f"ECE on {args.split} (confidence vs top goal right, oos counted wrong): "
        f"{expected_calibration_error(conf, correct_top):.4f}; in-scope only: "
        f"{expected_calibration_error(conf[is_in], correct_top[is_in]):.4f}"
    )
    if args.sweep:
        for th in np.arange(0.2, 0.96, 0.05):
            accepted = conf >= th
            acc = float((correct_top & accepted)[is_in].mean())
            rec = float((~accepted)[~is_in].mean())
            print(f"  threshold {th:.2f}: in_scope_accuracy {acc:.4f} oos_recall {rec:.4f}")
    print(
        f"latency ms: median {statistics.median(times):.3f} p90 {float(np.percentile(times, 90)):.3f} "
        f"max {max(times):.3f}; fast path (no encoder) threshold {cal.fast_accept:.2f}, "
        f"dense weight {cal.dense_weight}; held-out cascade accuracy {cal.ensemble_heldout_accuracy:.4f} "
        f"ECE {cal.ensemble_ece:.4f}"
    )
    result = {
        "split": args.split,
        "in_scope_accuracy": round(float((pred == gold)[is_in].mean()), 4),
        "oos_recall": round(float((pred == "oos")[~is_in].mean()), 4),
        "median_ms": round(statistics.median(times), 3),
        "n": len(items),
    }
    print(json.dumps(result))


def shipped_manifests() -> list[DomainManifest]:
    """The real manifests of every package under domains/ (loaded at run time, never copied)."""
    import importlib
    import pkgutil

    import domains

    found = []
    for info in sorted(pkgutil.iter_modules(domains.__path__), key=lambda i: i.name):
        try:
            module = importlib.import_module(f"domains.{info.name}.service")
        except ImportError:
            continue
        service = getattr(module, "service", None)
        if service is None and hasattr(module, "build"):
            service = module.build().service
        if service is not None:
            found.append(service.manifest())
    return found


def run_pt(path: Path, *, use_embeddings: bool = True, gate: float = RECOMMENDED_GATE) -> None:
    from intent.settings import IntentSettings

    items = json.loads(path.read_text())["items"]
    settings = IntentSettings()
    adapter = EmbeddedIntentAdapter(
        oos_threshold=settings.intent_oos_threshold, use_embeddings=use_embeddings
    )
    adapter.update_catalog(Catalog(shipped_manifests()))
    cal = adapter.calibration
    print(f"domains: {adapter.catalog.domains}; goals: {[g.goal.goal for g in adapter.catalog.goals()]}")
    print(
        f"held-out calibration: n={cal.heldout} (+{cal.negatives} negatives: left-out goals, fallback hints) "
        f"ECE before={cal.ece_before:.3f} after={cal.ece_after:.3f}"
    )
    ok = ent_ok = ent_n = n_in = 0
    times, confs, rights, right_in, wrong_top, is_oos = [], [], [], [], [], []
    for item in items:
        t0 = time.perf_counter()
        out = adapter.parse_sync(item["text"])
        times.append((time.perf_counter() - t0) * 1000)
        right = (out.primary_domain, out.goal) == (item["domain"], item["goal"])
        ok += right
        top = out.alternatives[0] if out.alternatives else None
        top_right = item["goal"] is not None and top is not None and top.goal == item["goal"]
        confs.append(out.confidence)
        rights.append(top_right)
        is_oos.append(item["goal"] is None)
        right_in.append(right and item["goal"] is not None)
        wrong_top.append(item["goal"] is not None and not top_right)
        n_in += item["goal"] is not None
        if not right:
            print(f"  MISS {item['text']!r}: want {item['goal']} got {out.goal} ({out.confidence:.2f})")
        for name, want in item["entities"].items():
            ent_n += 1
            got = out.entities.get(name)
            if got == want:
                ent_ok += 1
            else:
                print(f"  ENTITY {item['text']!r}: {name} want {want!r} got {got!r}")
    conf = np.array(confs, dtype=np.float32)
    ece = expected_calibration_error(conf, np.array(rights))
    oos, good, bad = np.array(is_oos), np.array(right_in), np.array(wrong_top)
    n_oos = int(oos.sum())
    oos_ok = int((conf[oos] < adapter.oos_threshold).sum())

    def passing(th: float) -> tuple[float, int, int]:
        above = conf >= th
        return float(above[good].mean()), int(above[oos].sum()), int(above[bad].sum())

    for th in (0.5, 0.6, 0.7, 0.8, 0.9, 0.94):
        rate, o, w = passing(th)
        print(
            f"  gate {th:.2f}: right in-scope passing {rate:.3f}; oos above {o}/{n_oos}; wrong top above {w}"
        )
    rate, oos_above, wrong_above = passing(gate)
    print(
        f"oos threshold {adapter.oos_threshold}; gate {gate}: right in-scope passing {rate:.3f} "
        f"({int((conf >= gate)[good].sum())}/{int(good.sum())}); oos rejected {oos_ok}/{n_oos}; "
        f"entity values right {ent_ok}/{ent_n}; ECE {ece:.3f}; "
        f"latency median {statistics.median(times):.3f} ms p90 {float(np.percentile(times, 90)):.3f} ms"
    )
    print(
        json.dumps(
            {
                "split": "pt",
                "goal_accuracy": round(ok / len(items), 4),
                "entity_accuracy": round(ent_ok / max(1, ent_n), 4),
                "gate": gate,
                "gate_pass_rate": round(rate, 4),
                "oos_above_gate": oos_above,
                "wrong_goal_above_gate": wrong_above,
                "oos_recall": round(oos_ok / max(1, n_oos), 4),
                "ece": round(ece, 4),
                "median_ms": round(statistics.median(times), 3),
                "n": len(items),
                "in_scope": n_in,
            }
        )
    )


if __name__ == "__main__":
    main()
