"""Start-up time of the whole platform: a first start (cold: empty model cache) and a restart
with an unchanged catalog (warm), to ready and to the first answer; the launcher of this tree
beside a reference launcher (by default the one of the commit before the start-up rework), on a
quiet machine and on one kept busy.

Command (from the repo root):
    .venv/bin/python bench/startup.py [--runs 3] [--busy 2] [--reference 2040936]
        [--out bench/results/startup.md]

Each launch runs the launcher (every domain of domains.bootstrap.json and the gateway) in an
empty temporary working directory, on free ports (``GATEWAY_PORT`` and one ``DOMAIN_URL_<NAME>``
per domain, so a platform already running on the default ports is not disturbed), with a
temporary SQLite database, no Redis and a temporary ``INTENT_CACHE_DIR``. The clock starts when
the launcher is spawned; 'ready' is when ``GET /ready`` answers 200 with every domain healthy,
'first answer' when a chat completion ("cotação da Petrobras") has answered. Per run and launcher:
a cold launch on an empty model cache, then a warm launch on the cache the cold one left; the two
launchers alternate, so both see the same machine. 'busy' repeats it all with ``--busy`` processes
spinning on the CPU (what other work on a 2-core machine does to a start). The launcher and all
its children are stopped after every launch, also when a launch fails or the run is interrupted.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.conftest import exit_code, free_port, spawn, stop_process  # noqa: E402

BOOTSTRAP = ROOT / "domains.bootstrap.json"
#: The issue's bars: a first start to the first answer, a restart to ready.
TARGET_COLD_ANSWER_S = 15.0
TARGET_WARM_READY_S = 5.0
#: A cold start trains the intent model; on a busy 2-core machine that takes a while.
LAUNCH_TIMEOUT_S = 300.0
QUESTION = "cotação da Petrobras"
#: The launcher before the start-up rework (sequential start, banner before ready).
DEFAULT_REFERENCE = "2040936"


@dataclass
class Launch:
    """Seconds from spawning the launcher until each milestone (None = never reached), and the
    CPU seconds the launcher and everything it started used, start to stop."""

    domains_healthy: float | None
    gateway_ready: float
    first_answer: float
    cpu_s: float = 0.0


class LaunchFailed(RuntimeError):
    """The platform did not become ready; the message ends with the launcher's log."""


def domain_names() -> list[str]:
    entries = json.loads(BOOTSTRAP.read_text())["domains"]
    return [str(e["name"]) for e in entries if e.get("command")]


def launch_environment(work: Path, cache_dir: Path, gateway_port: int) -> dict[str, str]:
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "GATEWAY_HOST": "127.0.0.1",
        "GATEWAY_PORT": str(gateway_port),
        "BOOTSTRAP_FILE": str(BOOTSTRAP),
        "DATABASE_URL": f"sqlite+aiosqlite:///{work / 'gateway.sqlite3'}",
        "REDIS_URL": "",  # a running platform's registry in Redis must not leak into this one
        "INTENT_CACHE_DIR": str(cache_dir),
        "LOG_LEVEL": "INFO",  # the launcher's progress reads the gateway's INFO records
    }
    for name in domain_names():
        env[f"DOMAIN_URL_{name.upper()}"] = f"http://127.0.0.1:{free_port()}"
    return env


def is_ready(client: httpx.Client, url: str, domains: list[str]) -> bool:
    try:
        response = client.get(url)
    except httpx.HTTPError:
        return False
    if response.status_code != 200:
        return False
    checks = response.json().get("checks", {}).get("domains", {})
    return all(checks.get(name) == "ok" for name in domains)


def all_healthy(client: httpx.Client, urls: list[str]) -> bool:
    try:
        return all(client.get(f"{url}/health").status_code == 200 for url in urls)
    except httpx.HTTPError:
        return False


def first_answer(client: httpx.Client, port: int) -> None:
    response = client.post(
        f"http://127.0.0.1:{port}/v1/chat/completions",
        json={"model": "orchestrator", "messages": [{"role": "user", "content": QUESTION}]},
        timeout=120,
    )
    response.raise_for_status()
    if "PETR4" not in response.json()["choices"][0]["message"]["content"]:
        raise LaunchFailed(f"wrong first answer: {response.text[:300]}")


def _children_cpu_s() -> float:
    """CPU seconds of every reaped descendant (the launcher reaps the services it started)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def launch_once(launcher: list[str], cache_dir: Path) -> Launch:
    """Start the launcher, time it to readiness and its first answer, stop everything it started."""
    cpu_before = _children_cpu_s()
    launch = _launch_until_answer(launcher, cache_dir)
    launch.cpu_s = _children_cpu_s() - cpu_before
    return launch


def _launch_until_answer(launcher: list[str], cache_dir: Path) -> Launch:
    with tempfile.TemporaryDirectory(prefix="startup-bench-") as tmp:
        work = Path(tmp)
        (work / "var").mkdir()  # the domains' default SQLite files live in ./var
        port = free_port()
        env = launch_environment(work, cache_dir, port)
        domains = domain_names()
        domain_urls = [env[f"DOMAIN_URL_{name.upper()}"] for name in domains]
        log_path = work / "launcher.log"
        with log_path.open("wb") as log, httpx.Client(timeout=2.0) as client:
            started = time.monotonic()
            proc = spawn(launcher, env=env, cwd=work, output=log)
            try:
                domains_healthy: float | None = None
                while True:
                    elapsed = time.monotonic() - started
                    code = exit_code(proc)  # never reaped here: stop_process still reaches its children
                    if code is not None:
                        raise LaunchFailed(f"launcher exited with {code}:\n{_tail(log_path)}")
                    if elapsed > LAUNCH_TIMEOUT_S:
                        raise LaunchFailed(f"not ready within {LAUNCH_TIMEOUT_S:g}s:\n{_tail(log_path)}")
                    if domains_healthy is None and all_healthy(client, domain_urls):
                        domains_healthy = time.monotonic() - started
                    if is_ready(client, f"http://127.0.0.1:{port}/ready", domains):
                        ready = time.monotonic() - started
                        first_answer(client, port)
                        return Launch(domains_healthy, ready, time.monotonic() - started)
                    time.sleep(0.1)
            finally:
                stop_process(proc)


def _tail(path: Path, lines: int = 30) -> str:
    return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])


@contextlib.contextmanager
def reference_launcher(revision: str) -> Iterator[list[str]]:
    """The launcher of ``revision``, run from a temporary file against this tree's packages."""
    source = subprocess.run(
        ["git", "-C", str(ROOT), "show", f"{revision}:cli/launcher.py"], check=True, capture_output=True
    ).stdout
    with tempfile.TemporaryDirectory(prefix="reference-launcher-") as tmp:
        path = Path(tmp) / "launcher.py"
        path.write_bytes(source)
        yield [sys.executable, str(path)]


@contextlib.contextmanager
def busy(processes: int) -> Iterator[None]:
    """``processes`` CPU-bound spinners for the duration (a stand-in for other work)."""
    spinners = [
        spawn([sys.executable, "-c", "while True: pass"], output=subprocess.DEVNULL)  # type: ignore[arg-type]
        for _ in range(processes)
    ]
    try:
        yield
    finally:
        for proc in spinners:
            stop_process(proc)


Runs = dict[str, list[Launch]]


def measure(launchers: dict[str, list[str]], runs: int, label: str) -> Runs:
    results: Runs = {}
    for run in range(runs):
        for name, argv in launchers.items():
            with tempfile.TemporaryDirectory(prefix="intent-cache-") as cache:
                cold = launch_once(argv, Path(cache))
                warm = launch_once(argv, Path(cache))
            results.setdefault(f"{name}, cold", []).append(cold)
            results.setdefault(f"{name}, warm", []).append(warm)
            print(
                f"{label} run {run + 1} {name}: cold ready {cold.gateway_ready:.1f} s / answer "
                f"{cold.first_answer:.1f} s, warm ready {warm.gateway_ready:.1f} s / answer "
                f"{warm.first_answer:.1f} s",
                flush=True,
            )
    return results


def _median(values: list[float | None]) -> float | None:
    known = [v for v in values if v is not None]
    return statistics.median(known) if known else None


def _fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


def table(results: Runs) -> list[str]:
    rows = [
        "| launcher, launch | ready, median (s) | first answer, median (s) | each run: ready / answer (s) "
        "| domains healthy, median (s) | CPU, median (s) |",
        "|---|---|---|---|---|---|",
    ]
    for name, runs in results.items():
        each = ", ".join(f"{r.gateway_ready:.1f} / {r.first_answer:.1f}" for r in runs)
        rows.append(
            f"| {name} | {_fmt(_median([r.gateway_ready for r in runs]))} "
            f"| {_fmt(_median([r.first_answer for r in runs]))} | {each} "
            f"| {_fmt(_median([r.domains_healthy for r in runs]))} "
            f"| {_fmt(_median([r.cpu_s for r in runs]))} |"
        )
    return rows


def ratios(results: Runs) -> list[str]:
    lines = []
    for launch in ("cold", "warm"):
        ours, ref = results.get(f"this tree, {launch}"), results.get(f"reference, {launch}")
        if not ours or not ref:
            continue
        mine = statistics.median(r.first_answer for r in ours)
        theirs = statistics.median(r.first_answer for r in ref)
        lines.append(f"- {launch}: first answer {mine:.1f} s vs {theirs:.1f} s, ratio {mine / theirs:.2f}")
    return lines


def verdicts(results: Runs) -> list[str]:
    cold = statistics.median(r.first_answer for r in results["this tree, cold"])
    warm = statistics.median(r.gateway_ready for r in results["this tree, warm"])
    return [
        f"- cold start to first answer ≤ {TARGET_COLD_ANSWER_S:g} s: "
        f"{'met' if cold <= TARGET_COLD_ANSWER_S else 'NOT met'} (median {cold:.1f} s)",
        f"- warm restart to ready ≤ {TARGET_WARM_READY_S:g} s: "
        f"{'met' if warm <= TARGET_WARM_READY_S else 'NOT met'} (median {warm:.1f} s)",
    ]


def import_cpu_s(module: str, repeat: int = 3) -> float:
    """CPU seconds a fresh interpreter spends importing ``module`` (median of ``repeat``): what
    each process of a start pays before it does anything."""
    spent = []
    for _ in range(repeat):
        before = _children_cpu_s()
        subprocess.run(
            [sys.executable, "-c", f"import {module}"],
            check=True,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            cwd=ROOT,
        )
        spent.append(_children_cpu_s() - before)
    return statistics.median(spent)


def import_costs(reference: list[str]) -> list[str]:
    """Where a warm start's CPU goes: each process's imports, this tree's launcher vs the reference's."""
    modules = {
        "launcher (this tree)": "cli.launcher",
        "gateway (`gateway.app`)": "gateway.app",
        **{
            f"domain {name}": f"domains.{name}.__main__"
            for name in domain_names()
            if (ROOT / "domains" / name / "__main__.py").exists()
        },
    }
    rows = [f"| {label} | {import_cpu_s(module):.2f} |" for label, module in modules.items()]
    # the reference launcher's module-level imports, run from its file
    source = Path(reference[-1]).read_text().split("\ndef ", 1)[0]
    before = _children_cpu_s()
    subprocess.run(
        [sys.executable, "-c", source], check=True, env={**os.environ, "PYTHONPATH": str(ROOT)}, cwd=ROOT
    )
    rows.append(f"| launcher (reference) | {_children_cpu_s() - before:.2f} |")
    return ["| process | CPU to import, median (s) |", "|---|---|", *rows]


def _load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.1f} / {five:.1f} / {fifteen:.1f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("--runs", type=int, default=3, help="cold + warm launches per launcher (median)")
    parser.add_argument("--busy", type=int, default=2, help="CPU spinners for the busy half (0: none)")
    parser.add_argument("--reference", default=DEFAULT_REFERENCE, help="the reference launcher's revision")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "startup.md")
    args = parser.parse_args()
    lines = [
        "# Start-up: launcher to ready and to the first answer",
        "",
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, `python bench/startup.py --runs {args.runs} "
        f"--busy {args.busy} --reference {args.reference}`, {os.cpu_count()} CPUs, "
        f"Python {platform.python_version()}.",
        "",
        "Seconds from spawning the launcher until `GET /ready` answers 200 with every domain of "
        f"domains.bootstrap.json healthy ({', '.join(domain_names())}), and until the first chat "
        f"completion (\"{QUESTION}\") has answered; 'domains healthy' is when all their `/health` "
        "answered; 'CPU' is the CPU time the launcher and all its processes used from start to stop. "
        f"'reference' is `cli/launcher.py` of {args.reference} (domains first, then the gateway) "
        "on this tree.",
    ]
    with reference_launcher(args.reference) as reference:
        launchers = {"this tree": [sys.executable, "-m", "cli.launcher"], "reference": reference}
        lines += [
            "",
            "## Where a warm start's CPU goes",
            "",
            "Every process of a start imports its modules first; on 2 cores those imports are most of "
            "a warm start's CPU (the gateway's own start-up after its imports, with a cached model, "
            "is a few tenths of a second). The reference launcher imported the registry's clients "
            "(MCP, A2A) before it started any domain.",
            "",
            *import_costs(reference),
        ]
        for label, spinners in (("quiet", 0), ("busy", args.busy)):
            if label == "busy" and spinners == 0:
                continue
            with busy(spinners):
                load_before = _load()
                results = measure(launchers, args.runs, label)
                load_after = _load()
            title = (
                "Without added load (the machine as it was: see its load average)"
                if label == "quiet"
                else f"Busy: {spinners} CPU spinners added"
            )
            lines += [
                "",
                f"## {title}",
                "",
                f"Load average (1 / 5 / 15 min) at the start {load_before}, at the end {load_after}.",
                "",
                *table(results),
                "",
                "First answer, this tree vs the reference (median, same machine state):",
                "",
                *ratios(results),
                "",
                "Targets:",
                "",
                *verdicts(results),
            ]
    text = "\n".join(lines) + "\n"
    args.out.write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
