"""A domain's CPU per ``/execute`` with and without a new ``Idempotency-Key`` per call (as the
gateway's steps send), for finance's quote, beside the same domain of another tree, in one run.

    .venv/bin/python bench/keyed_call.py --baseline-tree /tmp/base [--rounds 3] [--seconds 5]

``--baseline-tree``: a checkout of another commit (``git archive REF | tar -x -C DIR``) whose
finance is started beside this tree's. Medians over interleaved rounds; CPU from /proc (the
domain process only). Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from contextlib import ExitStack
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.turn_cpu import WORK, Sample, Target, _start, wrk  # noqa: E402

QUOTE = {"domain": "finance", "capability": "get_stock_price", "parameters": {"symbol": "PETR4"}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline-tree", type=Path, required=True)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=5)
    parser.add_argument("--clients", type=int, default=8)
    args = parser.parse_args()
    WORK.mkdir(parents=True, exist_ok=True)
    trees = {"this tree": ROOT, f"{args.baseline_tree}": args.baseline_tree.resolve()}
    with ExitStack() as stack:
        targets: dict[tuple[str, bool], Target] = {}
        for n, (label, tree) in enumerate(trees.items()):
            finance = _start(
                stack, f"finance_{n}", ["-m", "domains.finance", "--host", "127.0.0.1"], tree=tree
            )
            for keyed in (False, True):
                name = f"finance_{n}_{'keyed' if keyed else 'plain'}"
                targets[label, keyed] = Target(
                    name, finance.url, "/execute", QUOTE, (finance.proc.pid,), keyed=keyed
                )
        samples: dict[tuple[str, bool], list[Sample]] = {key: [] for key in targets}
        for round_ in range(args.rounds):
            for key, target in targets.items():
                samples[key].append(wrk(target, args.clients, args.seconds, f"r{round_}"))
    print(
        "| finance of | no key: CPU ms/call | a new key per call: CPU ms/call | req/s with a key | errors |"
    )
    print("|---|---|---|---|---|")
    for label in trees:
        plain, with_key = samples[label, False], samples[label, True]
        cpu = [statistics.median(s.cpu_ms_per_request for s in group) for group in (plain, with_key)]
        rps = statistics.median(s.rps for s in with_key)
        errors = sum(s.errors for s in plain + with_key)
        print(f"| {label} | {cpu[0]:.3f} | {cpu[1]:.3f} | {rps:.0f} | {errors} |")


if __name__ == "__main__":
    main()
