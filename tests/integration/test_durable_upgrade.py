"""The durable engine's own SQLite file, and a deployment from before it: a gateway file that holds
DBOS's unfinished workflows keeps them there, so a background run a gateway left mid-step still
finishes once a gateway of this version starts on that file; a later start that finds none left
moves the engine to its own file."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from pathlib import Path

import httpx
import pytest

from tests.conftest import Process, gateway_over
from tests.integration.test_background_takeover import (
    TAKEOVER_ENV,
    WAIT_S,
    assert_each_step_ran_once,
    executions,
    final_run,
    ledger,
    submit,
    wait_step_started,
)

pytestmark = pytest.mark.integration

__all__ = ["ledger"]


def unfinished(database: Path) -> int:
    with sqlite3.connect(database) as conn:
        row = conn.execute(
            "SELECT count(*) FROM workflow_status WHERE status IN ('PENDING', 'ENQUEUED')"
        ).fetchone()
    return int(row[0])


async def wait_none_unfinished(database: Path) -> None:
    """Wait until the engine has recorded every workflow's end: the run's own status is written
    by its last step, a moment before the engine marks the workflow done."""
    deadline = time.monotonic() + WAIT_S
    while unfinished(database):
        assert time.monotonic() < deadline, f"workflows still unfinished after {WAIT_S:g}s"
        await asyncio.sleep(0.2)


async def test_a_run_left_in_the_gateway_file_finishes_after_the_upgrade(
    tmp_path: Path, ledger: Process
) -> None:
    gateway_file = tmp_path / "gateway.sqlite3"
    own_file = tmp_path / "gateway-dbos.sqlite3"
    # the layout of a gateway from before DURABLE_DATABASE_URL: the engine in the gateway's file
    before = {**TAKEOVER_ENV, "DURABLE_DATABASE_URL": f"sqlite:///{gateway_file}"}
    async with httpx.AsyncClient(timeout=30) as client:
        with gateway_over({"ledger": ledger}, tmp_path, before) as old:
            run_id = await submit(client, old, "upgrade-1")
            await wait_step_started(client, ledger, run_id, 2)
            old.stop(sig="kill")
        assert unfinished(gateway_file) == 1
        assert not own_file.exists()

        log = tmp_path / "upgraded.log"
        with gateway_over({"ledger": ledger}, tmp_path, TAKEOVER_ENV, log=log) as upgraded:
            run = await final_run(client, upgraded, run_id)
            await wait_none_unfinished(gateway_file)
        assert run["status"] == "completed", run
        assert_each_step_ran_once(await executions(client, ledger), run_id)
        assert "stays in the gateway's database file" in log.read_text()
        assert not own_file.exists()

        # nothing unfinished is left: the next start moves the engine to its own file for good
        with gateway_over({"ledger": ledger}, tmp_path, TAKEOVER_ENV) as moved:
            second = await submit(client, moved, "upgrade-2")
            assert (await final_run(client, moved, second))["status"] == "completed"
        assert own_file.exists()
        with sqlite3.connect(own_file) as conn:
            statuses = [r[0] for r in conn.execute("SELECT status FROM workflow_status")]
            mode = conn.execute("PRAGMA journal_mode").fetchone()[0]
        assert "SUCCESS" in statuses
        assert mode == "wal"
