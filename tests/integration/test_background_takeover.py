"""Background runs survive their gateway, step by step: a gateway killed outright (SIGKILL) in the
middle of a run's second step has the run finished by the restarted gateway (SQLite) or by another
gateway (PostgreSQL), and the completed first step is neither run nor even sent again: the durable
engine (gateway/durable/) resumes the workflow from its checkpoint.

The domain is ``tests/fixtures/counting_domain.py``: "post the ledger batch" is two slow steps
(post, then archive), each counting in a SQLite file every time it really runs, and the domain
logs every ``/execute`` it receives (replays included)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import pytest

from tests.conftest import ROOT, Process, gateway_over, start_gateway, start_service, write_bootstrap

pytestmark = pytest.mark.integration

POST = "post the ledger batch"
UNFINISHED = {"queued", "executing"}
#: Fast takeover for the tests: a dead gateway's lease lapses 2 s after its last renewal.
TAKEOVER_ENV = {
    "DURABLE_LIVENESS_LEASE_S": "2",
    "DURABLE_RECOVERY_INTERVAL_S": "0.3",
    "DOMAIN_TIMEOUT_S": "60",
}
#: Generous bounds for polling on a busy 2-core machine.
WAIT_S = 120.0


@pytest.fixture
def ledger(tmp_path: Path) -> Iterator[Process]:
    env = {"COUNTING_DB": str(tmp_path / "executions.sqlite3"), "COUNTING_STEP_S": "2"}
    script = str(ROOT / "tests" / "fixtures" / "counting_domain.py")
    domain = start_service("counting_domain", [script], env, None)
    try:
        yield domain
    finally:
        domain.stop()


async def submit(client: httpx.AsyncClient, gateway: Process, session: str) -> str:
    response = await client.post(
        f"{gateway.url}/v1/runs",
        json={"input_text": POST, "session_id": session, "background": True, "domain": "ledger"},
    )
    assert response.status_code == 202, response.text
    return str(response.json()["run_id"])


async def executions(client: httpx.AsyncClient, domain: Process) -> dict[str, Any]:
    response = await client.get(f"{domain.url}/executions")
    response.raise_for_status()
    return dict(response.json())


async def wait_step_started(client: httpx.AsyncClient, domain: Process, run_id: str, step: int) -> None:
    """Until ``run_id``'s step ``step`` has started running in the domain."""
    deadline = time.monotonic() + WAIT_S
    while not any(e["key"] == f"{run_id}:{step}" for e in (await executions(client, domain))["executions"]):
        assert time.monotonic() < deadline, f"step {step} of {run_id} never started"
        await asyncio.sleep(0.05)


async def final_run(client: httpx.AsyncClient, gateway: Process, run_id: str) -> dict[str, Any]:
    """Poll ``GET /v1/runs/{id}`` until the run has a final status (a client waiting on it)."""
    deadline = time.monotonic() + WAIT_S
    while True:
        response = await client.get(f"{gateway.url}/v1/runs/{run_id}")
        assert response.status_code == 200, response.text
        run = dict(response.json())
        if run["status"] not in UNFINISHED:
            return run
        assert time.monotonic() < deadline, f"run {run_id} still {run['status']} after {WAIT_S:g}s"
        await asyncio.sleep(0.2)


def assert_each_step_ran_once(seen: dict[str, Any], run_id: str) -> None:
    ran = [e["key"] for e in seen["executions"] if e["key"].startswith(f"{run_id}:")]
    assert sorted(ran) == [f"{run_id}:1", f"{run_id}:2"], seen
    sent = [c["key"] for c in seen["calls"] if c["key"].startswith(f"{run_id}:")]
    # the completed first step came back from the engine's checkpoint: sent once, never again;
    # the second, in flight when the gateway died, was sent again under its key and answered
    assert sent.count(f"{run_id}:1") == 1, sent
    assert sent.count(f"{run_id}:2") == 2, sent


@pytest.mark.parametrize("executor", ["new", "fixed"])
async def test_a_gateway_killed_mid_step_finishes_the_run_once_restarted(
    tmp_path: Path, ledger: Process, executor: str
) -> None:
    """SQLite, one gateway. Restarted under a new executor id, it takes over its dead self's run
    once the old lease lapses; under the same (``DURABLE_EXECUTOR_ID``), the engine resumes it at
    launch."""
    env = {**TAKEOVER_ENV, **({"DURABLE_EXECUTOR_ID": "gateway-fixed"} if executor == "fixed" else {})}
    async with httpx.AsyncClient(timeout=30) as client:
        with gateway_over({"ledger": ledger}, tmp_path, env) as first:
            run_id = await submit(client, first, f"takeover-sqlite-{executor}")
            await wait_step_started(client, ledger, run_id, 2)
            first.stop(sig="kill")

        with gateway_over({"ledger": ledger}, tmp_path, env) as restarted:
            run = await final_run(client, restarted, run_id)

        assert run["status"] == "completed", run
        assert [s["status"] for s in run["steps"]] == ["completed", "completed"], run
        assert_each_step_ran_once(await executions(client, ledger), run_id)


def _asyncpg_dsn(dsn: str) -> str:
    return dsn.replace("postgresql+asyncpg://", "postgresql://")


async def executing_gateway(database_url: str, run_id: str) -> str:
    """The executor id of the gateway running ``run_id`` (the engine's own record)."""
    conn = await asyncpg.connect(_asyncpg_dsn(database_url))
    try:
        row = await conn.fetchval(
            "SELECT executor_id FROM dbos.workflow_status WHERE workflow_uuid = $1", f"bg:{run_id}:0"
        )
    finally:
        await conn.close()
    return str(row)


@pytest.mark.postgres
async def test_a_gateway_killed_mid_step_has_its_run_finished_by_another(
    tmp_path: Path, ledger: Process, pg_database_url: str
) -> None:
    """PostgreSQL, two gateways on one queue: whichever runs it is killed in the second step; the
    survivor takes the run over from its checkpoint. The takeover time (the kill to the second
    step sent again) is printed."""
    bootstrap = write_bootstrap(tmp_path / "bootstrap.json", {"ledger": ledger.url})
    env = {
        "DATABASE_URL": pg_database_url,
        "REDIS_URL": "",
        "BOOTSTRAP_FILE": str(bootstrap),
        "API_KEYS": "",
        "ADMIN_TOKEN": "admin-secret",
        **TAKEOVER_ENV,
    }
    gateways = {"gateway-a": start_gateway({**env, "DURABLE_EXECUTOR_ID": "gateway-a"})}
    try:
        gateways["gateway-b"] = start_gateway({**env, "DURABLE_EXECUTOR_ID": "gateway-b"})
        async with httpx.AsyncClient(timeout=30) as client:
            run_id = await submit(client, gateways["gateway-a"], "takeover-pg")
            await wait_step_started(client, ledger, run_id, 2)
            doomed = await executing_gateway(pg_database_url, run_id)
            survivor = next(g for name, g in gateways.items() if name != doomed)
            gateways[doomed].stop(sig="kill")
            killed_at = time.time()

            run = await final_run(client, survivor, run_id)

            assert run["status"] == "completed", run
            seen = await executions(client, ledger)
            assert_each_step_ran_once(seen, run_id)
            resent = [c["at"] for c in seen["calls"] if c["key"] == f"{run_id}:2"][-1]
            print(f"takeover: second step sent again {resent - killed_at:.2f} s after the SIGKILL")
            assert await executing_gateway(pg_database_url, run_id) != doomed
    finally:
        for gateway in gateways.values():
            gateway.stop(sig="kill")
