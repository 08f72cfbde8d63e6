"""Load: requests/s and latency of a one-step quote at 1/8/32/64 concurrent clients.

Command (from the repo root; needs PostgreSQL on 127.0.0.1:5432, Redis on 127.0.0.1:6379 and
the `nginx` binary, as the integration tests do):
    .venv/bin/python bench/load.py [--duration 5] [--levels 1,8,32,64]
Writes bench/results/load.md and bench/results/load.json (``make bench-load``).

Targets, measured in one run on the same machine, level by level (every target at 1 client, then
every target at 8, ...), after a warm-up of each:
- ``thin_hop``: bench/thin_hop.py, FastAPI + one httpx client forwarding the GET_QUOTE intent to
  finance (no intent, session or storage): the floor a hand-written hop sets;
- ``gateway_1``: one gateway process (`POST /v1/runs`), on PostgreSQL + Redis;
- ``nginx_gateway_1``: the same gateway behind nginx (deploy/gateway-proxy.conf): the proxy's cost;
- ``nginx_gateway_3``: three gateway processes on the same PostgreSQL + Redis behind nginx.

Each of C clients is a closed loop (send, wait for the answer, send again) for ``--duration``
seconds, on a session of its own ("preço da Petrobras" as the next message of that session), all
in this process on one aiohttp session (uvloop). Afterwards every client's session is read back:
**lost** = a turn answered 200 missing from the session's history; **corrupt** = a history whose
run ids differ from the answered ones, a turn not ``completed``, or a graph state whose last
messages are not the question/answer pairs. Errors: any answer other than 200 with the expected
status, or a transport error.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import signal
import statistics
import sys
import tempfile
import textwrap
import time
import uuid
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import aiohttp
import asyncpg
import uvloop

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.conftest import (  # noqa: E402
    PG_ADMIN_URL,
    START_TIMEOUT_S,
    Process,
    free_port,
    spawn,
    wait_http,
    write_bootstrap,
)
from tests.nginx_proxy import nginx_binary, nginx_over  # noqa: E402

QUERY = "preço da Petrobras"
INTENT: dict[str, Any] = {
    "domain": "finance",
    "capability": "get_stock_price",
    "parameters": {"symbol_text": "Petrobras"},
    "confidence": 0.99,
    "original_query": QUERY,
}
API_KEY = "bench-load-key"
HEADERS = {"Authorization": f"Bearer {API_KEY}"}
#: the bench's own Redis database (the tests use 15), emptied before the run
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/13")
TARGETS = {
    "thin_hop": "thin hop (FastAPI + httpx) -> finance",
    "gateway_1": "1 gateway",
    "nginx_gateway_1": "nginx -> 1 gateway",
    "nginx_gateway_3": "nginx -> 3 gateways",
}
WARM_UP_S = 2.0


@dataclass
class Level:
    target: str
    clients: int
    requests: int = 0
    errors: int = 0
    seconds: float = 0.0
    latencies_ms: list[float] = field(default_factory=list)
    lost_sessions: int = 0
    corrupt_sessions: int = 0
    #: the machine's 1-minute load average when the level started (the run shares the machine)
    load_avg_1min: float = 0.0
    error_samples: list[str] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        ms = sorted(self.latencies_ms)
        data = {k: v for k, v in asdict(self).items() if k != "latencies_ms"}
        return {
            **data,
            "rps": len(ms) / self.seconds if self.seconds else 0.0,
            "p50_ms": statistics.median(ms) if ms else None,
            "p99_ms": ms[min(len(ms) - 1, int(len(ms) * 0.99))] if ms else None,
        }


# ------------------------------------------------------------------------------ processes


def _start(stack: ExitStack, name: str, argv: list[str], env: dict[str, str] | None = None) -> Process:
    """``python <argv> --port P`` on a free port (also ``GATEWAY_PORT``), stopped with ``stack``."""
    port = free_port()
    full_env = {
        **os.environ,
        "LOG_LEVEL": "WARNING",
        "GATEWAY_HOST": "127.0.0.1",
        "GATEWAY_PORT": str(port),
        **(env or {}),
    }
    port_args = [] if argv[:2] == ["-m", "gateway"] else ["--port", str(port)]
    proc = spawn([sys.executable, *argv, *port_args], env=full_env)  # own process group
    process = Process(name, f"http://127.0.0.1:{port}", proc)
    stack.callback(process.stop)
    started = time.monotonic()
    wait_http(f"{process.url}/health", timeout_s=START_TIMEOUT_S, proc=proc)
    print(f"{name} ready in {time.monotonic() - started:.1f} s", file=sys.stderr)
    return process


@contextmanager
def _postgres_database() -> Iterator[str]:
    """A fresh PostgreSQL database for the run, dropped afterwards."""
    name = f"bench_load_{uuid.uuid4().hex[:8]}"

    async def admin(sql: str) -> None:
        conn = await asyncpg.connect(PG_ADMIN_URL, timeout=5)
        try:
            await conn.execute(sql)
        finally:
            await conn.close()

    asyncio.run(admin(f'CREATE DATABASE "{name}"'))
    try:
        base = PG_ADMIN_URL.rsplit("/", 1)[0].replace("postgresql://", "postgresql+asyncpg://")
        yield f"{base}/{name}"
    finally:
        asyncio.run(admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


def _empty_redis() -> None:
    import redis

    client = redis.Redis.from_url(REDIS_URL)
    try:
        client.flushdb()
    finally:
        client.close()


# ------------------------------------------------------------------------------ load


async def _post(http: aiohttp.ClientSession, url: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    async with http.post(url, json=body, headers=HEADERS) as response:
        return response.status, await response.json(content_type=None)


async def _client(
    http: aiohttp.ClientSession,
    url: str,
    session: str,
    expected: str,
    stop_at: float,
    level: Level | None,
    answered: list[str],
) -> None:
    """One closed-loop client: its session's next message until ``stop_at``; the run ids it got."""
    while time.perf_counter() < stop_at:
        t0 = time.perf_counter()
        try:
            status, body = await _post(http, url, {"input_text": QUERY, "session_id": session})
        except (aiohttp.ClientError, TimeoutError, ValueError) as exc:
            status, body = 0, {"error": type(exc).__name__}
        elapsed_ms = (time.perf_counter() - t0) * 1e3
        ok = status == 200 and body.get("status") == expected
        if ok and "run_id" in body:
            answered.append(body["run_id"])
        if level is None:
            continue
        level.requests += 1
        if ok:
            level.latencies_ms.append(elapsed_ms)
        else:
            level.errors += 1
            if len(level.error_samples) < 5:
                level.error_samples.append(f"{status}: {json.dumps(body)[:200]}")


async def _drive(
    url: str, target: str, clients: int, seconds: float, level: Level | None
) -> dict[str, list[str]]:
    """``clients`` closed loops for ``seconds`` against ``url``; each session's answered run ids."""
    expected = "success" if target == "thin_hop" else "completed"
    tag = "warm" if level is None else f"c{clients}"
    sessions: dict[str, list[str]] = {
        f"{target}-{tag}-{i}-{uuid.uuid4().hex[:6]}": [] for i in range(clients)
    }
    connector = aiohttp.TCPConnector(limit=clients, force_close=False)
    timeout = aiohttp.ClientTimeout(total=120)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as http:
        started = time.perf_counter()
        stop_at = started + seconds
        await asyncio.gather(
            *(
                _client(http, f"{url}/v1/runs", session, expected, stop_at, level, runs)
                for session, runs in sessions.items()
            )
        )
        if level is not None:
            level.seconds = time.perf_counter() - started
    return sessions


async def _check_sessions(url: str, sessions: dict[str, list[str]], level: Level) -> None:
    """Read every client's session back (lost and corrupt sessions, as the module says)."""
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=60)) as http:

        async def check(session: str, run_ids: list[str]) -> None:
            async with http.get(f"{url}/v1/sessions/{session}/history", headers=HEADERS) as response:
                turns = (await response.json())["turns"] if response.status == 200 else []
            stored = [t["run_id"] for t in turns]
            if not set(run_ids) <= set(stored):
                level.lost_sessions += 1
                return
            async with http.get(f"{url}/v1/sessions/{session}", headers=HEADERS) as response:
                view = await response.json()
            messages = view["state"]["messages"] if response.status == 200 else []
            pairs_ok = bool(messages) and all(
                (m["role"], m["content"] if m["role"] == "user" else bool(m["content"]))
                == (("user", QUERY) if i % 2 == 0 else ("assistant", True))
                for i, m in enumerate(messages)
            )
            if stored != run_ids or any(t["status"] != "completed" for t in turns) or not pairs_ok:
                level.corrupt_sessions += 1

        await asyncio.gather(*(check(s, r) for s, r in sessions.items()))


async def measure(urls: dict[str, str], levels: list[int], seconds: float, reader: str) -> list[Level]:
    """Every target at every level; sessions read back through ``reader`` (a gateway)."""
    results: list[Level] = []
    for target, url in urls.items():
        await _drive(url, target, 8, WARM_UP_S, None)  # connections, caches, pools
    # level by level, every target in turn: the rows compared with each other are measured
    # seconds apart, under about the same load of the (shared) machine
    for clients in levels:
        for target, url in urls.items():
            level = Level(target, clients, load_avg_1min=os.getloadavg()[0])
            sessions = await _drive(url, target, clients, seconds, level)
            if target != "thin_hop":  # the hop keeps no sessions
                await _check_sessions(reader, sessions, level)
            summary = level.summary()
            rps, p50, p99 = summary["rps"], summary["p50_ms"] or 0, summary["p99_ms"] or 0
            print(
                f"{target:16} c={clients:<3} {rps:7.1f} req/s  p50 {p50:7.1f} ms  p99 {p99:7.1f} ms  "
                f"errors {level.errors} lost {level.lost_sessions} corrupt {level.corrupt_sessions}",
                file=sys.stderr,
            )
            results.append(level)
    return results


def run(levels: list[int], seconds: float) -> tuple[list[Level], dict[str, Any]]:
    nginx = nginx_binary()
    if nginx is None:
        raise SystemExit("nginx not found (Debian package `nginx`)")
    with ExitStack() as stack:
        work = Path(tempfile.mkdtemp())
        stack.callback(shutil.rmtree, work, ignore_errors=True)
        database_url = stack.enter_context(_postgres_database())
        _empty_redis()
        finance = _start(stack, "finance", ["-m", "domains.finance", "--host", "127.0.0.1"])
        general = _start(stack, "general", ["-m", "domains.general", "--host", "127.0.0.1"])
        bootstrap = write_bootstrap(work / "bootstrap.json", {"finance": finance.url, "general": general.url})
        hop = [
            str(ROOT / "bench" / "thin_hop.py"),
            "--domain-url",
            finance.url,
            "--intent",
            json.dumps(INTENT),
        ]
        gateway_env = {
            "DATABASE_URL": database_url,
            "REDIS_URL": REDIS_URL,
            "BOOTSTRAP_FILE": str(bootstrap),
            "API_KEYS": API_KEY,
        }
        gateways = [_start(stack, f"gateway-{i}", ["-m", "gateway"], gateway_env) for i in (1, 2, 3)]
        one = stack.enter_context(nginx_over(nginx, [gateways[0].url], work / "nginx-1"))
        three = stack.enter_context(nginx_over(nginx, [g.url for g in gateways], work / "nginx-3"))
        urls = {
            "thin_hop": _start(stack, "thin_hop", hop).url,
            "gateway_1": gateways[0].url,
            "nginx_gateway_1": one.url,
            "nginx_gateway_3": three.url,
        }
        load_before = os.getloadavg()[0]
        results = uvloop.run(measure(urls, levels, seconds, gateways[1].url))
        machine = {
            "cpus": os.cpu_count(),
            "load_avg_1min_before_after": [load_before, os.getloadavg()[0]],
            "nginx": nginx,
        }
    return results, machine


# ------------------------------------------------------------------------------ report


def report(args: argparse.Namespace, results: list[Level], machine: dict[str, Any]) -> str:
    before, after = machine["load_avg_1min_before_after"]
    lines = [
        "| target | clients | req/s | p50 ms | p99 ms | requests | errors | lost | corrupt | load avg |",
        "|--------|---------|-------|--------|--------|----------|--------|------|---------|----------|",
    ]
    for level in results:
        s = level.summary()
        sessions = ("-", "-") if level.target == "thin_hop" else (s["lost_sessions"], s["corrupt_sessions"])
        lines.append(
            f"| {TARGETS[level.target]} | {level.clients} | {s['rps']:.1f} | {s['p50_ms'] or 0:.1f} "
            f"| {s['p99_ms'] or 0:.1f} | {s['requests']} | {s['errors']} | {sessions[0]} | {sessions[1]} "
            f"| {level.load_avg_1min:.1f} |"
        )
    best = {t: max((lv.summary()["rps"] for lv in results if lv.target == t), default=0.0) for t in TARGETS}
    levels = ",".join(str(c) for c in args.levels)
    scale = best["nginx_gateway_3"] / best["gateway_1"] if best["gateway_1"] else 0.0
    cpus = machine["cpus"]
    shared = ""
    if max(before, after) > machine["cpus"]:
        shared = (
            f"This run shared the machine with other work (load average up to {max(before, after):.1f} "
            f"on {machine['cpus']} cores): the scheduler splits the CPU between runnable processes, so "
            "three gateway processes also won a larger share of it than one did, and the ratio above "
            "overstates what replicas gain on an idle machine; the load average at each row's start "
            "is in the last column. "
        )
    reading = f"""Reading it: a gateway process runs its Python on one core at a time, so one
gateway uses at most one of the {cpus} cores and three can use them all; beyond that, replicas on
the same cores add no CPU: every process of the run (domains, PostgreSQL, Redis, nginx, the load
generator, the gateways) shares them, and each request pays nginx's hop (compare "1 gateway" with
"nginx → 1 gateway"), and round robin sends each turn of a session to another process than its
previous one, whose session cache (docs/operations.md, "Storage") then misses and reads the
session from PostgreSQL. {shared}What the three-gateway rows do show: the balanced set serves the
load with sessions moving between processes on every turn (round robin) and no error, lost or
corrupt session. On separate machines throughput would grow with the replicas until PostgreSQL
or Redis limits it; that is not measured here. The thin hop is the floor: no intent model, no
session lock, no storage."""
    reading = textwrap.fill(" ".join(reading.split()), width=100)
    return f"""# Load: one-step GET_QUOTE under concurrent clients

Command: `.venv/bin/python bench/load.py --duration {args.duration:g} --levels {levels}`
(`make bench-load`). Run of {datetime.now(UTC):%Y-%m-%d %H:%M} UTC on {machine["cpus"]} CPU cores,
loopback; 1-minute load average {before:.2f} before, {after:.2f} after. Gateways on PostgreSQL +
Redis, one API key; nginx with deploy/gateway-proxy.conf. Each client is a closed loop on a
session of its own ("{QUERY}" as its next message) for {args.duration:g} s per level, after a
{WARM_UP_S:g} s warm-up per target; the load generator (aiohttp on uvloop, one process) runs on
the same cores.

{chr(10).join(lines)}

Errors: answers other than 200 with the expected status. Lost and corrupt count client sessions
read back after each level (defined in bench/load.py's docstring); the thin hop keeps none.

Best throughput: thin hop {best["thin_hop"]:.0f} req/s, one gateway {best["gateway_1"]:.0f},
nginx → one gateway {best["nginx_gateway_1"]:.0f}, nginx → three gateways {best["nginx_gateway_3"]:.0f}
({scale:.2f}× one gateway).

{reading}
"""


def _stop_on_sigterm() -> None:
    """SIGTERM unwinds like Ctrl-C, so every started process and the database are cleaned up."""

    def leave(signum: int, _frame: object) -> None:
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, leave)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=float, default=5.0, help="seconds per target and level")
    parser.add_argument(
        "--levels",
        type=lambda v: [int(x) for x in v.split(",")],
        default=[1, 8, 32, 64],
        help="e.g. 1,8,32,64",
    )
    args = parser.parse_args()
    _stop_on_sigterm()
    results, machine = run(args.levels, args.duration)
    out = ROOT / "bench" / "results"
    out.mkdir(parents=True, exist_ok=True)
    data = {"machine": machine, "duration_s": args.duration, "levels": [lv.summary() for lv in results]}
    (out / "load.json").write_text(json.dumps(data, indent=2) + "\n")
    md = report(args, results, machine)
    (out / "load.md").write_text(md)
    print(md)
    bad = sum(lv.errors + lv.lost_sessions + lv.corrupt_sessions for lv in results)
    if bad:
        raise SystemExit(f"{bad} errors, lost or corrupt sessions")


if __name__ == "__main__":
    main()
