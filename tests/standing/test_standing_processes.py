"""A schedule fires each tick exactly once with three gateway processes on one PostgreSQL, one of
them SIGKILLed between ticks: the engine's ticker (a DBOS schedule) and a workflow per tick (its id
is the tick's firing id) across gateways, and the firing row unique per tick."""

from __future__ import annotations

import signal
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.conftest import Process, start_gateway, stop_process, write_bootstrap

pytestmark = [pytest.mark.integration, pytest.mark.postgres]

KEY = {"Authorization": "Bearer key-a"}


def firings(gateway: Process, standing_id: str) -> list[dict[str, Any]]:
    found = httpx.get(f"{gateway.url}/v1/schedules/{standing_id}/firings", headers=KEY, timeout=60)
    assert found.status_code == 200, found.text
    data: list[dict[str, Any]] = found.json()["data"]
    return data


def finished(gateway: Process, standing_id: str, count: int, timeout_s: float) -> list[dict[str, Any]]:
    """Poll until ``count`` firings have finished (a tick every minute: the wait is the clock's)."""
    deadline = time.monotonic() + timeout_s
    while True:
        done = [f for f in firings(gateway, standing_id) if f["status"] != "started"]
        if len(done) >= count or time.monotonic() > deadline:
            return done
        time.sleep(1)


@pytest.fixture
def gateways(tmp_path: Path, tickers: Process, pg_database_url: str) -> Iterator[list[Process]]:
    bootstrap = write_bootstrap(tmp_path / "bootstrap.json", {"tickers": tickers.url})
    env = {
        "DATABASE_URL": pg_database_url,
        "BOOTSTRAP_FILE": str(bootstrap),
        "API_KEYS": "key-a",
        "REDIS_URL": "",
        "SCHEDULES_TICK_S": "1",
        "SCHEDULES_MIN_INTERVAL_S": "60",
    }
    with ExitStack() as stack:
        started: list[Process] = []
        for _ in range(3):  # one after another: the first migrates the database
            gateway = start_gateway(env)
            stack.callback(gateway.stop)
            started.append(gateway)
        yield started


def test_each_tick_fires_once_across_three_gateways_one_killed(
    gateways: list[Process], price_file: Path
) -> None:
    price_file.write_text("36.25")
    first, second, third = gateways
    made = httpx.post(
        f"{first.url}/v1/schedules",
        json={
            "request": "quanto está a Petrobras?",
            "session_id": "multi-1",
            "recurrence": "FREQ=MINUTELY;INTERVAL=1",
            "timezone": "America/New_York",
        },
        headers=KEY,
        timeout=60,
    )
    assert made.status_code == 201, made.text
    standing_id = made.json()["id"]
    one = finished(second, standing_id, 1, timeout_s=150)
    assert len(one) == 1, one
    stop_process(first.proc, signal.SIGKILL)  # between ticks: the others go on
    two = finished(third, standing_id, 2, timeout_s=150)
    assert len(two) == 2, two
    assert len({f["tick"] for f in two}) == 2
    assert {f["status"] for f in two} == {"succeeded"}, two
    runs = httpx.get(f"{second.url}/v1/runs", params={"session_id": "multi-1"}, headers=KEY, timeout=60)
    run_ids = [r["run_id"] for r in runs.json()["data"]]
    # every tick's run, once: no tick ran on two gateways
    assert sorted(run_ids) == sorted(f["run_id"] for f in two)
    answer = httpx.get(f"{third.url}/v1/runs/{two[0]['run_id']}", headers=KEY, timeout=60).json()["answer"]
    assert "36.25" in answer
