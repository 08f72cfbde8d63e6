"""Finding 11: background runs. Every ``background: true`` request started its turn at once, so a
burst of them starved the server; and a 202'd run was only stored once its turn ended, so one that
gave up waiting for its session's lock answered 404 forever. Now a fixed number of workers takes
the runs from a bounded queue: a full queue is refused at once (503 with ``Retry-After``, nothing
recorded), and an accepted run is recorded ``queued`` before its 202, then ``executing``, then its
final status (``failed`` with the reason when it could not run).

Real gateway processes with two workers and two places in the queue: over a domain whose capability
never answers in time (each run takes a few seconds, then fails), and over one that holds every call
until the test opens its gate (so a burst is admitted while nothing can end). Background runs are durable
workflows (gateway/durable/): a gateway that stops hands its unfinished runs to the next one.
"""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.conftest import Process, gateway_over, start_fixture_domain

pytestmark = pytest.mark.integration

WORKERS = 2
QUEUE_MAX = 2
SLOW_TEXT = "reconcilia o inventário"
UNFINISHED = ("queued", "executing")


@pytest.fixture(scope="module")
def gateway(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Process]:
    slow = start_fixture_domain("slow_domain")
    env = {
        "BACKGROUND_WORKERS": str(WORKERS),
        "BACKGROUND_QUEUE_MAX": str(QUEUE_MAX),
        # a run's domain call is cut after 2 s (twice): a run takes a few seconds, then fails
        "DOMAIN_TIMEOUT_MAX_S": "2",
        "BREAKER_THRESHOLD": "1000",
        "SESSION_LOCK_WAIT_S": "1",
    }
    try:
        with gateway_over({"slowpoke": slow}, tmp_path_factory.mktemp("background"), env) as process:
            yield process
    finally:
        slow.stop()


def new_session() -> str:
    return f"bg-{uuid.uuid4().hex[:10]}"


def body(session: str) -> dict[str, Any]:
    return {"input_text": SLOW_TEXT, "background": True, "session_id": session}


def run_of(gateway: Process, run_id: str) -> dict[str, Any]:
    response = httpx.get(f"{gateway.url}/v1/runs/{run_id}", timeout=10)
    assert response.status_code == 200, f"run {run_id}: {response.status_code} {response.text}"
    run: dict[str, Any] = response.json()
    return run


def wait_status(gateway: Process, run_id: str, done: tuple[str, ...] | None = None) -> dict[str, Any]:
    """Poll the run (findable on every read) until its status is in ``done`` (default: final)."""
    deadline = time.monotonic() + 60
    delay = 0.05
    while True:
        run = run_of(gateway, run_id)
        if (run["status"] in done) if done else (run["status"] not in UNFINISHED):
            return run
        assert time.monotonic() < deadline, run
        time.sleep(delay)
        delay = min(delay * 1.5, 0.5)


@pytest.fixture(scope="module")
def gated_gateway(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Process, Process]]:
    """A gateway over a domain that holds every call until the test opens its gate, so no run
    ends while a burst is being admitted, however slow the machine."""
    gated = start_fixture_domain("gated_domain")
    env = {
        "BACKGROUND_WORKERS": str(WORKERS),
        "BACKGROUND_QUEUE_MAX": str(QUEUE_MAX),
        "DOMAIN_TIMEOUT_S": "60",
    }
    try:
        with gateway_over({"gated": gated}, tmp_path_factory.mktemp("burst"), env) as process:
            yield process, gated
    finally:
        gated.stop()


EXPORT = {"input_text": "export the quarterly sales report", "background": True, "domain": "gated"}


async def burst(gateway: Process, count: int) -> list[httpx.Response]:
    async with httpx.AsyncClient(timeout=30) as client:
        return list(
            await asyncio.gather(
                *(
                    client.post(f"{gateway.url}/v1/runs", json={**EXPORT, "session_id": new_session()})
                    for _ in range(count)
                )
            )
        )


def test_a_burst_fills_the_queue_and_the_rest_is_refused_before_anything_runs(
    gated_gateway: tuple[Process, Process],
) -> None:
    gateway, gated = gated_gateway
    try:
        responses = asyncio.run(burst(gateway, 12))
        accepted = [r for r in responses if r.status_code == 202]
        refused = [r for r in responses if r.status_code != 202]
        # the workers' runs and the queue's: the gate holds every run, so none ended during the burst
        # (should one have ended after all, its status and notes say why)
        assert len(accepted) == WORKERS + QUEUE_MAX, [
            (r.status_code, run_of(gateway, r.json()["run_id"]) if r.status_code == 202 else r.text)
            for r in responses
        ]
        for response in refused:
            assert response.status_code == 503, response.text
            error = response.json()["error"]
            assert (error["type"], error["code"]) == ("server_error", "background_queue_full")
            assert 1 <= int(response.headers["retry-after"]) <= 60
        run_ids = [r.json()["run_id"] for r in accepted]
        # findable at once, as recorded before the 202; the last ones still wait their turn
        statuses = [run_of(gateway, run_id)["status"] for run_id in run_ids]
        assert set(statuses) <= set(UNFINISHED) and "queued" in statuses, statuses
        # the refusal did not wait for a place: the first runs are still going
        assert run_of(gateway, run_ids[0])["status"] in UNFINISHED
    finally:
        httpx.post(f"{gated.url}/gate/open", timeout=5).raise_for_status()
    for run_id in run_ids:
        final = wait_status(gateway, run_id)
        assert final["status"] == "completed" and final["finished_at"], final
    # the queue has room again
    again = httpx.post(f"{gateway.url}/v1/runs", json={**EXPORT, "session_id": new_session()}, timeout=30)
    assert again.status_code == 202, again.text
    assert wait_status(gateway, again.json()["run_id"])["status"] == "completed"


def test_a_run_waiting_for_its_sessions_lock_is_findable_and_fails_with_the_reason(gateway: Process) -> None:
    session = new_session()
    first = httpx.post(f"{gateway.url}/v1/runs", json=body(session), timeout=30)
    assert first.status_code == 202, first.text
    first_id = first.json()["run_id"]
    assert run_of(gateway, first_id)["status"] in UNFINISHED
    assert first.json()["status"] == "queued"
    wait_status(gateway, first_id, ("executing",))
    # the session is busy with the first run: the second waits for its lock, findable meanwhile
    second = httpx.post(f"{gateway.url}/v1/runs", json=body(session), timeout=30)
    assert second.status_code == 202, second.text
    second_id = second.json()["run_id"]
    assert run_of(gateway, second_id)["status"] in UNFINISHED
    # the session lists both runs while they are unfinished
    view = httpx.get(f"{gateway.url}/v1/sessions/{session}", timeout=10)
    assert view.status_code == 200, view.text
    assert [t["run_id"] for t in view.json()["turns"]] == [first_id, second_id]
    # it gives up after SESSION_LOCK_WAIT_S, and says why, while the first still runs
    failed = wait_status(gateway, second_id)
    assert failed["status"] == "failed", failed
    assert any("busy" in note for note in failed["notes"]), failed
    assert failed["session_id"] == session
    assert wait_status(gateway, first_id)["status"] == "failed"
    # both are the session's runs, and its events replay from the stored trace
    with httpx.stream("GET", f"{gateway.url}/v1/runs/{second_id}/events", timeout=30) as events:
        assert events.status_code == 200
        lines = [line for line in events.iter_lines() if line.startswith("data: ")]
    assert json.loads(lines[-1].removeprefix("data: "))["status"] == "failed"


def test_a_gateway_that_stops_hands_its_unfinished_runs_to_the_next(tmp_path: Path) -> None:
    """A graceful stop leaves its running and queued runs unfinished in the durable engine and
    lets its liveness lease lapse at once: the next gateway on the database finishes both, and the
    step that was in flight is not run again by the domain (its idempotency key answers)."""
    gated = start_fixture_domain("gated_domain")
    env = {"BACKGROUND_WORKERS": "1", "BACKGROUND_QUEUE_MAX": "1", "DOMAIN_TIMEOUT_S": "60"}
    export = {"input_text": "export the quarterly sales report", "background": True, "domain": "gated"}
    try:
        with gateway_over({"gated": gated}, tmp_path, env) as gateway:
            running, waiting = (
                httpx.post(
                    f"{gateway.url}/v1/runs", json={**export, "session_id": new_session()}, timeout=30
                ).json()["run_id"]
                for _ in range(2)
            )
            wait_status(gateway, running, ("executing",))
            deadline = time.monotonic() + 60
            while httpx.get(f"{gated.url}/calls", timeout=5).json()["started"] < 1:
                assert time.monotonic() < deadline, "the domain never saw the first run's call"
                time.sleep(0.05)
            assert run_of(gateway, waiting)["status"] == "queued"
        # stopped (SIGTERM) with both unfinished; the domain's call in flight ends on its own
        httpx.post(f"{gated.url}/gate/open", timeout=5).raise_for_status()
        with gateway_over({"gated": gated}, tmp_path, env) as gateway:
            runs = [wait_status(gateway, run_id) for run_id in (running, waiting)]
        assert [run["status"] for run in runs] == ["completed", "completed"], runs
        calls = httpx.get(f"{gated.url}/calls", timeout=5).json()
        assert calls["started"] == 2, calls  # one per run: the first one's call was answered by its key
    finally:
        gated.stop()
