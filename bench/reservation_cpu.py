"""CPU of one run reservation (``RunStore.reserve_run``, written before a turn's first domain
call) on a SQLite file: through the store's own async engine (aiosqlite) beside through the SQLite
checkpointer's thread (``through=``, what the turn does), interleaved in one process.

Command (from the repo root):
    .venv/bin/python bench/reservation_cpu.py [--calls 300] [--rounds 6]

Prints the median CPU (user + system of the whole process, every thread) per reservation of each
way over ``--rounds`` alternating blocks of ``--calls`` reservations. Process CPU rather than wall
time: the machine is shared, and a neighbour's load moves wall times far more than CPU.
"""

from __future__ import annotations

import argparse
import asyncio
import resource
import statistics
import sys
import tempfile
import uuid
from pathlib import Path
from typing import cast

from sqlalchemy import Table

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gateway.storage.runs import RunStore  # noqa: E402
from gateway.storage.tables import RunRow, SessionRow  # noqa: E402
from graph import Checkpointer  # noqa: E402
from graph.sqlite_checkpoint import SqliteCheckpointer  # noqa: E402
from shared.clock import utcnow  # noqa: E402
from shared.db import Base, create_engine  # noqa: E402
from shared.models import RunResult  # noqa: E402
from shared.status import RunStatus  # noqa: E402


def process_cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def reservations_us(store: RunStore, through: Checkpointer | None, calls: int) -> float:
    """CPU µs per reservation over ``calls`` reservations of new runs."""
    started = process_cpu_s()
    for _ in range(calls):
        run = RunResult(
            run_id=f"run-{uuid.uuid4().hex}", session_id="s1", status=RunStatus.EXECUTING, created_at=utcnow()
        )
        await store.reserve_run(run, input_text="cotação da Vale", through=through)
    return (process_cpu_s() - started) * 1e6 / calls


async def measure(folder: Path, calls: int, rounds: int) -> dict[str, list[float]]:
    url = f"sqlite+aiosqlite:///{folder / 'gateway.sqlite3'}"
    engine = create_engine(url)
    tables = [cast(Table, SessionRow.__table__), cast(Table, RunRow.__table__)]
    async with engine.begin() as conn:
        await conn.run_sync(lambda sync: Base.metadata.create_all(sync, tables=tables))
    store = RunStore(engine)
    checkpointer = SqliteCheckpointer(url)
    await store.claim_session("s1", "bench")
    ways: dict[str, Checkpointer | None] = {
        "store engine (aiosqlite)": None,
        "checkpointer thread": checkpointer,
    }
    found: dict[str, list[float]] = {name: [] for name in ways}
    try:
        for through in ways.values():  # connections, statement cache
            await reservations_us(store, through, calls)
        for r in range(rounds):
            order = list(ways.items()) if r % 2 else list(reversed(ways.items()))
            for name, through in order:
                found[name].append(await reservations_us(store, through, calls))
    finally:
        await checkpointer.close()
        await engine.dispose()
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=6)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        found = asyncio.run(measure(Path(folder), args.calls, args.rounds))
    for name, values in found.items():
        print(f"{name}: median {statistics.median(values):.0f} µs CPU per reservation ({len(values)} blocks)")


if __name__ == "__main__":
    main()
