"""A turn's latency, throughput and CPU, beside the thinnest hops to the same domain, in one run.

Command (from the repo root; needs ``wrk`` on PATH, and PostgreSQL + Redis for the second gateway):
    .venv/bin/python bench/turn_cpu.py [--seconds 5] [--rounds 3] [--clients 1,8,32] [--no-pg]
        [--langgraph] [--baseline GIT_REF] [--profile] [--heading TEXT]
Appends a section to bench/results/gateway_turn.md and writes bench/results/gateway_turn.json.

The same work (a quote of one company, ``GET_QUOTE`` → finance ``get_stock_price``) on five
targets, all real processes on loopback:

* ``direct``: finance's ``/execute``; ``direct_keyed`` the same with a new ``Idempotency-Key``
  per call, as the gateway's step calls send one (a quote is ``policy.read_only``, so the SDK
  keeps no record of it; bench/keyed_call.py compares a tree where it did);
* ``aiohttp_hop`` / ``httpx_hop``: bench/thin_hop.py (FastAPI forwarding a fixed intent to finance
  with one aiohttp / httpx client): no intent, no session, no storage;
* ``gateway_sqlite``: the gateway on SQLite (the embedded default), ``POST /v1/chat/completions``;
* ``gateway_pg``: the gateway on PostgreSQL + Redis (session locks, quotas, claims in Redis);
* ``baseline_sqlite`` (``--baseline REF``): the SQLite gateway of commit REF (a git worktree on
  this venv), interleaved with the rest, so a change is measured against its baseline in one run;
  ``baseline_pg`` its PostgreSQL + Redis gateway too (unless ``--no-pg``);
* ``langgraph`` (``--langgraph``): the same turn as a LangGraph graph with ``AsyncSqliteSaver``
  (bench/langgraph_turn.py, installed with pinned versions into a venv of its own).

Load comes from ``wrk`` (one thread per connection, one session per connection: every gateway
request is the next message of a running conversation). Each round runs every target at every
client count, in a rotating order, so a noisy moment hurts all targets alike. Per target and
client count: p50/p99 latency (wrk's histogram), requests/s (median over rounds) and CPU ms per
request: user+system time from ``/proc/<pid>/stat`` of the target's server *and* of finance,
over the timed window, divided by the requests served (the domain's CPU counted on every side,
and shown apart: "of which finance");
for a PostgreSQL gateway also, apart, the CPU of the server processes connected to its database;
for the gateways also how much of their own is their main thread's, the event loop's
(``/proc/<pid>/task/<pid>/stat``; the rest is their other threads).
Beside them: each server's idle CPU (ms per second with no request: its background work, which
every request's figure carries at low rates) and the 1-minute load average during the samples.
``--profile`` also records a py-spy profile of each gateway under 8 clients
(``bench/.work/<target>_profile.txt``, collapsed stacks; py-spy is not a runtime dependency:
``.venv/bin/pip install py-spy``).

Every process started is stopped when the run ends, also when it fails or is interrupted.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.conftest import START_TIMEOUT_S, Process, free_port, spawn, wait_http, write_bootstrap  # noqa: E402

QUERY = "cotação da Vale"
INTENT: dict[str, Any] = {
    "domain": "finance",
    "capability": "get_stock_price",
    "parameters": {"symbol_text": "Vale"},
    "confidence": 0.99,
    "original_query": QUERY,
}
PG_ADMIN_URL = os.environ.get("BENCH_PG_ADMIN_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/14")
#: the baseline's PostgreSQL gateway: a Redis database of its own (locks and claims apart)
BASELINE_REDIS_URL = os.environ.get("BENCH_BASELINE_REDIS_URL", "redis://127.0.0.1:6379/13")
WORK = ROOT / "bench" / ".work"
TICKS = os.sysconf("SC_CLK_TCK")

#: target -> what the report calls it
TARGETS = {
    "direct": "finance `/execute` direct",
    "direct_keyed": "finance `/execute` direct, a new `Idempotency-Key` per call",
    "aiohttp_hop": "thin hop, aiohttp client",
    "httpx_hop": "thin hop, httpx client",
    "gateway_sqlite": "**gateway `/v1/chat/completions`, SQLite**",
    "gateway_pg": "**gateway `/v1/chat/completions`, PostgreSQL + Redis**",
    "langgraph": "LangGraph + AsyncSqliteSaver, same turn (no intent model)",
    "baseline_sqlite": "gateway of the baseline commit, SQLite",
    "baseline_pg": "gateway of the baseline commit, PostgreSQL + Redis",
}


@dataclass(frozen=True)
class Target:
    name: str
    url: str
    path: str
    body: dict[str, Any]
    #: pids whose CPU this target's requests cost (its server and finance)
    pids: tuple[int, ...]
    #: each connection sends its own ``X-Session-Id`` (a conversation that goes on)
    sessions: bool = False
    #: the PostgreSQL database it stores in: the CPU of that database's server processes is
    #: counted beside its own (a SQLite gateway's database work is in its own process)
    pg_database: str | None = None
    #: each request sends a new ``Idempotency-Key`` (as the gateway's step calls do), so the
    #: domain claims and stores the key in its idempotency store
    keyed: bool = False


@dataclass
class Sample:
    target: str
    clients: int
    requests: int
    seconds: float
    rps: float
    p50_ms: float
    p99_ms: float
    errors: int
    cpu_ms_per_request: float
    #: the machine's 1-minute load average when the sample ended (what else ran beside it)
    load_1min: float = 0.0
    #: CPU ms per request of the PostgreSQL server processes serving the target's database
    db_cpu_ms_per_request: float = 0.0
    #: of ``cpu_ms_per_request``, the finance domain's (the last of the target's pids)
    domain_cpu_ms_per_request: float = 0.0
    #: of ``cpu_ms_per_request``, the server's main thread's (its event loop; the rest of the
    #: server's is its other threads: a SQLite gateway's checkpointer, DBOS's pollers...)
    loop_cpu_ms_per_request: float = 0.0


def cpu_seconds(pid: int, thread: int | None = None) -> float:
    """User + system CPU of a process (all its threads) so far; of one of its threads when
    ``thread`` is given (the main thread's id is the process id)."""
    stat = Path(f"/proc/{pid}/stat" if thread is None else f"/proc/{pid}/task/{thread}/stat")
    fields = stat.read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


async def _backend_pids(database: str) -> list[int]:
    import asyncpg

    admin = await asyncpg.connect(PG_ADMIN_URL, timeout=5)
    try:
        rows = await admin.fetch("SELECT pid FROM pg_stat_activity WHERE datname = $1", database)
    finally:
        await admin.close()
    return [int(r["pid"]) for r in rows]


def backend_cpu(database: str | None) -> dict[int, float]:
    """CPU seconds so far of each PostgreSQL server process connected to ``database`` (needs
    the server on this machine and /proc access to its processes; empty otherwise)."""
    if database is None:
        return {}
    found: dict[int, float] = {}
    for pid in asyncio.run(_backend_pids(database)):
        try:
            found[pid] = cpu_seconds(pid)
        except OSError:
            continue  # gone, or not readable
    return found


_WRK_SCRIPT = """
local counter = 0
function setup(thread)
  counter = counter + 1
  thread:set("id", counter)
end
function init(args)
  wrk.method = "POST"
  wrk.body = %(body)s
  wrk.headers["Content-Type"] = "application/json"
  %(session)s
end
%(request)s
"""

#: a new ``Idempotency-Key`` per request: the run, the connection, a counter
_WRK_KEYED = """
local n = 0
function request()
  n = n + 1
  wrk.headers["Idempotency-Key"] = "%(run)s-" .. id .. "-" .. n
  return wrk.format()
end
"""


def _wrk_script(target: Target, run: str) -> Path:
    session = f'wrk.headers["X-Session-Id"] = "{run}-" .. id' if target.sessions else ""
    body = json.dumps(json.dumps(target.body, ensure_ascii=False), ensure_ascii=False)
    path = WORK / f"wrk_{target.name}.lua"
    request = _WRK_KEYED % {"run": run} if target.keyed else ""
    path.write_text(_WRK_SCRIPT % {"body": body, "session": session, "request": request})
    return path


_UNITS = {"us": 1e-3, "ms": 1.0, "s": 1e3}


def _ms(text: str) -> float:
    match = re.fullmatch(r"([\d.]+)(us|ms|s)", text)
    if match is None:
        raise ValueError(f"wrk latency {text!r}")
    return float(match[1]) * _UNITS[match[2]]


def wrk(target: Target, clients: int, seconds: float, run: str) -> Sample:
    """One timed ``wrk`` run against ``target``; CPU read from /proc around it."""
    script = _wrk_script(target, run)
    argv = ["wrk", f"-t{clients}", f"-c{clients}", f"-d{int(seconds)}s", "--latency", "-s", str(script)]
    db_before = backend_cpu(target.pg_database)
    server = target.pids[0]
    before = [cpu_seconds(pid) for pid in target.pids]
    loop_before = cpu_seconds(server, server)
    out = subprocess.run([*argv, target.url + target.path], capture_output=True, text=True, check=True).stdout
    used = [cpu_seconds(pid) - was for pid, was in zip(target.pids, before, strict=True)]
    loop_used = cpu_seconds(server, server) - loop_before
    cpu = sum(used)
    # a backend opened during the sample counts from zero
    db_cpu = sum(used - db_before.get(pid, 0.0) for pid, used in backend_cpu(target.pg_database).items())
    requests = int(re.search(r"(\d+) requests in ([\d.]+)(\w+)", out)[1])  # type: ignore[index]
    errors = sum(int(m) for m in re.findall(r"Non-2xx or 3xx responses: (\d+)", out))
    errors += sum(int(m) for m in re.findall(r"(?:connect|read|write|timeout) (\d+)", out))
    percentiles = dict(re.findall(r"^\s+(50|99)\.000%\s+(\S+)", out, re.M)) or dict(
        re.findall(r"^\s+(50|99)%\s+(\S+)", out, re.M)
    )
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out)[1])  # type: ignore[index]
    return Sample(
        target.name,
        clients,
        requests,
        seconds,
        rps,
        _ms(percentiles["50"]),
        _ms(percentiles["99"]),
        errors,
        cpu * 1e3 / max(requests, 1),
        os.getloadavg()[0],
        db_cpu * 1e3 / max(requests, 1),
        used[-1] * 1e3 / max(requests, 1),
        loop_used * 1e3 / max(requests, 1),
    )


def _start(
    stack: ExitStack,
    name: str,
    argv: list[str],
    env: dict[str, str] | None = None,
    *,
    python: Path | None = None,
    tree: Path = ROOT,
) -> Process:
    """``python <argv>`` on a free port, its output in ``bench/.work/<name>.log``; the gateways
    log at INFO (their default: one line per turn), the rest at WARNING."""
    port = free_port()
    full_env = {
        **os.environ,
        "LOG_LEVEL": "WARNING",
        "LOG_FORMAT": "json",
        "PYTHONPATH": str(tree),
        "GATEWAY_HOST": "127.0.0.1",
        "GATEWAY_PORT": str(port),
        **(env or {}),
    }
    port_args = [] if argv[:2] == ["-m", "gateway"] else ["--port", str(port)]
    log = stack.enter_context((WORK / f"{name}.log").open("wb"))
    proc = spawn([str(python or sys.executable), *argv, *port_args], env=full_env, output=log, cwd=tree)
    process = Process(name, f"http://127.0.0.1:{port}", proc)
    stack.callback(process.stop)
    wait_http(f"{process.url}/health", timeout_s=START_TIMEOUT_S, proc=proc)
    return process


async def _pg(statement: str) -> None:
    import asyncpg

    admin = await asyncpg.connect(PG_ADMIN_URL, timeout=5)
    try:
        await admin.execute(statement)
    finally:
        await admin.close()


@contextmanager
def pg_database() -> Iterator[str]:
    """A fresh PostgreSQL database, dropped afterwards; its SQLAlchemy URL."""
    name = f"bench_{uuid.uuid4().hex[:10]}"
    asyncio.run(_pg(f'CREATE DATABASE "{name}"'))
    try:
        base = PG_ADMIN_URL.rsplit("/", 1)[0].replace("postgresql://", "postgresql+asyncpg://")
        yield f"{base}/{name}"
    finally:
        asyncio.run(_pg(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


def _flush_redis(url: str = REDIS_URL) -> None:
    from redis import Redis

    with Redis.from_url(url) as client:
        client.flushdb()


def _gateway_env(bootstrap: Path, database_url: str, redis_url: str = "") -> dict[str, str]:
    return {
        "DATABASE_URL": database_url,
        "BOOTSTRAP_FILE": str(bootstrap),
        "API_KEYS": "",
        "REDIS_URL": redis_url,
        "METRICS_ENABLED": os.environ.get("METRICS_ENABLED", "true"),
        "LOG_LEVEL": "INFO",
    }


def _worktree(stack: ExitStack, ref: str) -> Path:
    """A detached git worktree of ``ref`` (run on this venv), removed when ``stack`` closes."""
    parent = Path(tempfile.mkdtemp())
    stack.callback(shutil.rmtree, parent, ignore_errors=True)
    tree = parent / "tree"
    git = ["git", "-C", str(ROOT), "worktree"]
    subprocess.run([*git, "add", "--detach", str(tree), ref], check=True, capture_output=True)
    stack.callback(subprocess.run, [*git, "remove", "--force", str(tree)], check=False, capture_output=True)
    return tree


def start_targets(
    stack: ExitStack, work: Path, with_pg: bool, langgraph: Path | None, baseline: Path | None = None
) -> dict[str, Target]:
    finance = _start(stack, "finance", ["-m", "domains.finance", "--host", "127.0.0.1"])
    general = _start(stack, "general", ["-m", "domains.general", "--host", "127.0.0.1"])
    bootstrap = write_bootstrap(work / "bootstrap.json", {"finance": finance.url, "general": general.url})
    fin = finance.proc.pid
    hop_body = {"input_text": QUERY}
    chat_body = {"model": "orchestrator", "messages": [{"role": "user", "content": QUERY}]}
    targets = {"direct": Target("direct", finance.url, "/execute", INTENT, (fin,))}
    targets["direct_keyed"] = Target("direct_keyed", finance.url, "/execute", INTENT, (fin,), keyed=True)
    for client in ("aiohttp", "httpx"):
        argv = [str(ROOT / "bench" / "thin_hop.py"), "--domain-url", finance.url]
        argv += ["--intent", json.dumps(INTENT), "--client", client]
        hop = _start(stack, f"{client}_hop", argv)
        targets[f"{client}_hop"] = Target(f"{client}_hop", hop.url, "/v1/runs", hop_body, (hop.proc.pid, fin))
    sqlite_env = _gateway_env(bootstrap, f"sqlite+aiosqlite:///{work / 'gateway.sqlite3'}")
    gateway = _start(stack, "gateway_sqlite", ["-m", "gateway"], sqlite_env)
    targets["gateway_sqlite"] = Target(
        "gateway_sqlite", gateway.url, "/v1/chat/completions", chat_body, (gateway.proc.pid, fin), True
    )
    if with_pg:
        database_url = stack.enter_context(pg_database())
        _flush_redis()
        stack.callback(_flush_redis)
        pg = _start(stack, "gateway_pg", ["-m", "gateway"], _gateway_env(bootstrap, database_url, REDIS_URL))
        targets["gateway_pg"] = Target(
            "gateway_pg",
            pg.url,
            "/v1/chat/completions",
            chat_body,
            (pg.proc.pid, fin),
            True,
            database_url.rsplit("/", 1)[1],
        )
    if baseline is not None:
        base_env = _gateway_env(bootstrap, f"sqlite+aiosqlite:///{work / 'baseline.sqlite3'}")
        base = _start(stack, "baseline_sqlite", ["-m", "gateway"], base_env, tree=baseline)
        targets["baseline_sqlite"] = Target(
            "baseline_sqlite", base.url, "/v1/chat/completions", chat_body, (base.proc.pid, fin), True
        )
        if with_pg:
            base_url = stack.enter_context(pg_database())
            _flush_redis(BASELINE_REDIS_URL)
            stack.callback(_flush_redis, BASELINE_REDIS_URL)
            base_pg_env = _gateway_env(bootstrap, base_url, BASELINE_REDIS_URL)
            base_pg = _start(stack, "baseline_pg", ["-m", "gateway"], base_pg_env, tree=baseline)
            targets["baseline_pg"] = Target(
                "baseline_pg",
                base_pg.url,
                "/v1/chat/completions",
                chat_body,
                (base_pg.proc.pid, fin),
                True,
                base_url.rsplit("/", 1)[1],
            )
    if langgraph is not None:
        argv = [str(ROOT / "bench" / "langgraph_turn.py"), "serve", "--domain-url", finance.url]
        lg = _start(stack, "langgraph", [*argv, "--db", str(work / "langgraph.sqlite3")], python=langgraph)
        targets["langgraph"] = Target("langgraph", lg.url, "/v1/runs", hop_body, (lg.proc.pid, fin), True)
    return targets


def check_answers(targets: dict[str, Target]) -> None:
    """Every target answers the quote (a wrong answer fast is no result)."""
    for target in targets.values():
        headers = {"X-Session-Id": f"check-{uuid.uuid4().hex[:8]}"} if target.sessions else {}
        if target.keyed:
            headers["Idempotency-Key"] = f"check-{uuid.uuid4().hex[:8]}"
        response = httpx.post(target.url + target.path, json=target.body, headers=headers, timeout=30)
        response.raise_for_status()
        text = response.text
        if target.path == "/v1/chat/completions":
            text = response.json()["choices"][0]["message"]["content"]
        assert "Vale" in text or "VALE" in text, (target.name, text)


def profile(target: Target, seconds: float, run: str) -> Path:
    """py-spy's collapsed stacks of the target's server under 8 clients."""
    out = WORK / f"{target.name}_profile.txt"
    py_spy = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    argv = [py_spy, "record", "-p", str(target.pids[0]), "-d", str(int(seconds)), "-r", "250"]
    spy = subprocess.Popen([*argv, "-f", "raw", "-o", str(out), "--nonblocking"], stdout=subprocess.DEVNULL)
    try:
        wrk(target, 8, seconds, run)
    finally:
        spy.wait(timeout=seconds + 30)
    return out


def measure(args: argparse.Namespace) -> dict[str, Any]:
    clients = [int(c) for c in args.clients.split(",")]
    WORK.mkdir(parents=True, exist_ok=True)
    with ExitStack() as stack:
        work = Path(tempfile.mkdtemp())
        stack.callback(shutil.rmtree, work, ignore_errors=True)
        langgraph = None
        if args.langgraph:
            from bench.langgraph_turn import setup

            langgraph = setup()
        baseline = args.baseline_tree or (_worktree(stack, args.baseline) if args.baseline else None)
        targets = start_targets(stack, work, not args.no_pg, langgraph, baseline)
        check_answers(targets)
        run = f"r{uuid.uuid4().hex[:6]}"
        for target in targets.values():  # connections, caches, pages, the sessions' first turns
            wrk(target, 8, args.warmup, run)
        idle = idle_cpu(targets, args.seconds)
        samples: list[Sample] = []
        load_before = os.getloadavg()[0]
        names = list(targets)
        for r in range(args.rounds):
            for c in clients:
                k = (r + c) % len(names)
                for name in names[k:] + names[:k]:
                    samples.append(wrk(targets[name], c, args.seconds, run))
                    print(samples[-1], file=sys.stderr)
        load_after = os.getloadavg()[0]
        stored = stored_per_turn(work / "gateway.sqlite3")
        profiled = []
        if args.profile:
            profiled = [str(profile(t, 10, run)) for name, t in targets.items() if name.startswith("gateway")]
    return {
        "when": datetime.now(UTC).isoformat(timespec="seconds"),
        "seconds": args.seconds,
        "rounds": args.rounds,
        "load_avg_1min_before_after": [load_before, load_after],
        "load_avg_1min_during": _spread([s.load_1min for s in samples]),
        "summary": summarise(samples, clients, idle),
        "idle_cpu_ms_per_s": idle,
        "samples": [asdict(s) for s in samples],
        "profile": profiled,
        "stored_per_turn": stored,
    }


def idle_cpu(targets: dict[str, Target], seconds: float) -> dict[str, float]:
    """CPU ms per second of each target's processes (its server and finance, as its requests are
    counted) with no request at all: their background work (refreshes, pollers, checkpoints),
    over ``seconds``."""
    pids = {pid for target in targets.values() for pid in target.pids}
    before = {pid: cpu_seconds(pid) for pid in pids}
    time.sleep(seconds)
    rate = {pid: (cpu_seconds(pid) - before[pid]) * 1e3 / seconds for pid in pids}
    return {name: sum(rate[pid] for pid in target.pids) for name, target in targets.items()}


def _spread(values: list[float]) -> dict[str, float]:
    return {"min": min(values), "median": statistics.median(values), "max": max(values)}


def stored_per_turn(database: Path) -> dict[str, float]:
    """What the SQLite gateway stored per turn: graph versions per run, their bytes, the trace's."""
    with sqlite3.connect(database) as conn:
        runs, trace = conn.execute("SELECT count(*), avg(length(trace)) FROM runs").fetchone()
        versions, delta, snapshot = conn.execute(
            "SELECT count(*), avg(length(delta)), sum(length(coalesce(snapshot, ''))) FROM graph_versions"
        ).fetchone()
    return {
        "runs": runs,
        "versions_per_run": versions / max(runs, 1),
        "delta_bytes_per_version": delta or 0.0,
        "snapshot_bytes_per_run": (snapshot or 0) / max(runs, 1),
        "trace_bytes_per_run": trace or 0.0,
    }


def summarise(
    samples: list[Sample], clients: list[int], idle: dict[str, float]
) -> dict[str, dict[str, float]]:
    """Per target: medians over rounds of p50/p99 at 1 client, req/s and CPU ms at each count;
    ``net_cpu_ms``: the CPU per request less the target's idle CPU over the sample (the turn's own
    work, without background work that a loaded machine's low request rates spread thin)."""
    out: dict[str, dict[str, float]] = {}
    for name in [t for t in TARGETS if any(s.target == t for s in samples)]:
        mine = [s for s in samples if s.target == name]
        row: dict[str, float] = {"errors": sum(s.errors for s in mine)}
        for c in clients:
            at = [s for s in mine if s.clients == c]
            row[f"rps_{c}"] = statistics.median(s.rps for s in at)
            row[f"cpu_ms_{c}"] = statistics.median(s.cpu_ms_per_request for s in at)
            row[f"db_cpu_ms_{c}"] = statistics.median(s.db_cpu_ms_per_request for s in at)
            row[f"domain_cpu_ms_{c}"] = statistics.median(s.domain_cpu_ms_per_request for s in at)
            row[f"loop_cpu_ms_{c}"] = statistics.median(s.loop_cpu_ms_per_request for s in at)
            idle_ms = idle.get(name, 0.0)
            row[f"net_cpu_ms_{c}"] = statistics.median(
                s.cpu_ms_per_request - idle_ms * s.seconds / max(s.requests, 1) for s in at
            )
            if c == min(clients):
                row["p50_ms"] = statistics.median(s.p50_ms for s in at)
                row["p99_ms"] = statistics.median(s.p99_ms for s in at)
        out[name] = row
    return out


def _against_baseline(
    against: str, label: str, this: dict[str, float], base: dict[str, float], cpu_at: int
) -> str:
    """One sentence of this tree's figures over the baseline's, measured in the same run."""
    return (
        f"\nThis tree / `{against}` ({label}, same run): CPU per request "
        f"{this[f'cpu_ms_{cpu_at}'] / base[f'cpu_ms_{cpu_at}']:.2f}× "
        f"(net of idle CPU {this[f'net_cpu_ms_{cpu_at}'] / base[f'net_cpu_ms_{cpu_at}']:.2f}×), "
        f"p50 {this['p50_ms'] / base['p50_ms']:.2f}×, "
        f"req/s at 8 clients {this.get('rps_8', 0) / max(base.get('rps_8', 1), 1e-9):.2f}×"
    )


_RATIOS_HEAD = (
    "| gateway vs the aiohttp hop | CPU per request | net of idle CPU | req/s at 8 clients "
    "| p99/p50 at 1 client | CPU per request, finance's not counted |\n|---|---|---|---|---|---|"
)


def _own(row: dict[str, float], cpu_at: int) -> float:
    """A target's CPU per request less the finance domain's."""
    return row[f"cpu_ms_{cpu_at}"] - row.get(f"domain_cpu_ms_{cpu_at}", 0.0)


def report(args: argparse.Namespace, result: dict[str, Any]) -> str:
    summary = result["summary"]
    clients = [int(c) for c in args.clients.split(",")]
    cpu_at = 8 if 8 in clients else clients[-1]
    head = "| target | p50 ms (1 client) | p99 ms | p99/p50 | " + " | ".join(f"req/s {c}" for c in clients)
    head += f" | CPU ms/req ({cpu_at} clients, server + finance) | of which finance"
    head += " | net of idle CPU | errors |"
    lines = [head, "|" + "---|" * (8 + len(clients))]
    for name, row in summary.items():
        rps = " | ".join(f"{row[f'rps_{c}']:.0f}" for c in clients)
        lines.append(
            f"| {TARGETS[name]} | {row['p50_ms']:.2f} | {row['p99_ms']:.2f} | "
            f"{row['p99_ms'] / row['p50_ms']:.2f} | {rps} | {row[f'cpu_ms_{cpu_at}']:.2f} | "
            f"{row.get(f'domain_cpu_ms_{cpu_at}', 0.0):.2f} | "
            f"{row[f'net_cpu_ms_{cpu_at}']:.2f} | {row['errors']:.0f} |"
        )
    hop = summary["aiohttp_hop"]
    ratios = []
    for name in ("gateway_sqlite", "gateway_pg"):
        if name not in summary:
            continue
        gw = summary[name]
        ratios.append(
            f"| {TARGETS[name]} | {gw[f'cpu_ms_{cpu_at}'] / hop[f'cpu_ms_{cpu_at}']:.2f}× (≤ 2) | "
            f"{gw[f'net_cpu_ms_{cpu_at}'] / hop[f'net_cpu_ms_{cpu_at}']:.2f}× | "
            f"{gw.get('rps_8', 0) / hop.get('rps_8', 1):.2f}× (≥ 0.5) | "
            f"{gw['p99_ms'] / gw['p50_ms']:.2f} (≤ 1.5) | "
            f"{_own(gw, cpu_at) / max(_own(hop, cpu_at), 1e-9):.2f}× |"
        )
    pg_line = ""
    against = args.baseline or args.baseline_tree
    if "baseline_sqlite" in summary:
        base, lite = summary["baseline_sqlite"], summary["gateway_sqlite"]
        pg_line += _against_baseline(against, "SQLite", lite, base, cpu_at) + ".\n"
    if "baseline_pg" in summary:
        base, pg = summary["baseline_pg"], summary["gateway_pg"]
        pg_line += _against_baseline(against, "PostgreSQL + Redis", pg, base, cpu_at) + (
            "; "
            f"the PostgreSQL server's CPU per request {pg[f'db_cpu_ms_{cpu_at}']:.2f} ms vs "
            f"{base[f'db_cpu_ms_{cpu_at}']:.2f} ms "
            f"({pg[f'db_cpu_ms_{cpu_at}'] / max(base[f'db_cpu_ms_{cpu_at}'], 1e-9):.2f}×).\n"
        )
    if "gateway_pg" in summary:
        pg, lite = summary["gateway_pg"], summary["gateway_sqlite"]
        pg_line += (
            f"\nPostgreSQL + Redis / SQLite (≤ 1.3): p50 {pg['p50_ms'] / lite['p50_ms']:.2f}×, "
            f"CPU {pg[f'cpu_ms_{cpu_at}'] / lite[f'cpu_ms_{cpu_at}']:.2f}× "
            f"(net of idle CPU {pg[f'net_cpu_ms_{cpu_at}'] / lite[f'net_cpu_ms_{cpu_at}']:.2f}×), "
            f"req/s at 8 clients {lite.get('rps_8', 0) / max(pg.get('rps_8', 1), 1e-9):.2f}× fewer; "
            f"with the PostgreSQL server's CPU ({pg[f'db_cpu_ms_{cpu_at}']:.2f} ms per request; a SQLite "
            f"gateway's database work is in its own process) CPU "
            f"{(pg[f'cpu_ms_{cpu_at}'] + pg[f'db_cpu_ms_{cpu_at}']) / lite[f'cpu_ms_{cpu_at}']:.2f}× "
            f"(Redis's server not counted: it is shared).\n"
        )
    threads = ", ".join(
        f"{TARGETS[name].strip('*')} {row[f'loop_cpu_ms_{cpu_at}']:.2f} of {_own(row, cpu_at):.2f} ms"
        for name, row in summary.items()
        if name.startswith(("gateway", "baseline")) and f"loop_cpu_ms_{cpu_at}" in row
    )
    if threads:
        pg_line += (
            f"\nThe server's own CPU per request ({cpu_at} clients, finance's not counted) and of it its "
            f"main thread's, the event loop's (the rest: its other threads): {threads}.\n"
        )
    before, after = result["load_avg_1min_before_after"]
    during = result["load_avg_1min_during"]
    kept = result["stored_per_turn"]
    idle_ms = result["idle_cpu_ms_per_s"]
    idle = ", ".join(f"{TARGETS[name].strip('*')} {ms:.1f}" for name, ms in idle_ms.items())
    stored = (
        f"Idle CPU (ms per second, no request, server + finance as their requests count it): {idle}.\n\n"
        f"Stored per turn by the SQLite gateway ({kept['runs']} runs): "
        f"{kept['versions_per_run']:.2f} graph versions of {kept['delta_bytes_per_version']:.0f} B "
        f"(+ {kept['snapshot_bytes_per_run']:.0f} B of snapshots per run on average), "
        f"the run trace {kept['trace_bytes_per_run']:.0f} B."
    )
    options = f"--seconds {args.seconds} --rounds {args.rounds} --clients {args.clients}"
    options += (" --no-pg" if args.no_pg else "") + (" --langgraph" if args.langgraph else "")
    options += f" --baseline {args.baseline}" if args.baseline else ""
    options += f" --baseline-tree {args.baseline_tree}" if args.baseline_tree else ""
    return f"""
## {args.heading}

Command: `.venv/bin/python bench/turn_cpu.py {options}` (2-core machine shared with other work,
loopback, wrk one session per connection; medians over {args.rounds} interleaved rounds; 1-minute
load average {before:.2f} before, {after:.2f} after, {during["median"]:.2f} median during the samples
(min {during["min"]:.2f}, max {during["max"]:.2f})).

{chr(10).join(lines)}

{_RATIOS_HEAD}
{chr(10).join(ratios)}
{pg_line}
{stored}
"""


def _stop_on_sigterm() -> None:
    def leave(signum: int, _frame: object) -> None:
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, leave)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=5)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--clients", default="1,8,32")
    parser.add_argument("--no-pg", action="store_true", help="skip the PostgreSQL + Redis gateway")
    parser.add_argument("--profile", action="store_true", help="py-spy profiles of the gateways")
    parser.add_argument(
        "--langgraph", action="store_true", help="also the same turn on LangGraph (bench/langgraph_turn.py)"
    )
    parser.add_argument(
        "--baseline", metavar="GIT_REF", help="also the SQLite gateway of this commit (a git worktree)"
    )
    parser.add_argument(
        "--baseline-tree",
        type=Path,
        metavar="DIR",
        help="the baseline gateway from this directory (a tree prepared by hand, e.g. commits reverted)",
    )
    parser.add_argument("--no-write", action="store_true", help="print only; bench/results/ untouched")
    parser.add_argument("--heading", default=f"Run of {datetime.now(UTC):%Y-%m-%d %H:%M} UTC")
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        sys.exit("wrk not found on PATH (apt-get install wrk)")
    _stop_on_sigterm()
    started = time.monotonic()
    result = measure(args)
    md = report(args, result)
    print(md)
    print(f"took {time.monotonic() - started:.0f} s", file=sys.stderr)
    if args.no_write:
        return
    out = ROOT / "bench" / "results"
    (out / "gateway_turn.json").write_text(json.dumps(result, indent=2) + "\n")
    with (out / "gateway_turn.md").open("a") as document:
        document.write(md)


if __name__ == "__main__":
    main()
