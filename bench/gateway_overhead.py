"""Gateway overhead and DAG concurrency, measured side by side in one run.

Command (from the repo root):  .venv/bin/python bench/gateway_overhead.py [--n 300] [--baseline GIT_REF]
Writes bench/results/gateway.md and bench/results/gateway.json.

1. The same GET_QUOTE ("cotação da Vale") through the gateway (`POST /v1/runs`, real
   process, SQLite) vs straight to the finance domain's `/execute` (real process), interleaved
   request by request on loopback; medians, the difference and the ratio. With ``--baseline REF``
   the gateway of commit REF (a git worktree on this venv) runs beside it, interleaved too, so a
   change is measured against its baseline in one run on the same (noisy) machine.
2. 16 independent steps of a domain capability that sleeps 100 ms, run by the DAG executor +
   orchestrator over real HTTP with max_concurrency=16: wall time median vs 100 ms. The client
   side runs the way the gateway does: on uvloop (uvicorn picks it, `uvicorn[standard]`), with
   the HTTP client the gateway gives DomainClient (`orchestrator.client.domain_http_client`).
   The domain runs under uvicorn with uvloop + httptools, as `python -m domains.<name>` does.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import uvloop

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.conftest import free_port, start_domain, start_gateway, wait_http, write_bootstrap  # noqa: E402

SLOW_DOMAIN = """
import asyncio
from shared.domain_sdk import DomainService, serve
from shared.models import DomainOutput, ExecutionIntent
service = DomainService("slow", "1", "Sleeps")
@service.capability("sleep_100ms", "Sleep 100 ms")
async def sleep(intent: ExecutionIntent) -> DomainOutput:
    await asyncio.sleep(0.1)
    return DomainOutput(status="success", explanation="slept")
service.add_goal({"goal": "SLEEP", "description": "sleep", "capabilities": ["sleep_100ms"]})
serve(service)
"""


def start_baseline(ref: str, env: dict[str, str]) -> tuple[Path, subprocess.Popen[bytes], str]:
    """The gateway of commit ``ref`` (a git worktree, this venv) on a free port."""
    tree = Path(tempfile.mkdtemp()) / "baseline"
    subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), ref],
        check=True,
        capture_output=True,
    )
    port = free_port()
    full_env = {**os.environ, **env, "GATEWAY_HOST": "127.0.0.1", "GATEWAY_PORT": str(port)}
    full_env.update(LOG_LEVEL="WARNING", PYTHONPATH=str(tree))
    proc = subprocess.Popen([sys.executable, "-m", "gateway"], cwd=tree, env=full_env)
    url = f"http://127.0.0.1:{port}"
    wait_http(f"{url}/health", proc=proc)
    return tree, proc, url


def overhead(n: int, baseline: str | None = None) -> dict[str, Any]:
    finance = start_domain("finance")
    general = start_domain("general")
    work = Path(tempfile.mkdtemp())
    bootstrap = str(write_bootstrap(work / "b.json", {"finance": finance.url, "general": general.url}))
    gateway = start_gateway(
        {"DATABASE_URL": f"sqlite+aiosqlite:///{work / 'bench.sqlite3'}", "BOOTSTRAP_FILE": bootstrap}
    )
    base: tuple[Path, subprocess.Popen[bytes], str] | None = None
    if baseline is not None:
        base = start_baseline(
            baseline,
            {"DATABASE_URL": f"sqlite+aiosqlite:///{work / 'baseline.sqlite3'}", "BOOTSTRAP_FILE": bootstrap},
        )
    intent = {
        "domain": "finance",
        "capability": "get_stock_price",
        "parameters": {"symbol_text": "Vale"},
        "confidence": 0.99,
        "original_query": "cotação da Vale",
    }
    direct_ms: list[float] = []
    gateway_ms: list[float] = []
    followup_ms: list[float] = []
    baseline_ms: list[float] = []
    paths = [0, 1, 2] if base is None else [0, 1, 2, 3]
    try:
        with httpx.Client(timeout=30) as client:
            for _ in range(30):  # warm-up: connections, caches, SQLite pages
                client.post(f"{finance.url}/execute", json=intent).raise_for_status()
                for url in [gateway.url] if base is None else [gateway.url, base[2]]:
                    client.post(
                        f"{url}/v1/runs", json={"input_text": intent["original_query"]}
                    ).raise_for_status()
            for i in range(n):
                # rotate the order so no path always runs right after another
                k = i % len(paths)
                for which in paths[k:] + paths[:k]:
                    t0 = time.perf_counter()
                    if which == 0:
                        r = client.post(f"{finance.url}/execute", json=intent)
                        direct_ms.append((time.perf_counter() - t0) * 1e3)
                    elif which == 1:  # the first message of a new session
                        r = client.post(
                            f"{gateway.url}/v1/runs",
                            json={"input_text": intent["original_query"], "session_id": f"bench-{i}"},
                        )
                        gateway_ms.append((time.perf_counter() - t0) * 1e3)
                    else:  # the next message of a running conversation (one of 10 sessions)
                        url = gateway.url if which == 2 else base[2]  # type: ignore[index]
                        r = client.post(
                            f"{url}/v1/runs",
                            json={"input_text": intent["original_query"], "session_id": f"chat-{i % 10}"},
                        )
                        (followup_ms if which == 2 else baseline_ms).append((time.perf_counter() - t0) * 1e3)
                    r.raise_for_status()
                    if which != 0:
                        assert r.json()["status"] == "completed", r.text
    finally:
        for p in (gateway, finance, general):
            p.stop()
        if base is not None:
            base[1].terminate()
            base[1].wait(timeout=10)
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(base[0])], check=False
            )
    d, g, f = statistics.median(direct_ms), statistics.median(gateway_ms), statistics.median(followup_ms)
    compared: dict[str, Any] = {}
    if baseline is not None:
        b = statistics.median(baseline_ms)
        compared = {
            "baseline": baseline,
            "baseline_followup_median_ms": b,
            "baseline_followup_overhead_ms": b - d,
            "followup_overhead_vs_baseline": (f - d) / (b - d),
        }
    return {
        **compared,
        "n": n,
        "direct_median_ms": d,
        "gateway_median_ms": g,
        "overhead_ms": g - d,
        "ratio": g / d,
        "followup_median_ms": f,
        "followup_overhead_ms": f - d,
        "followup_ratio": f / d,
    }


async def fan_out(repeats: int) -> dict[str, float]:

    from execution.dag import DagExecutor
    from orchestrator.client import DomainClient, domain_http_client
    from orchestrator.orchestrator import Orchestrator
    from orchestrator.registry import DomainRegistry
    from shared.models import ExecutionPlan, ExecutionStep

    port = free_port()
    script = Path(tempfile.mkdtemp()) / "slow_domain.py"
    script.write_text(SLOW_DOMAIN)
    proc = subprocess.Popen([sys.executable, str(script), "--port", str(port)], cwd=ROOT)
    walls: list[float] = []
    try:
        wait_http(f"http://127.0.0.1:{port}/health", proc=proc)
        async with domain_http_client(limits=httpx.Limits(max_connections=64)) as http:
            client = DomainClient(http)
            registry = DomainRegistry(client)
            await registry.register("slow", f"http://127.0.0.1:{port}")
            orchestrator = Orchestrator(registry, client, threshold=0.0)
            plan = ExecutionPlan(
                execution_mode="parallel",
                combine_mode="report",
                max_concurrency=16,
                steps=[ExecutionStep(id=i, domain="slow", capability="sleep_100ms") for i in range(1, 17)],
            )
            executor = DagExecutor(orchestrator.execute)
            for r in range(repeats + 3):
                t0 = time.perf_counter()
                report = await executor.execute(
                    plan,
                    original_query="sleep",
                    confidence=1.0,
                    context={"run_id": f"b{r}", "session_id": "b"},
                )
                wall = (time.perf_counter() - t0) * 1e3
                assert report.status.value == "completed", report
                if r >= 3:
                    walls.append(wall)
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    m = statistics.median(walls)
    return {"repeats": repeats, "wall_median_ms": m, "ratio_to_100ms": m / 100.0}


def baseline_table(over: dict[str, Any]) -> str:
    if "baseline" not in over:
        return ""
    return f"""Side by side in the same run, the gateway of commit `{over["baseline"]}` (running session):

| running session | median ms | overhead ms |
|------|-----------|-------------|
| this tree | {over["followup_median_ms"]:.2f} | {over["followup_overhead_ms"]:.2f} |
| `{over["baseline"]}` | {over["baseline_followup_median_ms"]:.2f} | \
{over["baseline_followup_overhead_ms"]:.2f} |

Overhead of this tree / overhead of `{over["baseline"]}`: **{over["followup_overhead_vs_baseline"]:.2f}**

"""


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=300)
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument(
        "--baseline",
        metavar="GIT_REF",
        help="also run the gateway of this commit (a git worktree), interleaved with the others",
    )
    args = parser.parse_args()
    over = overhead(args.n, args.baseline)
    fan = uvloop.run(fan_out(args.repeats))  # the gateway's loop under uvicorn
    results = {"gateway_overhead": over, "dag_16x100ms": fan}
    out = ROOT / "bench" / "results"
    out.mkdir(parents=True, exist_ok=True)
    (out / "gateway.json").write_text(json.dumps(results, indent=2) + "\n")
    baseline_arg = f" --baseline {args.baseline}" if args.baseline else ""
    md = f"""# Gateway overhead and DAG concurrency

Command: `.venv/bin/python bench/gateway_overhead.py --n {args.n} --repeats {args.repeats}{baseline_arg}`
(2-core machine, loopback).

## One-step GET_QUOTE: gateway vs direct domain call (interleaved, n={over["n"]} each)

| path | median ms |
|------|-----------|
| finance `/execute` directly | {over["direct_median_ms"]:.2f} |
| gateway `POST /v1/runs`, first message of a new session | {over["gateway_median_ms"]:.2f} |
| gateway `POST /v1/runs`, next message of a running session | {over["followup_median_ms"]:.2f} |

| overhead over the direct call (target ≤ 5 ms) | median ms | ratio |
|------|-----------|-------|
| new session | **{over["overhead_ms"]:.2f}** | {over["ratio"]:.2f}× |
| running session | **{over["followup_overhead_ms"]:.2f}** | {over["followup_ratio"]:.2f}× |

{baseline_table(over)}The gateway path is: HTTP + JSON parsing, intent (embedded adapter), the \
conversation graph (understand → plan → execute → respond, paused at `idle` and stored in \
SQLite), RunController + orchestrator, the HTTP call to finance, and the run trace written to \
SQLite.

## 16 independent 100 ms steps (DAG executor + orchestrator over HTTP, max_concurrency=16)

Client side as in the gateway: uvloop, `DomainClient` on `domain_http_client()` (aiohttp transport,
lean `/execute` path); the domain under uvicorn (uvloop + httptools).

| repeats | wall median ms | ratio to 100 ms (target ≤ 1.2) |
|---------|----------------|------------------------------|
| {fan["repeats"]} | {fan["wall_median_ms"]:.1f} | {fan["ratio_to_100ms"]:.3f} |
"""
    (out / "gateway.md").write_text(md)
    print(md)
    print(json.dumps(results))


if __name__ == "__main__":
    main()
