"""Gateway overhead and DAG concurrency, measured side by side in one run.

Command (from the repo root):
    .venv/bin/python bench/gateway_overhead.py [--n 300] [--repeats 20] [--baseline GIT_REF]
        [--tree GIT_REF] [--no-dag] [--heading TEXT]
Appends a section to bench/results/gateway.md and writes bench/results/gateway.json.

1. The same GET_QUOTE ("cotação da Vale") on four paths, interleaved request by request on
   loopback (real processes, SQLite): straight to the finance domain's `/execute`; through the
   gateway (`POST /v1/runs`) as the first message of a new session and as the next message of a
   running one; and through the thinnest hand-written hop (bench/thin_hop.py: FastAPI + one
   httpx client forwarding the same intent to finance). Medians, each path's overhead over the
   direct call, and the gateway's overhead as a multiple of the thin hop's. With ``--baseline REF``
   the gateway and domains of commit REF (a git worktree on this venv) run beside them, that
   gateway and that finance interleaved too, so a change is measured against its baseline in one
   run on the same (noisy) machine, each gateway against its own tree's direct call (the protocol
   between gateway and domains may differ between the two). ``--tree REF`` runs the domains and
   the measured gateway from commit REF instead of the working tree.
2. 16 independent steps of a domain capability that sleeps 100 ms, run by the DAG executor +
   orchestrator over real HTTP with max_concurrency=16: wall time median vs 100 ms. The client
   side runs the way the gateway does: on uvloop (uvicorn picks it, `uvicorn[standard]`), with
   the HTTP client the gateway gives DomainClient (`orchestrator.client.domain_http_client`).
   The domain runs under uvicorn with uvloop + httptools, as `python -m domains.<name>` does.
   This part always runs the working tree's code (``--no-dag`` skips it).

Every process started is stopped when the run ends, also when it fails or is interrupted.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from contextlib import ExitStack
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import uvloop

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.conftest import START_TIMEOUT_S, Process, free_port, spawn, wait_http, write_bootstrap  # noqa: E402

WARM_UP_ROUNDS = 30

SLOW_DOMAIN = """
import asyncio
from sdk.service import DomainService, serve
from shared.models import DomainOutput, ExecutionIntent
service = DomainService("slow", "1", "Sleeps")
@service.capability("sleep_100ms", "Sleep 100 ms")
async def sleep(intent: ExecutionIntent) -> DomainOutput:
    await asyncio.sleep(0.1)
    return DomainOutput(status="success", explanation="slept")
service.add_goal({"goal": "SLEEP", "description": "sleep", "capabilities": ["sleep_100ms"]})
serve(service)
"""

QUERY = "cotação da Vale"
INTENT: dict[str, Any] = {
    "domain": "finance",
    "capability": "get_stock_price",
    "parameters": {"symbol_text": "Vale"},
    "confidence": 0.99,
    "original_query": QUERY,
}

#: path name -> what the markdown calls it
PATHS = {
    "direct": "finance `/execute` directly",
    "thin_hop": "thin hop (FastAPI + one httpx client) -> finance",
    "gateway_new": "gateway `POST /v1/runs`, first message of a new session",
    "gateway_running": "gateway `POST /v1/runs`, next message of a running session",
    "baseline_direct": "baseline finance `/execute` directly",
    "baseline_running": "baseline gateway, next message of a running session",
}


def _worktree(stack: ExitStack, ref: str) -> Path:
    """A detached git worktree of ``ref`` (run on this venv), removed when ``stack`` closes."""
    parent = Path(tempfile.mkdtemp())
    stack.callback(shutil.rmtree, parent, ignore_errors=True)
    tree = parent / "tree"
    subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), ref],
        check=True,
        capture_output=True,
    )
    remove = ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)]
    stack.callback(subprocess.run, remove, check=False, capture_output=True)
    return tree


def _start(
    stack: ExitStack,
    name: str,
    argv: list[str],
    tree: Path,
    env: dict[str, str] | None = None,
    *,
    port_flag: bool = True,
) -> Process:
    """``python <argv> [--port P]`` from ``tree`` on a free port (also in ``GATEWAY_PORT``), stopped
    when ``stack`` closes, also when it never answers ``/health``."""
    port = free_port()
    full_env = {
        **os.environ,
        "LOG_LEVEL": "WARNING",
        "PYTHONPATH": str(tree),
        "GATEWAY_HOST": "127.0.0.1",
        "GATEWAY_PORT": str(port),
        **(env or {}),
    }
    port_args = ["--port", str(port)] if port_flag else []
    proc = spawn([sys.executable, *argv, *port_args], env=full_env, cwd=tree)  # own process group
    process = Process(name, f"http://127.0.0.1:{port}", proc)
    stack.callback(process.stop)
    started = time.monotonic()
    wait_http(f"{process.url}/health", timeout_s=START_TIMEOUT_S, proc=proc)
    print(f"{name} ready in {time.monotonic() - started:.1f} s", file=sys.stderr)
    return process


def _start_gateway(stack: ExitStack, name: str, tree: Path, work: Path, bootstrap: Path) -> Process:
    env = {
        "DATABASE_URL": f"sqlite+aiosqlite:///{work / f'{name}.sqlite3'}",
        "BOOTSTRAP_FILE": str(bootstrap),
    }
    return _start(stack, name, ["-m", "gateway"], tree, env, port_flag=False)


Request = Callable[[int], tuple[str, dict[str, Any]]]


def _requests(urls: dict[str, str]) -> dict[str, Request]:
    """path -> (URL, JSON body) of its i-th request."""

    def run(url: str, session: Callable[[int], str]) -> Request:
        return lambda i: (f"{url}/v1/runs", {"input_text": QUERY, "session_id": session(i)})

    def running(i: int) -> str:  # one of 10 conversations that go on
        return f"chat-{i % 10}"

    requests: dict[str, Request] = {
        "direct": lambda i: (f"{urls['direct']}/execute", INTENT),
        "thin_hop": run(urls["thin_hop"], running),
        "gateway_new": run(urls["gateway"], lambda i: f"bench-{i}"),
        "gateway_running": run(urls["gateway"], running),
    }
    if "baseline" in urls:
        requests["baseline_direct"] = lambda i: (f"{urls['baseline_direct']}/execute", INTENT)
        requests["baseline_running"] = run(urls["baseline"], running)
    return requests


def _send(client: httpx.Client, path: str, request: Request, i: int) -> float:
    """One request; its wall time in ms. A wrong answer stops the run: only successes are timed."""
    url, body = request(i)
    t0 = time.perf_counter()
    response = client.post(url, json=body)
    elapsed_ms = (time.perf_counter() - t0) * 1e3
    response.raise_for_status()
    expected = "success" if path in ("direct", "thin_hop", "baseline_direct") else "completed"
    assert response.json()["status"] == expected, (path, response.text)
    return elapsed_ms


def _start_baseline(stack: ExitStack, tree: Path, work: Path) -> dict[str, str]:
    """The baseline's own finance, general and gateway: its gateway may not read newer domains."""
    finance = _start(stack, "baseline_finance", ["-m", "domains.finance", "--host", "127.0.0.1"], tree)
    general = _start(stack, "baseline_general", ["-m", "domains.general", "--host", "127.0.0.1"], tree)
    bootstrap = write_bootstrap(work / "baseline.json", {"finance": finance.url, "general": general.url})
    gateway = _start_gateway(stack, "baseline", tree, work, bootstrap)
    return {"baseline_direct": finance.url, "baseline": gateway.url}


def overhead(n: int, baseline: str | None = None, tree_ref: str | None = None) -> dict[str, Any]:
    with ExitStack() as stack:
        tree = _worktree(stack, tree_ref) if tree_ref else ROOT
        work = Path(tempfile.mkdtemp())
        stack.callback(shutil.rmtree, work, ignore_errors=True)
        finance = _start(stack, "finance", ["-m", "domains.finance", "--host", "127.0.0.1"], tree)
        general = _start(stack, "general", ["-m", "domains.general", "--host", "127.0.0.1"], tree)
        bootstrap = write_bootstrap(work / "b.json", {"finance": finance.url, "general": general.url})
        hop_argv = [
            str(ROOT / "bench" / "thin_hop.py"),
            "--domain-url",
            finance.url,
            "--intent",
            json.dumps(INTENT),
        ]
        urls = {
            "direct": finance.url,
            "thin_hop": _start(stack, "thin_hop", hop_argv, ROOT).url,
            "gateway": _start_gateway(stack, "gateway", tree, work, bootstrap).url,
        }
        if baseline is not None:
            urls.update(_start_baseline(stack, _worktree(stack, baseline), work))
        requests = _requests(urls)
        paths = list(requests)
        timings: dict[str, list[float]] = {path: [] for path in paths}
        load_before = os.getloadavg()
        with httpx.Client(timeout=30) as client:
            for i in range(-WARM_UP_ROUNDS, 0):  # connections, caches, SQLite pages
                for path in paths:
                    _send(client, path, requests[path], i)
            for i in range(n):
                k = i % len(paths)  # rotate the order so no path always runs right after another
                for path in paths[k:] + paths[:k]:
                    timings[path].append(_send(client, path, requests[path], i))
        load_after = os.getloadavg()
    return summarise(timings, n, baseline, tree_ref, (load_before[0], load_after[0]))


def summarise(
    timings: dict[str, list[float]],
    n: int,
    baseline: str | None,
    tree_ref: str | None,
    load: tuple[float, float],
) -> dict[str, Any]:
    """Medians, overheads over the direct call, and the gateway's overhead over the thin hop's."""
    median = {path: statistics.median(ms) for path, ms in timings.items()}
    d = median["direct"]
    over = {path: median[path] - d for path in ("thin_hop", "gateway_new", "gateway_running")}
    thin = over["thin_hop"]
    compared: dict[str, Any] = {}
    if baseline is not None:
        b_direct, b_running = median["baseline_direct"], median["baseline_running"]
        b = b_running - b_direct
        compared = {
            "baseline": baseline,
            "baseline_direct_median_ms": b_direct,
            "baseline_followup_median_ms": b_running,
            "baseline_followup_overhead_ms": b,
            "baseline_followup_ratio": b_running / b_direct,
            "baseline_overhead_vs_thin_hop": b / thin,
            "followup_overhead_vs_baseline": over["gateway_running"] / b,
            "followup_ratio_vs_baseline": (median["gateway_running"] / d) / (b_running / b_direct),
        }
    return {
        **compared,
        "n": n,
        "tree": tree_ref or "working tree",
        "load_avg_1min_before_after": list(load),
        "direct_median_ms": d,
        "thin_hop_median_ms": median["thin_hop"],
        "thin_hop_overhead_ms": thin,
        "thin_hop_ratio": median["thin_hop"] / d,
        "gateway_median_ms": median["gateway_new"],
        "overhead_ms": over["gateway_new"],
        "ratio": median["gateway_new"] / d,
        "overhead_vs_thin_hop": over["gateway_new"] / thin,
        "followup_median_ms": median["gateway_running"],
        "followup_overhead_ms": over["gateway_running"],
        "followup_ratio": median["gateway_running"] / d,
        "followup_overhead_vs_thin_hop": over["gateway_running"] / thin,
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
            executor = DagExecutor(orchestrator.dispatch)
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


def overhead_tables(over: dict[str, Any]) -> str:
    rows = [
        ("direct", over["direct_median_ms"], None, None, None),
        ("thin_hop", over["thin_hop_median_ms"], over["thin_hop_overhead_ms"], over["thin_hop_ratio"], 1.0),
        (
            "gateway_new",
            over["gateway_median_ms"],
            over["overhead_ms"],
            over["ratio"],
            over["overhead_vs_thin_hop"],
        ),
        (
            "gateway_running",
            over["followup_median_ms"],
            over["followup_overhead_ms"],
            over["followup_ratio"],
            over["followup_overhead_vs_thin_hop"],
        ),
    ]
    if "baseline" in over:
        rows.append(("baseline_direct", over["baseline_direct_median_ms"], None, None, None))
        rows.append(
            (
                "baseline_running",
                over["baseline_followup_median_ms"],
                over["baseline_followup_overhead_ms"],
                over["baseline_followup_ratio"],
                over["baseline_overhead_vs_thin_hop"],
            )
        )

    def cell(value: float | None, fmt: str) -> str:
        return "" if value is None else format(value, fmt)

    lines = [
        "| path | median ms | overhead ms (path - direct) | path / direct | overhead / thin hop's |",
        "|------|-----------|-----------------------------|---------------|-----------------------|",
    ]
    for path, ms, extra, ratio, vs_thin in rows:
        label = PATHS[path].replace("baseline", f"`{over['baseline']}`:")
        lines.append(
            f"| {label} | {ms:.2f} | {cell(extra, '.2f')} | {cell(ratio, '.2f')}{'×' if ratio else ''} "
            f"| {cell(vs_thin, '.2f')}{'×' if vs_thin else ''} |"
        )
    table = "\n".join(lines)
    vs_baseline = ""
    if "baseline" in over:
        vs_baseline = (
            f"\nRunning session, measured gateway / `{over['baseline']}`: overhead "
            f"**{over['followup_overhead_vs_baseline']:.2f}**, multiple of the direct call "
            f"**{over['followup_ratio_vs_baseline']:.2f}** (below 1: the measured gateway is leaner).\n"
        )
    return f"""{table}

Overheads and ratios are against the direct call of the path's own tree (the baseline's finance
for the baseline). The gateway's overhead is **{over["overhead_vs_thin_hop"]:.2f}×** the thin \
hop's for a new session and **{over["followup_overhead_vs_thin_hop"]:.2f}×** for a running session.
{vs_baseline}"""


def report(args: argparse.Namespace, over: dict[str, Any], fan: dict[str, float] | None) -> str:
    options = f"--n {args.n}" + ("" if args.no_dag else f" --repeats {args.repeats}")
    options += f" --baseline {args.baseline}" if args.baseline else ""
    options += f" --tree {args.tree}" if args.tree else ""
    options += " --no-dag" if args.no_dag else ""
    load_before, load_after = over["load_avg_1min_before_after"]
    md = f"""
## {args.heading}

Command: `.venv/bin/python bench/gateway_overhead.py {options}` (2-core machine, loopback;
measured gateway and domains: {over["tree"]}; 1-minute load average {load_before:.2f} before the
timed requests, {load_after:.2f} after).

### One-step GET_QUOTE: paths interleaved request by request (n={over["n"]} each)

{overhead_tables(over)}
The thin hop is bench/thin_hop.py: one FastAPI route forwarding the same intent to finance with \
one shared httpx client. The gateway path adds: intent (embedded adapter), the conversation graph \
(understand → plan → execute → respond, paused at `idle` and stored in SQLite), RunController + \
orchestrator, validation of the domain's answer, and the run trace written to SQLite.
"""
    if fan is not None:
        md += f"""
### 16 independent 100 ms steps (DAG executor + orchestrator over HTTP, max_concurrency=16)

| repeats | wall median ms | ratio to 100 ms (target ≤ 1.2) |
|---------|----------------|------------------------------|
| {fan["repeats"]} | {fan["wall_median_ms"]:.1f} | {fan["ratio_to_100ms"]:.3f} |
"""
    return md


def _stop_on_sigterm() -> None:
    """SIGTERM unwinds like Ctrl-C, so every started process and worktree is cleaned up."""

    def leave(signum: int, _frame: object) -> None:
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, leave)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=300)
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument(
        "--baseline",
        metavar="GIT_REF",
        help="also run the gateway of this commit (a git worktree), interleaved with the others",
    )
    parser.add_argument(
        "--tree",
        metavar="GIT_REF",
        help="run the domains and the measured gateway from this commit instead of the working tree",
    )
    parser.add_argument("--no-dag", action="store_true", help="skip the 16 x 100 ms DAG part")
    parser.add_argument(
        "--heading",
        default=f"Run of {datetime.now(UTC):%Y-%m-%d %H:%M} UTC",
        help="heading of the section appended to bench/results/gateway.md",
    )
    args = parser.parse_args()
    _stop_on_sigterm()
    over = overhead(args.n, args.baseline, args.tree)
    fan = None if args.no_dag else uvloop.run(fan_out(args.repeats))  # the gateway's loop under uvicorn
    results = {"gateway_overhead": over, "dag_16x100ms": fan}
    out = ROOT / "bench" / "results"
    out.mkdir(parents=True, exist_ok=True)
    (out / "gateway.json").write_text(json.dumps(results, indent=2) + "\n")
    md = report(args, over, fan)
    with (out / "gateway.md").open("a") as document:
        document.write(md)
    print(md)
    print(json.dumps(results))


if __name__ == "__main__":
    main()
