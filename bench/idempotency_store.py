"""CPU of one keyed ``/execute`` call's bookkeeping in the SDK's idempotency store (its claim,
the call, its stored answer: ``IdempotencyStore.run``), this tree beside a baseline tree,
interleaved.

Command (from the repo root):
    .venv/bin/python bench/idempotency_store.py --baseline-tree /tmp/base [--calls 2000] [--rounds 3] [--pg]

Make the baseline tree with ``git archive <rev> | tar -x -C /tmp/base``. Each round runs
``--calls`` keyed calls (new keys, a capability that answers at once) in a fresh process of each
tree, in turn, on a SQLite file (and, with ``--pg``, on PostgreSQL at ``PG_URL``, default
``postgresql://127.0.0.1:5432/test``). Prints the median over the rounds of process CPU (user +
system, every thread) and of wall time per call. CPU rather than wall time: the machine is shared.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: Run inside the tree measured (its own ``sdk``), so each side imports its own code.
_MEASURE = """
import asyncio, json, sys, time, uuid
sys.path.insert(0, ".")
from sdk.idempotency import IdempotencyStore
from shared.models import DomainOutput

async def main(url, calls):
    store = IdempotencyStore(url)
    answer = DomainOutput(status="success", explanation="VALE3: 61.20", result={"price": 61.2})
    async def call():
        return answer
    prefix = uuid.uuid4().hex
    for i in range(100):  # warm-up: connections, compiled statements
        await store.run(f"{prefix}-warm-{i}", "fp", call)
    cpu, wall = time.process_time(), time.perf_counter()
    for i in range(calls):
        await store.run(f"{prefix}-{i}:1", "fp", call)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    await store.close()
    print(json.dumps({"cpu_ms": cpu / calls * 1e3, "wall_ms": wall / calls * 1e3}))

asyncio.run(main(sys.argv[1], int(sys.argv[2])))
"""


def measure(tree: Path, url: str, calls: int) -> dict[str, float]:
    out = subprocess.run(
        [sys.executable, "-c", _MEASURE, url, str(calls)],
        cwd=tree,
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "OPENBLAS_NUM_THREADS": "1"},
    )
    result: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--baseline-tree", type=Path, required=True)
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--pg", action="store_true", help="also on PostgreSQL (PG_URL)")
    args = parser.parse_args()
    databases = {"SQLite file": "sqlite:///{dir}/keys.sqlite3"}
    if args.pg:
        databases["PostgreSQL"] = os.environ.get("PG_URL", "postgresql://127.0.0.1:5432/test")
    trees = {"this tree": ROOT, "baseline": args.baseline_tree.resolve()}
    samples: dict[tuple[str, str], list[dict[str, float]]] = {}
    for _ in range(args.rounds):
        for database, template in databases.items():
            for name, tree in trees.items():
                with tempfile.TemporaryDirectory() as folder:
                    url = template.format(dir=folder)
                    samples.setdefault((database, name), []).append(measure(tree, url, args.calls))
    load = os.getloadavg()[0]
    print(f"{args.calls} keyed calls per sample, {args.rounds} interleaved rounds, load {load:.2f}")
    print("| database | tree | CPU ms per call (median) | wall ms per call (median) |")
    print("|---|---|---|---|")
    for (database, name), runs in samples.items():
        cpu = statistics.median(r["cpu_ms"] for r in runs)
        wall = statistics.median(r["wall_ms"] for r in runs)
        print(f"| {database} | {name} | {cpu:.3f} | {wall:.3f} |")


if __name__ == "__main__":
    main()
