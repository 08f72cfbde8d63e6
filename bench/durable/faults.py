"""The fault bench of issue 23: background runs on the durable engine under faults, real processes.

Three gateways on one PostgreSQL database and one Redis, behind a real nginx; the notifier (its
outbox keyed by ``Idempotency-Key``); ``tests/fixtures/counting_domain.py`` with the notifier as
its follow-up, so every run is two steps: a slow ledger post (``--step-s``) that counts each real
execution in a SQLite file, then a notification. ``--runs`` background runs are sent through nginx
(each with an ``Idempotency-Key``, resent on a 502/503/409 or a broken connection), and meanwhile:

- three times, the gateway running the most runs is SIGKILLed mid-step and started again on its
  port (a new executor id); the time until every workflow it held was resumed by a survivor is the
  takeover time;
- after the first kill, Redis is emptied (``FLUSHALL``: "Redis restarted empty");
- after the second, the notifier is SIGKILLed and started again on its port.

With ``--sqlite``: one gateway on a SQLite file, reached directly, no Redis (the kills as above;
the notifier is killed once the gateway killed second is back, and started again a post's length
later, so a notification meets the outage).
Then every accepted run is read until final. Pass: every run final, no run stuck, 0 ledger posts
executed twice, 0 duplicate notifications, 0 runs completed without their notification (the
notifier's outage is waited out: a background step whose domain cannot be reached is retried,
``BACKGROUND_UNDELIVERED_RETRY_S``). Results go to ``--out`` (JSON) and stdout.

    CI=true .venv/bin/python bench/durable/faults.py --out bench/results/durable_faults.json
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import asyncpg
import httpx
from redis.asyncio import Redis

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.conftest import (  # noqa: E402  (the repository's root is put on the path above)
    PG_ADMIN_URL,
    REDIS_TEST_URL,
    Process,
    free_port,
    start_domain,
    start_gateway,
    start_service,
    write_bootstrap,
)
from tests.nginx_proxy import nginx_binary, nginx_over  # noqa: E402

UNFINISHED = {"queued", "executing"}
TEXT = "post the ledger batch"


@dataclass
class Kill:
    executor: str
    at: float
    pending_at_kill: int
    takeover_s: float | None = None


@dataclass
class Bench:
    db_url: str
    env: dict[str, str]
    gateways: list[Process]
    executors: list[str]
    ports: list[int]
    #: the ledger posts started before each of the three kills
    kill_after_posts: tuple[int, int, int]
    accepted: dict[str, str] = field(default_factory=dict)  # idempotency key -> run id
    resends: int = 0
    kills: list[Kill] = field(default_factory=list)
    events: list[str] = field(default_factory=list)
    step_s: float = 0.0
    #: when the notifier was killed and when it answered again (epoch seconds)
    notifier_down: tuple[float, float] | None = None


def asyncpg_dsn(url: str) -> str:
    return url.replace("postgresql+asyncpg://", "postgresql://")


_PENDING_SQLITE = (
    "SELECT executor_id, count(*) FROM workflow_status "
    "WHERE status = 'PENDING' AND workflow_uuid LIKE 'bg:%' GROUP BY executor_id"
)


async def pending_by_executor(db_url: str) -> Counter[str]:
    """Background workflows ``PENDING`` per executor (the engine's own record)."""
    if db_url.startswith("sqlite"):
        path = db_url.split(":///", 1)[1]

        def read() -> Counter[str]:
            with contextlib.closing(sqlite3.connect(path, timeout=30)) as conn:
                return Counter({e: n for e, n in conn.execute(_PENDING_SQLITE).fetchall()})

        return await asyncio.to_thread(read)
    conn = await asyncpg.connect(asyncpg_dsn(db_url))
    try:
        rows = await conn.fetch(
            "SELECT executor_id, count(*) AS n FROM dbos.workflow_status "
            "WHERE status = 'PENDING' AND workflow_uuid LIKE 'bg:%' GROUP BY executor_id"
        )
    finally:
        await conn.close()
    return Counter({r["executor_id"]: r["n"] for r in rows})


async def submit_all(bench: Bench, proxy_url: str, runs: int) -> None:
    async with httpx.AsyncClient(timeout=30) as client:

        async def one(i: int) -> None:
            key = f"fault-{uuid.uuid4().hex[:12]}"
            body = {"input_text": TEXT, "session_id": f"fault-{i}", "background": True, "domain": "ledger"}
            deadline = time.monotonic() + 300
            while time.monotonic() < deadline:
                try:
                    answer = await client.post(
                        f"{proxy_url}/v1/runs", json=body, headers={"Idempotency-Key": key}
                    )
                except httpx.HTTPError:
                    answer = None
                if answer is not None and answer.status_code == 202:
                    bench.accepted[key] = answer.json()["run_id"]
                    return
                bench.resends += 1
                await asyncio.sleep(0.5)
            raise RuntimeError(f"run {i} never accepted")

        await asyncio.gather(*(one(i) for i in range(runs)))


async def kill_busiest(bench: Bench, generation: int) -> Kill | None:
    """SIGKILL the gateway running the most background runs (``None`` if none runs any for 60 s)."""
    deadline = time.monotonic() + 60
    while True:
        pending = await pending_by_executor(bench.db_url)
        live = {e: n for e, n in pending.items() if e in bench.executors}
        if live:
            break
        if time.monotonic() > deadline:
            bench.events.append(f"{time.strftime('%H:%M:%S')} kill {generation} skipped: no run in flight")
            return None
        await asyncio.sleep(0.2)
    executor = max(live, key=lambda e: live[e])
    index = bench.executors.index(executor)
    bench.gateways[index].stop(sig="kill")
    kill = Kill(executor, time.time(), live[executor])
    bench.kills.append(kill)
    bench.events.append(f"{time.strftime('%H:%M:%S')} SIGKILL {executor} ({live[executor]} runs in flight)")
    # not a candidate again until restarted (its runs are the survivors' to take over)
    bench.executors[index] = f"bench-gw{index}-g{generation}"
    return kill


async def restart(bench: Bench, index: int) -> None:
    """The killed gateway ``index``, started again on its port (nginx's upstream) as a new executor."""
    env = {**bench.env, "DURABLE_EXECUTOR_ID": bench.executors[index]}
    bench.gateways[index] = await asyncio.to_thread(start_gateway, env, bench.ports[index])
    bench.events.append(f"{time.strftime('%H:%M:%S')} {bench.executors[index]} started on its port")


async def watch_takeover(bench: Bench, kill: Kill) -> None:
    while True:
        if (await pending_by_executor(bench.db_url)).get(kill.executor, 0) == 0:
            kill.takeover_s = time.time() - kill.at
            return
        await asyncio.sleep(0.1)


async def wait_posts(ledger: Process, count: int) -> None:
    async with httpx.AsyncClient(timeout=10) as client:
        while True:
            if len((await client.get(f"{ledger.url}/executions")).json()["executions"]) >= count:
                return
            await asyncio.sleep(0.2)


async def faults(bench: Bench, ledger: Process, notifier: Process, notifier_env: dict[str, str]) -> Process:
    watchers = []
    for generation, posts in zip((1, 2, 3), bench.kill_after_posts, strict=True):
        await wait_posts(ledger, posts)
        kill = await kill_busiest(bench, generation)
        if kill is not None:
            watchers.append(asyncio.create_task(watch_takeover(bench, kill)))
            index = int(kill.executor.split("-")[1].removeprefix("gw"))
            watchers.append(asyncio.create_task(restart(bench, index)))
        if generation == 1 and bench.env["REDIS_URL"]:
            redis = Redis.from_url(bench.env["REDIS_URL"])
            await redis.flushall()
            await redis.aclose()
            bench.events.append(f"{time.strftime('%H:%M:%S')} Redis FLUSHALL")
        if generation == 2:
            if len(bench.gateways) == 1 and kill is not None:
                # one gateway: nothing runs while it is down, so the notifier goes down once it is
                # back, and stays down until one of its runs has finished its post (its
                # notification is then due while the notifier is down)
                await watchers[-1]
            port = int(notifier.url.rsplit(":", 1)[1])
            notifier.stop(sig="kill")
            down_at = time.time()
            bench.events.append(f"{time.strftime('%H:%M:%S')} notifier SIGKILL")
            if len(bench.gateways) == 1 and kill is not None:
                # the fault's length (not a wait for readiness): longer than a post, so a
                # resumed run's notification falls in it
                await asyncio.sleep(bench.step_s + 1)
            notifier = await asyncio.to_thread(start_domain, "notifier", notifier_env, port)
            bench.notifier_down = (down_at, time.time())
            bench.events.append(f"{time.strftime('%H:%M:%S')} notifier back")
    await asyncio.wait_for(asyncio.gather(*watchers), 300)
    return notifier


async def final_statuses(bench: Bench, proxy_url: str, timeout_s: float) -> dict[str, dict[str, Any]]:
    runs: dict[str, dict[str, Any]] = {}
    deadline = time.monotonic() + timeout_s
    async with httpx.AsyncClient(timeout=30) as client:
        while True:
            for run_id in bench.accepted.values():
                if run_id in runs and runs[run_id]["status"] not in UNFINISHED:
                    continue
                try:
                    answer = await client.get(f"{proxy_url}/v1/runs/{run_id}")
                except httpx.HTTPError:
                    continue
                if answer.status_code == 200:
                    runs[run_id] = answer.json()
            if all(r.get("status") not in UNFINISHED for r in runs.values()) and len(runs) == len(
                bench.accepted
            ):
                return runs
            if time.monotonic() > deadline:
                return runs
            await asyncio.sleep(0.5)


async def run(args: argparse.Namespace) -> dict[str, Any]:
    binary = nginx_binary()
    if binary is None and not args.sqlite:
        raise SystemExit("nginx is needed (Debian package nginx)")
    work = Path(tempfile.mkdtemp(prefix="durable-faults-"))
    name = f"faults_{uuid.uuid4().hex[:8]}"
    if args.sqlite:
        db_url = f"sqlite+aiosqlite:///{work / 'gateway.sqlite3'}"
    else:
        admin = await asyncpg.connect(PG_ADMIN_URL, timeout=5)
        await admin.execute(f'CREATE DATABASE "{name}"')
        await admin.close()
        db_url = f"{PG_ADMIN_URL.rsplit('/', 1)[0]}/{name}".replace("postgresql://", "postgresql+asyncpg://")
    started: list[Process] = []
    bench: Bench | None = None
    try:
        notifier_env = {"NOTIFIER_OUTBOX_PATH": str(work / "outbox.sqlite3"), "TELEGRAM_BOT_TOKEN": ""}
        notifier = start_domain("notifier", notifier_env, free_port())
        started.append(notifier)
        ledger_env = {
            "COUNTING_DB": str(work / "executions.sqlite3"),
            "COUNTING_STEP_S": str(args.step_s),
            "COUNTING_FOLLOWUP_ROLE": "notifier",
        }
        ledger = start_service(
            "counting_domain", [str(ROOT / "tests/fixtures/counting_domain.py")], ledger_env, None
        )
        started.append(ledger)
        bootstrap = write_bootstrap(work / "bootstrap.json", {"ledger": ledger.url, "notifier": notifier.url})
        env = {
            "DATABASE_URL": db_url,
            "REDIS_URL": "" if args.sqlite else REDIS_TEST_URL,
            "BOOTSTRAP_FILE": str(bootstrap),
            "API_KEYS": "",
            "ADMIN_TOKEN": "bench-admin",
            "DOMAIN_TIMEOUT_S": "60",
            "BACKGROUND_WORKERS": str(args.workers),
            "DURABLE_LIVENESS_LEASE_S": str(args.lease_s),
            "DURABLE_RECOVERY_INTERVAL_S": str(args.recovery_s),
        }
        count = 1 if args.sqlite else 3
        ports = [free_port() for _ in range(count)]
        executors = [f"bench-gw{i}-g0" for i in range(count)]
        gateways = []
        for i in range(count):
            gateways.append(start_gateway({**env, "DURABLE_EXECUTOR_ID": executors[i]}, ports[i]))
        quarter = max(1, args.runs // 4)
        kills_at = (quarter // 2, quarter * 3 // 2, quarter * 5 // 2)
        bench = Bench(db_url, env, gateways, executors, ports, kills_at, step_s=args.step_s)
        started_at = time.monotonic()
        with contextlib.ExitStack() as stack:
            # one gateway on SQLite is reached directly (restarted on its port)
            front = gateways[0].url if binary is None or args.sqlite else None
            if front is None:
                assert binary is not None
                front = stack.enter_context(nginx_over(binary, [g.url for g in gateways], work / "nginx")).url
            fault_task = asyncio.create_task(faults(bench, ledger, notifier, notifier_env))
            await submit_all(bench, front, args.runs)
            notifier = await fault_task
            started[0] = notifier
            runs = await final_statuses(bench, front, args.timeout_s)
        elapsed = time.monotonic() - started_at
        async with httpx.AsyncClient(timeout=30) as client:
            seen = (await client.get(f"{ledger.url}/executions")).json()
            outbox = (await client.get(f"{notifier.url}/outbox")).json()["messages"]
        return report(bench, runs, seen, outbox, elapsed, args)
    finally:
        for process in started:
            process.stop()
        if bench is not None:
            for gateway in bench.gateways:
                gateway.stop(sig="kill")
        if not args.sqlite:
            admin = await asyncpg.connect(PG_ADMIN_URL, timeout=5)
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            await admin.close()
        shutil.rmtree(work, ignore_errors=True)


def report(
    bench: Bench,
    runs: dict[str, dict[str, Any]],
    seen: dict[str, Any],
    outbox: list[dict[str, Any]],
    elapsed: float,
    args: argparse.Namespace,
) -> dict[str, Any]:
    run_ids = set(bench.accepted.values())
    statuses = Counter(r["status"] for r in runs.values())
    stuck = sorted(r for r in run_ids if runs.get(r, {}).get("status", "queued") in UNFINISHED)
    posts = Counter(e["key"] for e in seen["executions"] if e["capability"] == "post_ledger_batch")
    posted_twice = {k: n for k, n in posts.items() if n > 1}
    sent = Counter((m.get("idempotency_key") or "").rsplit(":", 1)[0] for m in outbox)
    notified_twice = {k: n for k, n in sent.items() if n > 1 and k in run_ids}
    not_notified = sorted(
        r
        for r, trace in runs.items()
        if trace.get("status") == "completed"
        and not any(
            s["capability"] == "send_telegram_message" and s["status"] == "completed" for s in trace["steps"]
        )
    )
    # notification steps that began while the notifier was down: each had to wait for it
    down_from, back_at = bench.notifier_down or (0.0, 0.0)
    began_while_down = sorted(
        r
        for r, trace in runs.items()
        for s in trace.get("steps", [])
        if s["capability"] == "send_telegram_message"
        and s.get("started_at")
        and down_from <= datetime.fromisoformat(s["started_at"]).timestamp() <= back_at
    )
    takeovers = [k.takeover_s for k in bench.kills if k.takeover_s is not None]
    result = {
        "runs": args.runs,
        "accepted": len(run_ids),
        "resends": bench.resends,
        "statuses": dict(statuses),
        "stuck": stuck,
        "posts_executed_twice": posted_twice,
        "notifications_twice": notified_twice,
        "completed_without_notification": not_notified,
        "notifier_down_s": round(back_at - down_from, 1) if bench.notifier_down else None,
        "notifications_begun_while_notifier_down": began_while_down,
        "kills": [
            {"executor": k.executor, "runs_in_flight": k.pending_at_kill, "takeover_s": k.takeover_s}
            for k in bench.kills
        ],
        "takeover_median_s": statistics.median(takeovers) if takeovers else None,
        "events": bench.events,
        "elapsed_s": round(elapsed, 1),
        "settings": {
            "database": "sqlite, one gateway" if args.sqlite else "postgresql, three gateways behind nginx",
            "step_s": args.step_s,
            "lease_s": args.lease_s,
            "recovery_s": args.recovery_s,
            "workers": args.workers,
        },
        "load_avg": os.getloadavg(),
        "pass": not stuck
        and statuses.get("completed", 0) == len(run_ids)
        and not posted_twice
        and not notified_twice
        and not not_notified
        and len(runs) == len(run_ids),
    }
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--step-s", type=float, default=6.0, help="the slow ledger step's duration")
    parser.add_argument("--lease-s", type=float, default=5.0, help="DURABLE_LIVENESS_LEASE_S")
    parser.add_argument("--recovery-s", type=float, default=1.0, help="DURABLE_RECOVERY_INTERVAL_S")
    parser.add_argument("--workers", type=int, default=2, help="BACKGROUND_WORKERS per gateway")
    parser.add_argument("--timeout-s", type=float, default=600.0, help="how long runs may take to end")
    parser.add_argument("--sqlite", action="store_true", help="one gateway on SQLite (no nginx, no Redis)")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    result = asyncio.run(run(args))
    print(json.dumps(result, indent=2))
    if args.out is not None:
        args.out.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
