"""The SQL statements a PostgreSQL gateway sends per turn, counted from the server's own log.

Command (from the repo root; PostgreSQL and Redis on this machine, its log readable):
    .venv/bin/python bench/pg_round_trips.py [--turns 40] [--tree PATH] [--log FILE]

Starts finance, general and a gateway (of this tree, or of ``--tree``: another checkout run on
this venv) on a fresh database with ``log_statement = 'all'`` set on that database only, runs
warm-up turns and then ``--turns`` turns of one session at one client, and prints per turn each
statement the server logged for the gateway's database (every one is a round trip) and the Redis
commands the gateway sent (``MONITOR`` on its database; the commands its scripts run inside Redis
are left out). Background work on the same database (DBOS's queue and
schedule polls, the liveness lease) lands in the same window: its statements are listed too, and
tell themselves apart by their tables.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import re
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.turn_cpu import QUERY, REDIS_URL, WORK, _gateway_env, _pg, _start, pg_database  # noqa: E402
from tests.conftest import write_bootstrap  # noqa: E402

WARMUP_TURNS = 5


def _statement(line: str) -> str | None:
    """The SQL of a logged simple query or prepared-statement execution, whitespace folded."""
    if "statement: " in line:
        sql = line.split("statement: ", 1)[1]
    elif "execute " in line and ": " in line.split("execute ", 1)[1]:
        sql = line.split("execute ", 1)[1].split(": ", 1)[1]
    else:
        return None
    return re.sub(r"\s+", " ", sql).strip()[:70]


def _wait_for(found: Callable[[], bool], what: str, timeout_s: float = 30.0) -> None:
    deadline = time.monotonic() + timeout_s
    delay = 0.01
    while not found():
        if time.monotonic() > deadline:
            raise TimeoutError(what)
        time.sleep(delay)
        delay = min(delay * 2, 0.2)


def count(tree: Path, turns: int, log: Path) -> tuple[collections.Counter[str], collections.Counter[str]]:
    with ExitStack() as stack:
        WORK.mkdir(parents=True, exist_ok=True)
        work = Path(tempfile.mkdtemp())
        stack.callback(shutil.rmtree, work, ignore_errors=True)
        finance = _start(stack, "finance", ["-m", "domains.finance", "--host", "127.0.0.1"])
        general = _start(stack, "general", ["-m", "domains.general", "--host", "127.0.0.1"])
        bootstrap = write_bootstrap(work / "bootstrap.json", {"finance": finance.url, "general": general.url})
        url = stack.enter_context(pg_database())
        database = url.rsplit("/", 1)[1]
        asyncio.run(_pg(f"ALTER DATABASE \"{database}\" SET log_statement = 'all'"))
        env = _gateway_env(bootstrap, url, REDIS_URL)
        gateway = _start(stack, "rt_gateway", ["-m", "gateway"], env, tree=tree)
        body = {"model": "orchestrator", "messages": [{"role": "user", "content": QUERY}]}
        headers = {"X-Session-Id": f"rt-{uuid.uuid4().hex[:8]}"}
        redis_db = REDIS_URL.rsplit("/", 1)[1]
        marker = f"rt_end_{uuid.uuid4().hex[:8]}"
        with httpx.Client(timeout=60) as client:

            def turn() -> None:
                client.post(
                    f"{gateway.url}/v1/chat/completions", json=body, headers=headers
                ).raise_for_status()

            for _ in range(WARMUP_TURNS):
                turn()
            start = log.stat().st_size
            monitor_out = work / "monitor.txt"
            with monitor_out.open("w") as out:
                monitor = subprocess.Popen(["redis-cli", "-n", redis_db, "monitor"], stdout=out)
                try:
                    _wait_for(lambda: monitor_out.read_text().startswith("OK"), "redis-cli monitor")
                    for _ in range(turns):
                        turn()
                    # a statement of our own, logged after every one of the turns'
                    asyncio.run(_pg_on(url, f"SELECT '{marker}'"))
                    _wait_for(lambda: marker in _tail(log, start), "the server's log")
                finally:
                    monitor.terminate()
                    monitor.wait()
        lines = _tail(log, start).split(marker, 1)[0].splitlines()
        sql = collections.Counter(
            s for line in lines if f"@{database} " in line and (s := _statement(line)) is not None
        )
        # a client's commands (round trips), not those its scripts run inside Redis ("[db lua]")
        redis = collections.Counter(
            line.split('"')[1].upper()
            for line in monitor_out.read_text().splitlines()
            if '"' in line and " lua]" not in line
        )
        return sql, redis


def _tail(log: Path, start: int) -> str:
    with log.open("rb") as f:
        f.seek(start)
        return f.read().decode(errors="replace")


async def _pg_on(url: str, statement: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(url.replace("postgresql+asyncpg://", "postgresql://"), timeout=5)
    try:
        await conn.execute(statement)
    finally:
        await conn.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=40)
    parser.add_argument("--tree", type=Path, default=ROOT)
    parser.add_argument("--log", type=Path, default=Path("/var/log/postgresql/postgresql-15-main.log"))
    args = parser.parse_args()
    sql, redis = count(args.tree, args.turns, args.log)
    per_turn = sum(sql.values()) / args.turns
    print(f"PostgreSQL statements per turn (the gateway's database, background included): {per_turn:.2f}")
    for statement, n in sql.most_common():
        print(f"  {n / args.turns:6.2f}  {statement}")
    print(f"Redis commands per turn (round trips): {sum(redis.values()) / args.turns:.2f}")
    for command, n in redis.most_common():
        print(f"  {n / args.turns:6.2f}  {command}")


if __name__ == "__main__":
    main()
