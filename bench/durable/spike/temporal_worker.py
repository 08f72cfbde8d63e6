"""The Temporal half of the engine spike, run by the Temporal venv's interpreter (``temporalio`` is
not a dependency of the project; ``bench/durable/engine_spike.py`` makes that venv and runs this).

Same modes, workflows and output as ``dbos_worker.py`` (one JSON object per stdout line), against
a Temporal server at ``--address``; every workflow runs on the task queue ``spike``, each step is
an activity:

- ``overhead``: a worker and a client in this process; ``--warmup`` then ``--n`` two-activity
  workflows one after another, each timed from ``start_workflow`` to its result;
- ``worker``: a worker on the task queue (optionally starting workflow ``--wf-id`` first), then
  wait for the workflow's result. A killed worker's workflow goes on in any other worker of the
  task queue: the server retries an activity whose heartbeats stop (``SLOW_HEARTBEAT_TIMEOUT``)
  and hands workflow tasks of a dead worker's sticky queue to the normal one after the sticky
  schedule-to-start timeout (the SDK's default; ``--no-sticky``: a worker without workflow cache,
  so every workflow task goes to the task queue and is replayed from the history);
- ``cancel``: ``--n`` times, start a workflow, cancel it during its first activity, and check that
  its second activity never runs;
- ``idle``: a worker polling the task queue, doing nothing until killed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import time
import uuid
from datetime import timedelta
from pathlib import Path
from typing import Any

from temporalio import activity, workflow
from temporalio.client import Client, WorkflowExecutionStatus
from temporalio.worker import Worker

TASK_QUEUE = "spike"
SLOW_STEP_S = 3.0
SLEEP_S = 5.0
CANCEL_STEP_S = 1.0
#: The slow activity heartbeats twice a second; the server retries it once this passes without one.
SLOW_HEARTBEAT_TIMEOUT = timedelta(seconds=2)
STEP_TIMEOUT = timedelta(seconds=30)

_counter: Path | None = None
#: ``--no-sticky``: no workflow cache, hence no sticky queue (every workflow task on the task queue).
_no_sticky = False


def emit(event: str, **fields: object) -> None:
    print(json.dumps({"event": event, "t": time.time(), **fields}), flush=True)


def mark(event: str, wf_id: str) -> None:
    if _counter is None:
        return
    with _counter.open("a") as f:
        f.write(f"{event} {wf_id} {os.getpid()} {time.time():.6f}\n")


@activity.defn(name="trivial")
async def trivial(value: int) -> int:
    return value + 1


@activity.defn(name="counted")
async def counted(event: str, wf_id: str, work_s: float, value: int) -> int:
    mark(f"{event}-start", wf_id)
    end = time.monotonic() + work_s
    while time.monotonic() < end:
        activity.heartbeat()
        await asyncio.sleep(min(0.5, max(0.0, end - time.monotonic())))
    mark(f"{event}-end", wf_id)
    return value + 1


@workflow.defn(name="spike.two_trivial")
class TwoTrivial:
    @workflow.run
    async def run(self, value: int) -> int:
        a = await workflow.execute_activity(trivial, value, start_to_close_timeout=STEP_TIMEOUT)
        return await workflow.execute_activity(trivial, a, start_to_close_timeout=STEP_TIMEOUT)


@workflow.defn(name="spike.steps")
class Steps:
    @workflow.run
    async def run(self, wf_id: str) -> int:
        a = await workflow.execute_activity(
            counted, args=["step1", wf_id, 0.0, 1], start_to_close_timeout=STEP_TIMEOUT
        )
        return await workflow.execute_activity(
            counted,
            args=["step2", wf_id, SLOW_STEP_S, a],
            start_to_close_timeout=STEP_TIMEOUT,
            heartbeat_timeout=SLOW_HEARTBEAT_TIMEOUT,
        )


@workflow.defn(name="spike.sleep")
class Sleeper:
    @workflow.run
    async def run(self, wf_id: str) -> int:
        await workflow.execute_activity(
            counted, args=["before", wf_id, 0.0, 0], start_to_close_timeout=STEP_TIMEOUT
        )
        await workflow.sleep(SLEEP_S)
        return await workflow.execute_activity(
            counted, args=["after", wf_id, 0.0, 1], start_to_close_timeout=STEP_TIMEOUT
        )


@workflow.defn(name="spike.cancel")
class Cancellable:
    @workflow.run
    async def run(self, wf_id: str) -> int:
        a = await workflow.execute_activity(
            counted, args=["step1", wf_id, CANCEL_STEP_S, 0], start_to_close_timeout=STEP_TIMEOUT
        )
        return await workflow.execute_activity(
            counted, args=["step2", wf_id, 0.0, a], start_to_close_timeout=STEP_TIMEOUT
        )


KINDS: dict[str, Any] = {"steps": Steps, "sleep": Sleeper, "cancel": Cancellable}


def new_worker(client: Client) -> Worker:
    return Worker(
        client,
        task_queue=TASK_QUEUE,
        workflows=[TwoTrivial, Steps, Sleeper, Cancellable],
        activities=[trivial, counted],
        **({"max_cached_workflows": 0} if _no_sticky else {}),
    )


async def overhead(args: argparse.Namespace) -> None:
    began = time.perf_counter()
    client = await Client.connect(args.address)
    async with new_worker(client):
        launch_s = time.perf_counter() - began
        latencies: list[float] = []
        cpu_began = time.process_time()
        run = uuid.uuid4().hex[:8]
        for i in range(args.warmup + args.n):
            if i == args.warmup:
                cpu_began = time.process_time()
            began = time.perf_counter()
            handle = await client.start_workflow(
                TwoTrivial.run, i, id=f"overhead-{run}-{i}", task_queue=TASK_QUEUE
            )
            assert await handle.result() == i + 2
            if i >= args.warmup:
                latencies.append((time.perf_counter() - began) * 1000)
        cpu_ms = (time.process_time() - cpu_began) * 1000
    emit("overhead", latencies_ms=latencies, cpu_ms_per_workflow=cpu_ms / args.n, launch_ms=launch_s * 1000)


async def worker(args: argparse.Namespace) -> None:
    began = time.perf_counter()
    client = await Client.connect(args.address)
    async with new_worker(client):
        emit("ready", launch_ms=(time.perf_counter() - began) * 1000)
        if args.start:
            await client.start_workflow(
                KINDS[args.kind].run, args.wf_id, id=args.wf_id, task_queue=TASK_QUEUE
            )
            emit("started")
        result = await client.get_workflow_handle(args.wf_id).result()
        emit("done", result=result)


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
    client = await Client.connect(args.address)
    counter = Path(args.counter)
    rows: list[dict[str, Any]] = []
    async with new_worker(client):
        for i in range(args.n):
            wf_id = f"cancel-{os.getpid()}-{i}"
            handle = await client.start_workflow(Cancellable.run, wf_id, id=wf_id, task_queue=TASK_QUEUE)
            await counted_once(counter, "step1-start", wf_id)
            began = time.perf_counter()
            await handle.cancel()
            cancel_ms = (time.perf_counter() - began) * 1000
            status = (await handle.describe()).status
            await counted_once(counter, "step1-end", wf_id)
            await asyncio.sleep(CANCEL_STEP_S)
            final = (await handle.describe()).status
            rows.append(
                {
                    "cancel_call_ms": cancel_ms,
                    "status_after_cancel": status.name if status else None,
                    "final_status": final.name if final else None,
                    "step1_runs": executions(counter, "step1-start", wf_id),
                    "step2_runs": executions(counter, "step2-start", wf_id),
                }
            )
    assert all(r["final_status"] == WorkflowExecutionStatus.CANCELED.name for r in rows), rows
    emit("cancel", runs=rows, cancel_call_ms_median=statistics.median(r["cancel_call_ms"] for r in rows))


async def idle(args: argparse.Namespace) -> None:
    client = await Client.connect(args.address)
    async with new_worker(client):
        emit("ready")
        await asyncio.Event().wait()


def main() -> int:
    global _counter, _no_sticky
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=["overhead", "worker", "cancel", "idle"])
    parser.add_argument("--address", required=True, help="the Temporal server's host:port")
    parser.add_argument("--n", type=int, default=30)
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--wf-id", default="")
    parser.add_argument("--kind", choices=sorted(KINDS), default="steps")
    parser.add_argument("--start", action="store_true")
    parser.add_argument("--counter", default="")
    parser.add_argument("--no-sticky", action="store_true", help="a worker without workflow cache")
    args = parser.parse_args()
    _no_sticky = args.no_sticky
    _counter = Path(args.counter) if args.counter else None
    modes = {"overhead": overhead, "worker": worker, "cancel": cancel, "idle": idle}
    asyncio.run(modes[args.mode](args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
