"""What a domain registration costs a running gateway with a large catalog.

Command (from the repo root):
    .venv/bin/python bench/registration.py [--tree DIR] [--cache-dir DIR] [--out FILE]

One process serves 16 synthetic domains of ten goals each (``bench/registration_catalog.py``);
a real gateway starts with the first 15 in its bootstrap file (150 goals; SQLite, no Redis,
``INTENT_CACHE_DIR`` = ``--cache-dir``, so only the first run pays the initial training). Then a
client polls ``GET /health`` every 10 ms while the admin registers the 16th domain through
``POST /v1/domains``; reported: the registration's wall time and the CPU time the gateway
process used meanwhile (``registration_cpu_s``, all its threads, the ``/health`` answers
included: less sensitive than wall time to other processes on a busy machine), ``/health``
p50/p99/max during the
registration, and for ``--after-s`` seconds after it (the background full training), and whether
a message of the new domain is routed to it right after the registration answered. With
``--redis-url`` a second gateway (same database, Redis and cache directory, or its own with
``--replica-cache-dir``) starts too, and its first turn after the registration (which replays
it) is timed.

With ``--log FILE`` the gateway logs at INFO into ``FILE``, and the result also holds what it
logged about the registration (``gateway_says``: where the registration's time went, by step,
and how long the intent warm start took), for trees that log it.

``--tree DIR`` runs the gateway of another checkout (e.g. ``git archive HEAD | tar -x -C DIR``)
with this venv, for a before/after comparison. Every process started here is stopped at the end,
also on failure.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.conftest import free_port, spawn, stop_process, wait_http  # noqa: E402

ADMIN_TOKEN = "bench-admin-token"
BOOTSTRAP_DOMAINS = 15
POLL_EVERY_S = 0.010
#: The first start of a fresh cache trains 150 goals from scratch: minutes on a small machine.
START_TIMEOUT_S = 1200.0


@dataclass
class Polls:
    """``/health`` latencies (seconds) by phase, and the polls that failed."""

    phase: str = "before"
    latencies: dict[str, list[float]] = field(default_factory=dict)
    failures: int = 0
    stop: threading.Event = field(default_factory=threading.Event)

    def run(self, url: str) -> None:
        with httpx.Client(timeout=30.0) as client:
            while not self.stop.is_set():
                started = time.perf_counter()
                try:
                    ok = client.get(f"{url}/health").status_code == 200
                except httpx.HTTPError:
                    ok = False
                elapsed = time.perf_counter() - started
                if ok:
                    self.latencies.setdefault(self.phase, []).append(elapsed)
                else:
                    self.failures += 1
                time.sleep(max(0.0, POLL_EVERY_S - elapsed))


def summary(latencies: list[float]) -> dict[str, Any]:
    if not latencies:
        return {"n": 0}
    ordered = sorted(latencies)
    return {
        "n": len(ordered),
        "p50_ms": round(statistics.median(ordered) * 1000, 1),
        "p99_ms": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000, 1),
        "max_ms": round(ordered[-1] * 1000, 1),
    }


def chat_goal(url: str, text: str, timeout_s: float = 60.0) -> str:
    """The answer's first words: routed to the new domain when it says what that domain does."""
    response = httpx.post(
        f"{url}/v1/chat/completions",
        json={"model": "orchestrator", "messages": [{"role": "user", "content": text}]},
        headers={"X-Session-Id": f"bench-{time.monotonic_ns()}"},
        timeout=timeout_s,
    )
    response.raise_for_status()
    return str(response.json()["choices"][0]["message"]["content"])[:120]


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system, all threads) process ``pid`` has used so far (Linux ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def registration_lines(log: Path, offset: int, domain: str) -> list[str]:
    """What the gateway logged (from byte ``offset`` of its JSON log) about registering ``domain``
    and the intent warm start."""
    found = []
    with log.open("rb") as lines:
        lines.seek(offset)
        for line in lines:
            try:
                entry = json.loads(line)
            except ValueError:
                continue
            message = str(entry.get("message", "")) if isinstance(entry, dict) else ""
            if message.startswith(f"registered domain {domain} ") or "warm-started in" in message:
                found.append(message)
    return found


def run(
    tree: Path,
    cache_dir: Path,
    after_s: float,
    log: Path | None = None,
    redis_url: str | None = None,
    replica_cache_dir: Path | None = None,
) -> dict[str, Any]:
    # the new domain's examples are worded anew on every run: its texts are never in the cache
    variant = int(time.time())
    work = Path(tempfile.mkdtemp(prefix="bench-registration-"))
    catalog_port, gateway_port = free_port(), free_port()
    catalog_url = f"http://127.0.0.1:{catalog_port}"
    new_index = BOOTSTRAP_DOMAINS
    started: list[Any] = []
    try:
        server = spawn(
            [
                sys.executable,
                str(ROOT / "bench" / "registration_catalog.py"),
                "--port",
                str(catalog_port),
                "--domains",
                str(new_index + 1),
                "--last-variant",
                str(variant),
            ],
            # the domains speak the manifest schema of the tree under test
            env={**os.environ, "PYTHONPATH": str(tree)},
        )
        started.append(server)
        wait_http(f"{catalog_url}/health", 60, proc=server)
        names = httpx.get(f"{catalog_url}/domains").json()["domains"]
        bootstrap = work / "bootstrap.json"
        bootstrap.write_text(
            json.dumps(
                {
                    "domains": [
                        {"name": name, "base_url": f"{catalog_url}/d/{name}"}
                        for name in names[:BOOTSTRAP_DOMAINS]
                    ]
                }
            )
        )
        env = {
            **os.environ,
            "PYTHONPATH": str(tree),
            "GATEWAY_HOST": "127.0.0.1",
            "GATEWAY_PORT": str(gateway_port),
            "LOG_LEVEL": "INFO" if log else "WARNING",
            "DATABASE_URL": f"sqlite+aiosqlite:///{work / 'gateway.sqlite3'}",
            "BOOTSTRAP_FILE": str(bootstrap),
            "ADMIN_TOKEN": ADMIN_TOKEN,
            "API_KEYS": "",
            "REDIS_URL": redis_url or "",
            "INTENT_CACHE_DIR": str(cache_dir),
        }
        gateway_url = f"http://127.0.0.1:{gateway_port}"
        start = time.perf_counter()
        log_offset = log.stat().st_size if log and log.exists() else 0
        output = log.open("ab") if log else None
        gateway = spawn([sys.executable, "-m", "gateway"], env=env, cwd=tree, output=output)
        started.append(gateway)
        wait_http(f"{gateway_url}/health", START_TIMEOUT_S, proc=gateway)
        start_s = time.perf_counter() - start
        chat_goal(gateway_url, "quero consultar saldo")  # warm: the first turn loads lazily
        replica_url = None
        if redis_url:  # a second gateway on the same database, Redis and INTENT_CACHE_DIR
            replica_port = free_port()
            replica_url = f"http://127.0.0.1:{replica_port}"
            replica_env = {**env, "GATEWAY_PORT": str(replica_port)}
            if replica_cache_dir is not None:
                replica_env["INTENT_CACHE_DIR"] = str(replica_cache_dir)
            replica_proc = spawn([sys.executable, "-m", "gateway"], env=replica_env, cwd=tree, output=output)
            started.append(replica_proc)
            wait_http(f"{replica_url}/health", START_TIMEOUT_S, proc=replica_proc)
            chat_goal(replica_url, "quero consultar saldo")

        polls = Polls()
        poller = threading.Thread(target=polls.run, args=(gateway_url,), daemon=True)
        poller.start()
        time.sleep(1.0)  # a baseline of idle polls
        new_name = names[new_index]
        new = httpx.get(f"{catalog_url}/d/{new_name}/manifest").json()
        polls.phase = "registration"
        cpu_before = cpu_seconds(gateway.pid)
        began = time.perf_counter()
        response = httpx.post(
            f"{gateway_url}/v1/domains",
            json={
                "name": new_name,
                "base_url": f"{catalog_url}/d/{new_name}",
                "allow_overlap": True,
            },
            headers={"Authorization": f"Bearer {ADMIN_TOKEN}"},
            timeout=900.0,
        )
        registration_s = time.perf_counter() - began
        registration_cpu_s = cpu_seconds(gateway.pid) - cpu_before
        polls.phase = "after"
        answer = chat_goal(gateway_url, new["goals"][0]["examples"][0]["text"])
        replica: dict[str, Any] = {}
        if replica_url:  # its next turn replays the registration first
            began = time.perf_counter()
            # generous: before this work, that turn retrained the whole catalog
            replica["replica_answer"] = chat_goal(replica_url, new["goals"][0]["examples"][0]["text"], 900.0)
            replica["replica_first_turn_s"] = round(time.perf_counter() - began, 2)
        time.sleep(after_s)
        polls.stop.set()
        poller.join()
        logged = {"gateway_says": registration_lines(log, log_offset, new_name)} if log else {}
        return {
            "tree": str(tree),
            "goals_before": BOOTSTRAP_DOMAINS * 10,
            "start_s": round(start_s, 1),
            "status": response.status_code,
            "registration_s": round(registration_s, 2),
            "registration_cpu_s": round(registration_cpu_s, 2),
            "health_idle": summary(polls.latencies.get("before", [])),
            "health_during_registration": summary(polls.latencies.get("registration", [])),
            "health_after_registration": summary(polls.latencies.get("after", [])),
            "health_failures": polls.failures,
            "new_domain_answer": answer,
            **replica,
            **logged,
        }
    finally:
        for proc in reversed(started):
            stop_process(proc)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--tree", type=Path, default=ROOT, help="checkout whose gateway runs")
    parser.add_argument(
        "--cache-dir",
        type=Path,
        default=ROOT / "var" / "bench-registration-cache",
        help="INTENT_CACHE_DIR of the gateway (kept between runs: only the first start trains)",
    )
    parser.add_argument("--after-s", type=float, default=20.0, help="seconds polled after the registration")
    parser.add_argument("--out", type=Path, help="append the JSON result to this file")
    parser.add_argument("--log", type=Path, help="append the gateway's log (level INFO) to this file")
    parser.add_argument(
        "--replica-cache-dir", type=Path, help="the replica's own INTENT_CACHE_DIR (default: shared)"
    )
    parser.add_argument(
        "--redis-url",
        help="also start a replica on this Redis and time its first turn after the registration",
    )
    args = parser.parse_args()
    replica_cache = args.replica_cache_dir.resolve() if args.replica_cache_dir else None
    result = run(
        args.tree.resolve(), args.cache_dir.resolve(), args.after_s, args.log, args.redis_url, replica_cache
    )
    line = json.dumps(result)
    print(line)
    if args.out:
        with args.out.open("a") as out:
            out.write(line + "\n")


if __name__ == "__main__":
    main()
