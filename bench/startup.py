"""Start-up time of the whole platform, to ready and to the first answer: the first start after
``make install`` (cold: a new working directory and database, the intent model pretrained by
``make install``), a restart (warm: the same directory, database and model cache), and a first
start with no model cache at all (the model trained at start); the launcher of this tree beside a
reference launcher (by default the one of the commit before the start-up rework), on the machine
as it is and with CPU spinners added.

Command (from the repo root), as the results file was made:
    .venv/bin/python bench/startup.py [--runs 3] [--busy 2] [--reference 2040936|none]
        [--out bench/results/startup.md]
On a quiet machine run it as it is; ``--busy 0`` skips the half with spinners added (when the
machine is already busy), ``--reference none`` measures this tree alone (half the time).

Each launch runs the launcher (every domain of domains.bootstrap.json and the gateway) in an
empty temporary working directory, on free ports (``GATEWAY_PORT`` and one ``DOMAIN_URL_<NAME>``
per domain, so a platform already running on the default ports is not disturbed), with a
temporary SQLite database, no Redis and a temporary ``INTENT_CACHE_DIR``. The clock starts when
the launcher is spawned; 'ready' is when ``GET /ready`` answers 200 with every domain healthy,
'first answer' when a chat completion ("cotação da Petrobras") has answered. Per run and launcher:
``python -m cli.pretrain`` (``make install``'s last step, not timed) fills a new model cache,
then a cold launch in a new working directory, then a warm launch in that same directory; and an
'untrained' launch in another new directory with an empty model cache. The launchers alternate,
so both see the same machine. 'busy' repeats it all with ``--busy`` processes
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
#: The issue's bars: a first start (after ``make install``) to the first answer, a restart to ready.
TARGET_COLD_ANSWER_S = 15.0
TARGET_WARM_READY_S = 5.0
#: A cold start trains the intent model; on a busy 2-core machine that takes a while.
LAUNCH_TIMEOUT_S = 300.0
QUESTION = "cotação da Petrobras"
#: What the launcher prints when the gateway trains the intent model (cli.launcher.Startup).
TRAINING_LINE = "training the intent model"
#: The launcher before the start-up rework (sequential start, banner before ready).
DEFAULT_REFERENCE = "2040936"


@dataclass
class Launch:
    """Seconds from spawning the launcher until each milestone (None = never reached), and the
    CPU seconds the launcher and everything it started used, start to stop, and whether the
    gateway trained the intent model (its launcher said so) rather than loading it."""

    domains_healthy: float | None
    gateway_ready: float
    first_answer: float
    cpu_s: float = 0.0
    trained: bool = False
    training_note: str = ""


class LaunchFailed(RuntimeError):
    """The platform did not become ready; the message ends with the launcher's log."""


def domain_names() -> list[str]:
    entries = json.loads(BOOTSTRAP.read_text())["domains"]
    return [str(e["name"]) for e in entries if e.get("command")]


#: Launch kinds, in the order a run makes them.
COLD, WARM, UNTRAINED = "cold (after install)", "warm (restart)", "untrained (no model cache)"


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
    # distinct ports: the kernel may hand the same free port out twice in a row, and a second
    # domain on it fails to bind while the first answers its /health
    taken = {gateway_port}
    for name in domain_names():
        port = free_port()
        while port in taken:
            port = free_port()
        taken.add(port)
        env[f"DOMAIN_URL_{name.upper()}"] = f"http://127.0.0.1:{port}"
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


def pretrain(cache_dir: Path) -> None:
    """What ``make install`` does last: the bootstrap catalog's intent model into ``cache_dir``."""
    with tempfile.TemporaryDirectory(prefix="startup-pretrain-") as tmp:
        subprocess.run(
            [sys.executable, "-m", "cli.pretrain"],
            check=True,
            cwd=tmp,
            env={
                **os.environ,
                "PYTHONPATH": str(ROOT),
                "BOOTSTRAP_FILE": str(BOOTSTRAP),
                "INTENT_CACHE_DIR": str(cache_dir),
            },
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )


def launch_once(launcher: list[str], cache_dir: Path, work: Path) -> Launch:
    """Start the launcher in ``work``, time it to readiness and its first answer, stop everything
    it started."""
    cpu_before = _children_cpu_s()
    launch = _launch_until_answer(launcher, cache_dir, work)
    launch.cpu_s = _children_cpu_s() - cpu_before
    return launch


def _launch_until_answer(launcher: list[str], cache_dir: Path, work: Path) -> Launch:
    (work / "var").mkdir(exist_ok=True)  # the domains' default SQLite files live in ./var
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
                    answered = time.monotonic() - started
                    log_text = log_path.read_text(errors="replace")
                    trained = TRAINING_LINE in log_text
                    note = _why_trained(log_text) if trained else ""
                    return Launch(domains_healthy, ready, answered, trained=trained, training_note=note)
                time.sleep(0.1)
        finally:
            stop_process(proc)


def _why_trained(log_text: str) -> str:
    kept = [
        line[:300]
        for line in log_text.splitlines()
        if line.startswith("launcher: ") or '"WARNING"' in line or '"ERROR"' in line or TRAINING_LINE in line
    ]
    return "  the gateway trained at start; its launcher said:\n    " + "\n    ".join(kept[-40:])


def _tail(path: Path, lines: int = 30) -> str:
    return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])


@contextlib.contextmanager
def reference_launcher(revision: str) -> Iterator[list[str] | None]:
    """The launcher of ``revision``, run from a temporary file against this tree's packages
    (None for ``none``: this tree alone)."""
    if revision == "none":
        yield None
        return
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


def launch_kinds(argv: list[str]) -> dict[str, Launch]:
    """One launch of each kind: cold and warm on a pretrained cache in one working directory,
    untrained on an empty cache in another."""
    launches: dict[str, Launch] = {}
    with tempfile.TemporaryDirectory(prefix="intent-cache-") as cache:
        pretrain(Path(cache))
        with tempfile.TemporaryDirectory(prefix="startup-bench-") as work:
            launches[COLD] = launch_once(argv, Path(cache), Path(work))
            launches[WARM] = launch_once(argv, Path(cache), Path(work))
    with (
        tempfile.TemporaryDirectory(prefix="intent-cache-") as cache,
        tempfile.TemporaryDirectory(prefix="startup-bench-") as work,
    ):
        launches[UNTRAINED] = launch_once(argv, Path(cache), Path(work))
    return launches


def measure(launchers: dict[str, list[str]], runs: int, label: str) -> Runs:
    results: Runs = {}
    for run in range(runs):
        for name, argv in launchers.items():
            launches = launch_kinds(argv)
            for kind, launch in launches.items():
                results.setdefault(f"{name}, {kind}", []).append(launch)
                if launch.trained and kind != UNTRAINED:
                    # why a start with a pretrained model trained (a domain missing from its
                    # first catalog?): shown in the console, where the run's progress is
                    print(f"{label} run {run + 1} {name}, {kind}: {launch.training_note}", flush=True)
            each = ", ".join(
                f"{kind} ready {launch.gateway_ready:.1f} s / answer {launch.first_answer:.1f} s"
                for kind, launch in launches.items()
            )
            print(f"{label} run {run + 1} {name} (load {_load()}): {each}", flush=True)
    return results


def _median(values: list[float | None]) -> float | None:
    known = [v for v in values if v is not None]
    return statistics.median(known) if known else None


def _fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


def table(results: Runs) -> list[str]:
    rows = [
        "| launcher, launch | ready, median (s) | first answer, median (s) | each run: ready / answer (s) "
        "| domains healthy, median (s) | CPU, median (s) | trained at start |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, runs in results.items():
        each = ", ".join(f"{r.gateway_ready:.1f} / {r.first_answer:.1f}" for r in runs)
        rows.append(
            f"| {name} | {_fmt(_median([r.gateway_ready for r in runs]))} "
            f"| {_fmt(_median([r.first_answer for r in runs]))} | {each} "
            f"| {_fmt(_median([r.domains_healthy for r in runs]))} "
            f"| {_fmt(_median([r.cpu_s for r in runs]))} "
            f"| {sum(r.trained for r in runs)} of {len(runs)} |"
        )
    return rows


def ratios(results: Runs) -> list[str]:
    lines = []
    for launch in (COLD, WARM, UNTRAINED):
        ours, ref = results.get(f"this tree, {launch}"), results.get(f"reference, {launch}")
        if not ours or not ref:
            continue
        mine = statistics.median(r.first_answer for r in ours)
        theirs = statistics.median(r.first_answer for r in ref)
        lines.append(f"- {launch}: first answer {mine:.1f} s vs {theirs:.1f} s, ratio {mine / theirs:.2f}")
    return lines


def verdicts(results: Runs) -> list[str]:
    cold = statistics.median(r.first_answer for r in results[f"this tree, {COLD}"])
    warm = statistics.median(r.gateway_ready for r in results[f"this tree, {WARM}"])
    untrained = statistics.median(r.first_answer for r in results[f"this tree, {UNTRAINED}"])
    return [
        f"- cold start (after `make install`) to first answer ≤ {TARGET_COLD_ANSWER_S:g} s: "
        f"{'met' if cold <= TARGET_COLD_ANSWER_S else 'NOT met'} (median {cold:.1f} s)",
        f"- warm restart to ready ≤ {TARGET_WARM_READY_S:g} s: "
        f"{'met' if warm <= TARGET_WARM_READY_S else 'NOT met'} (median {warm:.1f} s)",
        f"- (no target) a first start with no model cache, to first answer: median {untrained:.1f} s",
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


def import_costs(reference: list[str] | None) -> list[str]:
    """Where a warm start's CPU goes: each process's imports, this tree's launcher vs the reference's."""
    modules = {
        "launcher (this tree), before it starts the gateway": "cli.launcher",
        "launcher (this tree), the rest, while the gateway starts": "cli.supervisor",
        "gateway (`gateway.app`)": "gateway.app",
        # a domain's __main__ imports its service (the app) and the SDK's server inside main()
        **{
            f"domain {name}": f"domains.{name}.service, sdk.service"
            for name in domain_names()
            if (ROOT / "domains" / name / "service.py").exists()
        },
    }
    rows = [f"| {label} | {import_cpu_s(module):.2f} |" for label, module in modules.items()]
    if reference is None:
        return ["| process | CPU to import, median (s) |", "|---|---|", *rows]
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
    parser.add_argument("--runs", type=int, default=3, help="launches of each kind per launcher (median)")
    parser.add_argument("--busy", type=int, default=2, help="CPU spinners for the busy half (0: none)")
    parser.add_argument(
        "--reference",
        default=DEFAULT_REFERENCE,
        help="the reference launcher's revision (none: this tree alone)",
    )
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
        f"'{COLD}': a new directory and database, the model cache filled by `python -m cli.pretrain` "
        f"(as `make install` does); '{WARM}': the launcher again in that directory; '{UNTRAINED}': "
        "a new directory and an empty model cache (the gateway trains the model before it is ready)."
        + (
            ""
            if args.reference == "none"
            else f" 'reference' is `cli/launcher.py` of {args.reference} (domains first, then the "
            "gateway) on this tree."
        ),
    ]
    with reference_launcher(args.reference) as reference:
        launchers = {"this tree": [sys.executable, "-m", "cli.launcher"]}
        if reference is not None:
            launchers["reference"] = reference
        lines += [
            "",
            "## Where a warm start's CPU goes",
            "",
            "Every process of a start imports its modules first; on 2 cores those imports are most of "
            "a warm start's CPU (the gateway's own start-up after its imports, with a cached model, "
            "is about a second: migrations, the durable engine's launch, the catalog, the model's load).",
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
                *(
                    [
                        "First answer, this tree vs the reference (median, same machine state):",
                        "",
                        *ratios(results),
                        "",
                    ]
                    if reference is not None
                    else []
                ),
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
