"""The DBOS Transact half of the engine spike (``bench/durable/engine_spike.py`` runs it with the
project's interpreter; see there for the scenarios and how to run them).

Modes (one JSON object per stdout line; the driver reads them):

- ``overhead``: launch DBOS, run ``--warmup`` then ``--n`` two-step workflows one after another
  (started directly, or through a queue polled every ``--queue-poll`` s), time each from start to
  result;
- ``worker``: launch DBOS as executor ``--executor-id`` (a process started again with the same id
  recovers that executor's unfinished workflows at launch, as DBOS does without its Conductor),
  optionally start workflow ``--wf-id`` of ``--kind``, then wait for its result;
- ``cancel``: ``--n`` times, start a workflow, cancel it during its first step, and check that its
  second step never runs;
- ``idle``: launch DBOS (and a queue polled every ``--queue-poll`` s), then do nothing until killed.

Each step appends one line per execution to ``--counter`` (a plain file outside the engine), so
the driver counts real executions.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sqlite3
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from dbos import DBOS, DBOSConfig, Queue, SetWorkflowID, WorkflowHandleAsync

#: How long the second step of the ``steps`` workflow works (the window the driver kills in).
SLOW_STEP_S = 3.0
#: The durable sleep of the ``sleep`` workflow.
SLEEP_S = 5.0
#: How long the first step of the ``cancel`` workflow works (the driver cancels during it).
CANCEL_STEP_S = 1.0

_counter: Path | None = None


def emit(event: str, **fields: object) -> None:
    print(json.dumps({"event": event, "t": time.time(), **fields}), flush=True)


def mark(event: str, wf_id: str) -> None:
    """One line per real execution, appended outside the engine (a killed process keeps it)."""
    if _counter is None:
        return
    with _counter.open("a") as f:
        f.write(f"{event} {wf_id} {os.getpid()} {time.time():.6f}\n")


async def trivial(value: int) -> int:
    return value + 1


async def counted(event: str, wf_id: str, work_s: float, value: int) -> int:
    mark(f"{event}-start", wf_id)
    if work_s:
        await asyncio.sleep(work_s)
    mark(f"{event}-end", wf_id)
    return value + 1


@DBOS.workflow(name="spike.two_trivial")
async def two_trivial(value: int) -> int:
    a = await DBOS.run_step_async({"name": "one"}, trivial, value)
    return await DBOS.run_step_async({"name": "two"}, trivial, a)


@DBOS.workflow(name="spike.steps")
async def steps(wf_id: str) -> int:
    a = await DBOS.run_step_async({"name": "step1"}, counted, "step1", wf_id, 0.0, 1)
    return await DBOS.run_step_async({"name": "step2"}, counted, "step2", wf_id, SLOW_STEP_S, a)


@DBOS.workflow(name="spike.sleep")
async def sleeper(wf_id: str) -> int:
    await DBOS.run_step_async({"name": "before"}, counted, "before", wf_id, 0.0, 0)
    await DBOS.sleep_async(SLEEP_S)
    return await DBOS.run_step_async({"name": "after"}, counted, "after", wf_id, 0.0, 1)


@DBOS.workflow(name="spike.cancel")
async def cancellable(wf_id: str) -> int:
    a = await DBOS.run_step_async({"name": "step1"}, counted, "step1", wf_id, CANCEL_STEP_S, 0)
    return await DBOS.run_step_async({"name": "step2"}, counted, "step2", wf_id, 0.0, a)


KINDS: dict[str, Any] = {"steps": steps, "sleep": sleeper, "cancel": cancellable}


def launch(db: str, executor_id: str) -> float:
    """Launch DBOS on ``db``; the seconds it took."""
    if db.startswith("sqlite:///"):
        # WAL, as the gateway's own engine sets it on the file DBOS shares
        with sqlite3.connect(db.removeprefix("sqlite:///")) as conn:
            conn.execute("PRAGMA journal_mode=WAL")
    began = time.perf_counter()
    config: DBOSConfig = {
        "name": "engine-spike",
        "system_database_url": db,
        "executor_id": executor_id,
        "application_version": "spike-1",
        "log_level": "WARNING",
        "run_migrations": True,
    }
    DBOS(config=config)
    DBOS.launch()
    return time.perf_counter() - began


async def queue_of(poll_s: float) -> Queue:
    return await DBOS.register_queue_async("spike", polling_interval_sec=poll_s, on_conflict="always_update")


async def overhead(args: argparse.Namespace) -> None:
    launch_s = launch(args.db, "spike-overhead")
    queue = await queue_of(args.queue_poll) if args.queue_poll else None
    latencies: list[float] = []
    cpu_began = time.process_time()
    for i in range(args.warmup + args.n):
        if i == args.warmup:
            cpu_began = time.process_time()
        began = time.perf_counter()
        if queue is None:
            handle = await DBOS.start_workflow_async(two_trivial, i)
        else:
            handle = await queue.enqueue_async(two_trivial, i)
        assert await handle.get_result(polling_interval_sec=0.005) == i + 2
        if i >= args.warmup:
            latencies.append((time.perf_counter() - began) * 1000)
    cpu_ms = (time.process_time() - cpu_began) * 1000
    emit("overhead", latencies_ms=latencies, cpu_ms_per_workflow=cpu_ms / args.n, launch_ms=launch_s * 1000)
    DBOS.destroy()


async def worker(args: argparse.Namespace) -> None:
    launch_s = launch(args.db, args.executor_id)
    emit("ready", launch_ms=launch_s * 1000)
    if args.start:
        with SetWorkflowID(args.wf_id):
            await DBOS.start_workflow_async(KINDS[args.kind], args.wf_id)
        emit("started")
    handle: WorkflowHandleAsync[int] = await DBOS.retrieve_workflow_async(args.wf_id)
    result = await handle.get_result(polling_interval_sec=0.01)
    emit("done", result=result)
    DBOS.destroy()


def executions(counter: Path, event: str, wf_id: str) -> int:
    if not counter.exists():
        return 0
    return sum(1 for line in counter.read_text().splitlines() if line.split()[:2] == [event, wf_id])


async def counted_once(counter: Path, event: str, wf_id: str) -> None:
    """Wait until ``event`` of ``wf_id`` is in the counter (a step told it started or ended)."""
    deadline = time.monotonic() + 60
    while True:
        if executions(counter, event, wf_id):
            return
        if time.monotonic() > deadline:
            raise TimeoutError(f"{event} of {wf_id} never came")
        await asyncio.sleep(0.005)


async def cancel(args: argparse.Namespace) -> None:
    launch(args.db, "spike-cancel")
    counter = Path(args.counter)
    rows: list[dict[str, Any]] = []
    for i in range(args.n):
        wf_id = f"cancel-{os.getpid()}-{i}"
        with SetWorkflowID(wf_id):
            await DBOS.start_workflow_async(cancellable, wf_id)
        await counted_once(counter, "step1-start", wf_id)
        began = time.perf_counter()
        await DBOS.cancel_workflow_async(wf_id)
        cancel_ms = (time.perf_counter() - began) * 1000
        status = await DBOS.get_workflow_status_async(wf_id)
        # past the end of the step in flight, then as long again: where step 2 would have run
        await counted_once(counter, "step1-end", wf_id)
        await asyncio.sleep(CANCEL_STEP_S)
        final = await DBOS.get_workflow_status_async(wf_id)
        rows.append(
            {
                "cancel_call_ms": cancel_ms,
                "status_after_cancel": status.status if status else None,
                "final_status": final.status if final else None,
                "step1_runs": executions(counter, "step1-start", wf_id),
                "step2_runs": executions(counter, "step2-start", wf_id),
            }
        )
    emit(
        "cancel",
        runs=rows,
        cancel_call_ms_median=statistics.median(r["cancel_call_ms"] for r in rows),
    )
    DBOS.destroy()


async def idle(args: argparse.Namespace) -> None:
    launch(args.db, "spike-idle")
    if args.queue_poll:
        await queue_of(args.queue_poll)
    emit("ready")
    await asyncio.Event().wait()


def main() -> int:
    global _counter
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=["overhead", "worker", "cancel", "idle"])
    parser.add_argument("--db", required=True, help="DBOS's system database URL")
    parser.add_argument("--n", type=int, default=30)
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--queue-poll", type=float, default=0.0, help="0: no queue")
    parser.add_argument("--wf-id", default="")
    parser.add_argument("--kind", choices=sorted(KINDS), default="steps")
    parser.add_argument("--executor-id", default="spike-worker")
    parser.add_argument("--start", action="store_true")
    parser.add_argument("--counter", default="")
    args = parser.parse_args()
    _counter = Path(args.counter) if args.counter else None
    modes = {"overhead": overhead, "worker": worker, "cancel": cancel, "idle": idle}
    asyncio.run(modes[args.mode](args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
