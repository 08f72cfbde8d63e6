"""Start-up time of the whole platform: a restart with an unchanged catalog (warm) vs a first start.

Command (from the repo root):
    .venv/bin/python bench/startup.py [--runs 3] [--out bench/results/startup.md]

Each launch runs ``python -m cli.launcher`` (every domain of domains.bootstrap.json, then the
gateway) in an empty temporary working directory, on free ports (``GATEWAY_PORT`` and one
``DOMAIN_URL_<NAME>`` per domain, so a platform already running on the default ports is not
disturbed), with a temporary SQLite database, no Redis and a temporary ``INTENT_CACHE_DIR``. The
clock starts when the launcher is spawned and stops when ``GET /ready`` answers 200 with every
domain healthy. Per run: a cold launch on an empty model cache, then a warm launch on the cache
the cold one left. The launcher and all its children are stopped after every launch, also when
a launch fails or the run is interrupted.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.conftest import exit_code, free_port, spawn, stop_process  # noqa: E402

BOOTSTRAP = ROOT / "domains.bootstrap.json"
#: The issue's bar for a warm start.
TARGET_WARM_S = 10.0
#: A cold start trains the intent model; on a busy 2-core machine that takes a while.
LAUNCH_TIMEOUT_S = 300.0


@dataclass
class Launch:
    """Seconds from spawning the launcher until each milestone (None = never reached), and the
    CPU seconds the launcher and everything it started used, start to stop."""

    domains_healthy: float | None
    gateway_ready: float
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
        "LOG_LEVEL": "WARNING",
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


def _children_cpu_s() -> float:
    """CPU seconds of every reaped descendant (the launcher reaps the services it started)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def launch_once(cache_dir: Path) -> Launch:
    """Start the launcher, time it to readiness, stop everything it started."""
    cpu_before = _children_cpu_s()
    launch = _launch_until_ready(cache_dir)
    launch.cpu_s = _children_cpu_s() - cpu_before
    return launch


def _launch_until_ready(cache_dir: Path) -> Launch:
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
            proc = spawn([sys.executable, "-m", "cli.launcher"], env=env, cwd=work, output=log)
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
                        return Launch(domains_healthy, time.monotonic() - started)
                    time.sleep(0.1)
            finally:
                stop_process(proc)


def _tail(path: Path, lines: int = 30) -> str:
    return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])


def _median(values: list[float | None]) -> str:
    known = [v for v in values if v is not None]
    return f"{statistics.median(known):.1f}" if known else "-"


def _each(values: list[float | None]) -> str:
    return ", ".join("-" if v is None else f"{v:.1f}" for v in values)


def report(cold: list[Launch], warm: list[Launch], load_before: tuple[float, float, float]) -> str:
    load = os.getloadavg()
    warm_median = statistics.median(w.gateway_ready for w in warm)
    verdict = "met" if warm_median <= TARGET_WARM_S else "NOT met"
    rows = [
        f"| {name} | {_median([x.gateway_ready for x in runs])} | {_each([x.gateway_ready for x in runs])} "
        f"| {_median([x.domains_healthy for x in runs])} | {_median([x.cpu_s for x in runs])} |"
        for name, runs in (("cold (empty model cache)", cold), ("warm (same catalog, cached model)", warm))
    ]
    return "\n".join(
        [
            "# Start-up: launcher to ready",
            "",
            f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, `python bench/startup.py --runs {len(cold)}`, "
            f"{os.cpu_count()} CPUs, load average (1 / 5 / 15 min) at the start "
            f"{load_before[0]:.1f} / {load_before[1]:.1f} / {load_before[2]:.1f}, at the end "
            f"{load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f}, "
            f"Python {platform.python_version()}.",
            "",
            "Seconds from spawning `python -m cli.launcher` until `GET /ready` answers 200 with every "
            f"domain of domains.bootstrap.json healthy ({', '.join(domain_names())}); "
            "'domains healthy' is when all their `/health` answered; 'CPU' is the CPU time the launcher "
            "and all its processes used from start to stop (what an idle machine would need to spread "
            "over its cores; on a busy one the wall time is longer).",
            "",
            "| launch | ready, median (s) | each run (s) | domains healthy, median (s) | CPU, median (s) |",
            "|---|---|---|---|---|",
            *rows,
            "",
            f"Target: warm ready within {TARGET_WARM_S:g} s — {verdict} (median {warm_median:.1f} s).",
            "",
        ]
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("--runs", type=int, default=3, help="cold + warm launches per run (median)")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "startup.md")
    args = parser.parse_args()
    load_before = os.getloadavg()
    cold: list[Launch] = []
    warm: list[Launch] = []
    for run in range(args.runs):
        with tempfile.TemporaryDirectory(prefix="intent-cache-") as cache:
            cold.append(launch_once(Path(cache)))
            warm.append(launch_once(Path(cache)))
        print(
            f"run {run + 1}: cold {cold[-1].gateway_ready:.1f} s, warm {warm[-1].gateway_ready:.1f} s",
            flush=True,
        )
    text = report(cold, warm, load_before)
    args.out.write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
