"""Background runs survive their gateway: one killed outright (SIGKILL) mid-run has its accepted
runs finished by another gateway (PostgreSQL + Redis) or by itself once restarted (SQLite), under
the same run id, so the domain sees the same idempotency key and acts once.

The domain is ``tests/fixtures/gated_domain.py``: its capability waits until the test opens its
gate, so a run is still executing when its gateway is killed, with no clock involved."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.conftest import Process, gateway_over, start_fixture_domain, start_gateway, write_bootstrap

pytestmark = pytest.mark.integration

REPORT = "export the quarterly sales report"
UNFINISHED = {"queued", "executing"}
#: Fast takeover for the test: claims lapse 1.5 s after their gateway dies, sweeps every 0.3 s.
TAKEOVER_ENV = {
    "BACKGROUND_CLAIM_LEASE_S": "1.5",
    "BACKGROUND_SWEEP_S": "0.3",
    # the killed gateway's call must still be waiting on the gate when it dies, not timed out
    "DOMAIN_TIMEOUT_S": "30",
}
#: Generous bounds for polling on a busy 2-core machine.
WAIT_S = 120.0


@pytest.fixture
def gated() -> Any:
    domain = start_fixture_domain("gated_domain")
    try:
        yield domain
    finally:
        domain.stop()


async def submit(client: httpx.AsyncClient, gateway: Process, session: str, text: str = REPORT) -> str:
    response = await client.post(
        f"{gateway.url}/v1/runs",
        json={"input_text": text, "session_id": session, "background": True, "domain": "gated"},
    )
    assert response.status_code == 202, response.text
    return str(response.json()["run_id"])


async def domain_calls(client: httpx.AsyncClient, domain: Process) -> dict[str, Any]:
    response = await client.get(f"{domain.url}/calls")
    response.raise_for_status()
    return dict(response.json())


async def wait_started(client: httpx.AsyncClient, domain: Process, count: int) -> None:
    """Until the domain's capability has begun ``count`` runs (a turn is inside its domain call)."""
    deadline = time.monotonic() + WAIT_S
    while (await domain_calls(client, domain))["started"] < count:
        assert time.monotonic() < deadline, f"the domain never saw {count} call(s)"
        await asyncio.sleep(0.05)


async def gate(client: httpx.AsyncClient, domain: Process, state: str) -> None:
    (await client.post(f"{domain.url}/gate/{state}")).raise_for_status()


async def get_run(client: httpx.AsyncClient, gateway: Process, run_id: str) -> dict[str, Any]:
    response = await client.get(f"{gateway.url}/v1/runs/{run_id}")
    assert response.status_code == 200, response.text
    return dict(response.json())


async def final_run(client: httpx.AsyncClient, gateway: Process, run_id: str) -> dict[str, Any]:
    """Poll ``GET /v1/runs/{id}`` until the run has a final status (a client waiting on it)."""
    deadline = time.monotonic() + WAIT_S
    while True:
        run = await get_run(client, gateway, run_id)
        if run["status"] not in UNFINISHED:
            return run
        assert time.monotonic() < deadline, f"run {run_id} still {run['status']} after {WAIT_S:g}s"
        await asyncio.sleep(0.2)


def keys_of(calls: dict[str, Any], run_id: str) -> list[str]:
    """The ``/execute`` idempotency keys the domain received for ``run_id``'s steps."""
    return [k for k in calls["keys"] if k.startswith(f"{run_id}:")]


@pytest.mark.postgres
@pytest.mark.redis
async def test_a_killed_gateways_run_is_finished_by_another(
    tmp_path: Path, gated: Process, pg_database_url: str, redis_url: str
) -> None:
    bootstrap = write_bootstrap(tmp_path / "bootstrap.json", {"gated": gated.url})
    env = {
        "DATABASE_URL": pg_database_url,
        "REDIS_URL": redis_url,
        "BOOTSTRAP_FILE": str(bootstrap),
        "API_KEYS": "",
        "ADMIN_TOKEN": "admin-secret",
        **TAKEOVER_ENV,
    }
    a = start_gateway(env)
    try:
        b = start_gateway(env)
    except BaseException:
        a.stop()
        raise
    try:
        async with httpx.AsyncClient(timeout=30) as client:
            run_id = await submit(client, a, "takeover-pg")
            await wait_started(client, gated, 1)
            assert (await get_run(client, b, run_id))["status"] == "executing"
            a.stop(sig="kill")
            await gate(client, gated, "open")  # the killed gateway's call finishes in the domain

            run = await final_run(client, b, run_id)

            assert run["status"] == "completed", run
            assert run["answer"], run
            calls = await domain_calls(client, gated)
            # called again by the survivor under the same key, and run by the domain once
            assert calls["started"] == 1, calls
            assert len(keys_of(calls, run_id)) == 2, calls
            assert len(set(keys_of(calls, run_id))) == 1, calls
    finally:
        a.stop(sig="kill")
        b.stop()


async def test_a_restarted_gateway_finishes_its_queued_and_executing_runs(
    tmp_path: Path, gated: Process
) -> None:
    env = {**TAKEOVER_ENV, "BACKGROUND_WORKERS": "1"}
    async with httpx.AsyncClient(timeout=30) as client:
        with gateway_over({"gated": gated}, tmp_path, env) as first:
            executing = await submit(client, first, "takeover-sqlite-1")
            await wait_started(client, gated, 1)
            queued = await submit(client, first, "takeover-sqlite-2")  # its one worker is busy
            assert (await get_run(client, first, executing))["status"] == "executing"
            assert (await get_run(client, first, queued))["status"] == "queued"
            first.stop(sig="kill")
        await gate(client, gated, "open")

        with gateway_over({"gated": gated}, tmp_path, env) as restarted:
            runs = [await final_run(client, restarted, run_id) for run_id in (executing, queued)]

        assert [r["status"] for r in runs] == ["completed", "completed"], runs
        calls = await domain_calls(client, gated)
        assert calls["started"] == 2, calls  # one run each: the executing one's call was replayed
        assert len(keys_of(calls, executing)) == 2, calls
        assert len(keys_of(calls, queued)) == 1, calls


async def test_a_completed_run_is_not_run_again(tmp_path: Path, gated: Process) -> None:
    async with httpx.AsyncClient(timeout=30) as client:
        with gateway_over({"gated": gated}, tmp_path, TAKEOVER_ENV) as first:
            await gate(client, gated, "open")
            done_id = await submit(client, first, "takeover-done")
            done = await final_run(client, first, done_id)
            assert done["status"] == "completed", done
            await gate(client, gated, "close")
            stuck = await submit(client, first, "takeover-stuck")
            await wait_started(client, gated, 2)
            first.stop(sig="kill")
        await gate(client, gated, "open")

        with gateway_over({"gated": gated}, tmp_path, TAKEOVER_ENV) as restarted:
            # the unfinished one is taken over; by then the start-up pass has seen both
            assert (await final_run(client, restarted, stuck))["status"] == "completed"
            assert await get_run(client, restarted, done_id) == done

        calls = await domain_calls(client, gated)
        assert len(keys_of(calls, done_id)) == 1, calls
        assert len(keys_of(calls, stuck)) == 2, calls


async def test_a_run_too_old_to_take_over_fails_in_the_persons_language(
    tmp_path: Path, gated: Process
) -> None:
    async with httpx.AsyncClient(timeout=30) as client:
        with gateway_over({"gated": gated}, tmp_path, TAKEOVER_ENV) as first:
            run_id = await submit(client, first, "takeover-old", "exporta o relatório de vendas do trimestre")
            await wait_started(client, gated, 1)
            first.stop(sig="kill")

        # any run left behind is older than this by the time the restarted gateway finds it
        too_old = {**TAKEOVER_ENV, "BACKGROUND_TAKEOVER_MAX_AGE_S": "0.001"}
        with gateway_over({"gated": gated}, tmp_path, too_old) as restarted:
            run = await final_run(client, restarted, run_id)

        assert run["status"] == "failed", run
        assert run["answer"] == "Não consegui concluir o pedido.", run
        assert any("BACKGROUND_TAKEOVER_MAX_AGE_S" in note for note in run["notes"]), run
        assert run["finished_at"] is not None, run
        assert len(keys_of(await domain_calls(client, gated), run_id)) == 1  # not called again
