"""Background runs' bound holds across gateways. Two gateways share one queue (PostgreSQL) and
each counted the unfinished runs before recording its own: two requests arriving at once at two
gateways both saw the last free place and both took it, so the deployment admitted past
``BACKGROUND_WORKERS`` per gateway plus ``BACKGROUND_QUEUE_MAX``. Now the count and the enqueue
happen under one admission lock in Redis.

Real gateway processes on a fresh PostgreSQL database and Redis, over a domain that holds every
call until the test opens its gate (so no run ends while the burst is admitted)."""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import asyncpg
import httpx
import pytest

from tests.conftest import Process, start_fixture_domain, start_gateway, wait_until, write_bootstrap

pytestmark = [pytest.mark.integration, pytest.mark.postgres]

WORKERS = 2
QUEUE_MAX = 2
LEASE_S = 2.0
EXPORT = {"input_text": "export the quarterly sales report", "background": True, "domain": "gated"}


@pytest.fixture
def gated() -> Iterator[Process]:
    domain = start_fixture_domain("gated_domain")
    try:
        yield domain
    finally:
        domain.stop()


def both_count_each_other(database_url: str, since_ms: int) -> bool:
    """Each gateway renewed its liveness lease after both were up: the live count it took then
    (its capacity's factor) is two."""

    async def renewed() -> bool:
        conn = await asyncpg.connect(database_url.replace("postgresql+asyncpg://", "postgresql://"))
        try:
            rows = await conn.fetch("SELECT expires_at_ms FROM gateway_liveness")
        finally:
            await conn.close()
        return len(rows) == 2 and all(r["expires_at_ms"] - LEASE_S * 1000 >= since_ms for r in rows)

    return asyncio.run(renewed())


async def burst(gateways: list[Process], count: int) -> list[httpx.Response]:
    """``count`` background requests at once, spread over the gateways in turn."""
    async with httpx.AsyncClient(timeout=60) as client:
        return list(
            await asyncio.gather(
                *(
                    client.post(
                        f"{gateways[i % len(gateways)].url}/v1/runs",
                        json={**EXPORT, "session_id": f"adm-{uuid.uuid4().hex[:10]}"},
                    )
                    for i in range(count)
                )
            )
        )


def test_gateways_sharing_a_queue_never_admit_past_its_bound(
    tmp_path: Path, gated: Process, pg_database_url: str, redis_url: str
) -> None:
    bootstrap = write_bootstrap(tmp_path / "bootstrap.json", {"gated": gated.url})
    env = {
        "DATABASE_URL": pg_database_url,
        "REDIS_URL": redis_url,
        "BOOTSTRAP_FILE": str(bootstrap),
        "API_KEYS": "",
        "ADMIN_TOKEN": "admin-secret",
        "BACKGROUND_WORKERS": str(WORKERS),
        "BACKGROUND_QUEUE_MAX": str(QUEUE_MAX),
        "DOMAIN_TIMEOUT_S": "60",
        "DURABLE_LIVENESS_LEASE_S": str(LEASE_S),
        "DURABLE_RECOVERY_INTERVAL_S": "0.3",
    }
    gateways = [start_gateway({**env, "DURABLE_EXECUTOR_ID": "admission-a"})]
    try:
        gateways.append(start_gateway({**env, "DURABLE_EXECUTOR_ID": "admission-b"}))
        up_ms = int(time.time() * 1000)
        wait_until(lambda: both_count_each_other(pg_database_url, up_ms), what="both liveness leases renewed")
        capacity = WORKERS * len(gateways) + QUEUE_MAX

        responses = asyncio.run(burst(gateways, 4 * capacity))

        accepted = [r for r in responses if r.status_code == 202]
        refused = [r for r in responses if r.status_code != 202]
        assert len(accepted) == capacity, [(r.status_code, r.text[:120]) for r in responses]
        for response in refused:
            assert response.status_code == 503, response.text
            assert response.json()["error"]["code"] == "background_queue_full"
    finally:
        httpx.post(f"{gated.url}/gate/open", timeout=5).raise_for_status()
        for gateway in gateways:
            gateway.stop()
