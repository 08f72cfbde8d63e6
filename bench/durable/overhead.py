"""Per-run overhead of background runs against the same interactive turn, on SQLite.

One gateway per source tree (``--tree``, default this one), each on its own SQLite file (or, with
``--postgres``, its own new database on the tests' PostgreSQL), all
routing to one ``tests/fixtures/gated_domain.py`` with its gate open (its capability answers at
once). Rounds alternate between the trees and between the two kinds of run, so every tree sees
the same machine load:

- interactive: ``POST /v1/runs`` (a one-step export turn), timed until its 200;
- background: ``POST /v1/runs`` with ``background: true``, timed until its
  ``/v1/runs/{id}/events`` stream says ``run.finished`` (the followed run's end).

Each run uses a session of its own (no session lock shared between runs). The medians and the
background/interactive ratio per tree are printed and written to ``--out`` as JSON.

    .venv/bin/python bench/durable/overhead.py --tree /tmp/durable-base --tree . --runs 60 \\
        --out bench/results/durable_overhead.json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import asyncpg
import httpx

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.conftest import (  # noqa: E402  (the repository's root is put on the path above)
    PG_ADMIN_URL,
    Process,
    free_port,
    start_and_wait,
    start_fixture_domain,
    stop_process,
    write_bootstrap,
)

TEXT = "export the quarterly sales report"


@dataclass
class Target:
    tree: Path
    gateway: Process
    interactive_ms: list[float] = field(default_factory=list)
    background_ms: list[float] = field(default_factory=list)


def start_gateway_from(tree: Path, work: Path, domain: Process, database_url: str | None) -> Process:
    """``python -m gateway`` run from ``tree`` (its sources first on the path), on
    ``database_url`` (default: a SQLite file in ``work``)."""
    work.mkdir(parents=True, exist_ok=True)
    bootstrap = write_bootstrap(work / "bootstrap.json", {"gated": domain.url})
    port = free_port()
    env = {
        **os.environ,
        "PYTHONPATH": str(tree),
        "GATEWAY_HOST": "127.0.0.1",
        "GATEWAY_PORT": str(port),
        "LOG_LEVEL": "WARNING",
        "DATABASE_URL": database_url or f"sqlite+aiosqlite:///{work / 'gateway.sqlite3'}",
        "BOOTSTRAP_FILE": str(bootstrap),
        "ADMIN_TOKEN": "bench-admin-token",
        "API_KEYS": "",
        "REDIS_URL": "",
        "METRICS_ENABLED": "false",
    }
    url = f"http://127.0.0.1:{port}"
    proc = start_and_wait([sys.executable, "-m", "gateway"], url, env, timeout_s=180)
    return Process(f"gateway@{tree}", url, proc, env)


def _as_admin(sql: str) -> None:
    """``sql`` on the tests' PostgreSQL as its admin."""

    async def run() -> None:
        admin = await asyncpg.connect(PG_ADMIN_URL, timeout=5)
        try:
            await admin.execute(sql)
        finally:
            await admin.close()

    asyncio.run(run())


def new_pg_database() -> str:
    """A new database on the tests' PostgreSQL, as the gateway's URL."""
    name = f"overhead_{uuid.uuid4().hex[:10]}"
    _as_admin(f'CREATE DATABASE "{name}"')
    return f"{PG_ADMIN_URL.rsplit('/', 1)[0]}/{name}".replace("postgresql://", "postgresql+asyncpg://")


def drop_pg_database(url: str) -> None:
    _as_admin(f'DROP DATABASE IF EXISTS "{url.rsplit("/", 1)[1]}" WITH (FORCE)')


def interactive(client: httpx.Client, gateway: Process, session: str) -> float:
    started = time.perf_counter()
    response = client.post(
        f"{gateway.url}/v1/runs", json={"input_text": TEXT, "session_id": session, "domain": "gated"}
    )
    took = time.perf_counter() - started
    if response.status_code != 200 or response.json()["status"] != "completed":
        raise RuntimeError(f"interactive turn not completed: {response.status_code} {response.text}")
    return took * 1000


def background(client: httpx.Client, gateway: Process, session: str) -> float:
    started = time.perf_counter()
    response = client.post(
        f"{gateway.url}/v1/runs",
        json={"input_text": TEXT, "session_id": session, "domain": "gated", "background": True},
    )
    if response.status_code != 202:
        raise RuntimeError(f"background run not accepted: {response.status_code} {response.text}")
    run_id = response.json()["run_id"]
    finished = None
    with client.stream("GET", f"{gateway.url}/v1/runs/{run_id}/events") as events:
        for line in events.iter_lines():
            if line.startswith("event: run.finished"):
                finished = time.perf_counter()
                break
    if finished is None:
        raise RuntimeError(f"run {run_id}: its events ended without run.finished")
    status = client.get(f"{gateway.url}/v1/runs/{run_id}").json()["status"]
    if status != "completed":
        raise RuntimeError(f"background run {run_id} ended {status}")
    return (finished - started) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tree", action="append", type=Path, help="a source tree (repeatable)")
    parser.add_argument("--runs", type=int, default=60, help="runs of each kind per tree")
    parser.add_argument("--warmup", type=int, default=5, help="untimed runs of each kind per tree first")
    parser.add_argument("--out", type=Path, help="write the medians here (JSON)")
    parser.add_argument("--postgres", action="store_true", help="each gateway on a new PostgreSQL database")
    args = parser.parse_args()
    trees = [t.resolve() for t in (args.tree or [ROOT])]

    domain = start_fixture_domain("gated_domain")
    targets: list[Target] = []
    databases = [new_pg_database() for _ in trees] if args.postgres else [None for _ in trees]
    try:
        httpx.post(f"{domain.url}/gate/open").raise_for_status()
        with tempfile.TemporaryDirectory(prefix="durable-overhead-") as scratch:
            for i, tree in enumerate(trees):
                gateway = start_gateway_from(tree, Path(scratch) / f"t{i}", domain, databases[i])
                targets.append(Target(tree, gateway))
            with httpx.Client(timeout=60) as client:
                for round_ in range(args.warmup + args.runs):
                    for i, target in enumerate(targets):
                        session = f"bench-{i}-{round_}"
                        took_i = interactive(client, target.gateway, f"{session}-i")
                        took_b = background(client, target.gateway, f"{session}-b")
                        if round_ >= args.warmup:
                            target.interactive_ms.append(took_i)
                            target.background_ms.append(took_b)
    finally:
        for target in targets:
            stop_process(target.gateway.proc)
        domain.stop()
        for database in databases:
            if database is not None:
                drop_pg_database(database)

    results = []
    for target in targets:
        inter = statistics.median(target.interactive_ms)
        back = statistics.median(target.background_ms)
        results.append(
            {
                "tree": str(target.tree),
                "database": "postgresql" if args.postgres else "sqlite",
                "runs": len(target.background_ms),
                "interactive_median_ms": round(inter, 2),
                "background_median_ms": round(back, 2),
                "background_overhead_ms": round(back - inter, 2),
                "ratio": round(back / inter, 2),
            }
        )
        print(
            f"{target.tree}: interactive {inter:.2f} ms, background {back:.2f} ms "
            f"(+{back - inter:.2f} ms, {back / inter:.2f}x) over {len(target.background_ms)} runs"
        )
    if args.out is not None:
        args.out.write_text(json.dumps({"load_avg": os.getloadavg(), "results": results}, indent=2) + "\n")


if __name__ == "__main__":
    main()
