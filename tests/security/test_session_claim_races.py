"""Issue 24, findings 1 and 4: who owns a new session id is decided once, atomically, where its row
is created, on SQLite and on PostgreSQL.

1. Tenant A forks its session into a new id while tenant B sends background runs to that id: one
   of them gets the id, never both (A's 201 with B owning the fork would hand B A's
   conversation through ``/versions/0``).
4. Two tenants start the same new session id at once: one turn runs, the other is a 404 before
   anything of it ran; never a 500 with a lost turn.

Real gateway processes over the real domain processes, the requests of a round sent together.
"""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.conftest import Process, start_gateway, write_bootstrap
from tests.security.conftest import backend_database

pytestmark = pytest.mark.integration

KA, KB = "claim-race-tenant-a-41c2", "claim-race-tenant-b-9e07"
ROUNDS = 40


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def gateway(
    request: pytest.FixtureRequest,
    domain_processes: dict[str, Process],
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[Process]:
    work = tmp_path_factory.mktemp(f"claims-{request.param}")
    bootstrap = write_bootstrap(work / "bootstrap.json", {n: p.url for n, p in domain_processes.items()})
    with contextlib.ExitStack() as stack:
        database = stack.enter_context(backend_database(request.param, Path(work)))
        yield from _gateway_on(database, bootstrap)


def _gateway_on(database: str, bootstrap: Path) -> Iterator[Process]:
    process = start_gateway(
        {
            "DATABASE_URL": database,
            "BOOTSTRAP_FILE": str(bootstrap),
            "API_KEYS": f"{KA},{KB}",
            "ADMIN_TOKEN": "claim-race-admin",
            "REDIS_URL": "",
            "RATE_LIMIT_PER_MIN": "0",
            "MAX_CONCURRENT_RUNS_PER_KEY": "0",
        }
    )
    try:
        yield process
    finally:
        process.stop()


def _auth(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


@pytest.fixture(scope="module")
def source(gateway: Process) -> tuple[str, int]:
    """Tenant A's session with one answered turn, and a version of it that can be forked."""
    session = f"claim-src-{uuid.uuid4().hex[:8]}"
    said = httpx.post(
        f"{gateway.url}/v1/runs",
        json={"input_text": "cotação da Apple", "session_id": session},
        headers=_auth(KA),
        timeout=60,
    )
    assert said.status_code == 200, said.text
    versions = httpx.get(f"{gateway.url}/v1/sessions/{session}", headers=_auth(KA), timeout=30).json()
    return session, next(v["version"] for v in versions["versions"] if v["step_boundary"])


async def _fork_round(http: httpx.AsyncClient, source: tuple[str, int]) -> tuple[int, int, int, int]:
    session, version = source
    target = f"claim-fork-{uuid.uuid4().hex[:10]}"
    fork, queued = await asyncio.gather(
        http.post(
            f"/v1/sessions/{session}/fork",
            json={"version": version, "new_session_id": target},
            headers=_auth(KA),
        ),
        http.post(
            "/v1/runs",
            json={"input_text": "oi", "session_id": target, "background": True},
            headers=_auth(KB),
        ),
    )
    b_reads = await http.get(f"/v1/sessions/{target}/versions/0", headers=_auth(KB))
    a_reads = await http.get(f"/v1/sessions/{target}", headers=_auth(KA))
    return fork.status_code, queued.status_code, b_reads.status_code, a_reads.status_code


def test_a_fork_and_another_tenants_background_run_never_both_get_the_new_id(
    gateway: Process, source: tuple[str, int]
) -> None:
    async def rounds() -> list[tuple[int, int, int, int]]:
        async with httpx.AsyncClient(base_url=gateway.url, timeout=60) as http:
            return [await _fork_round(http, source) for _ in range(ROUNDS)]

    outcomes = asyncio.run(rounds())
    seen = Counter(outcomes)
    for fork, queued, b_reads, a_reads in outcomes:
        assert fork < 500 and queued < 500, seen
        assert not (fork == 201 and queued == 202), seen  # both were told the id is theirs
        if fork == 201:  # A's fork: A reads it, B never does
            assert (a_reads, b_reads) == (200, 404), seen
        else:  # B's id: A's fork was refused as taken, and A reads nothing of it
            assert (fork, queued, a_reads) == (409, 202, 404), seen


async def _first_turn_round(http: httpx.AsyncClient, sync_key: str) -> tuple[int, int, int]:
    """``sync_key``'s tenant sends a turn to a new id while the other tenant queues a background
    run on it (whose row is written outside the session's lock)."""
    target = f"claim-new-{uuid.uuid4().hex[:10]}"
    other = KB if sync_key == KA else KA
    turn, queued = await asyncio.gather(
        http.post(
            "/v1/runs", json={"input_text": "cotação da Apple", "session_id": target}, headers=_auth(sync_key)
        ),
        http.post(
            "/v1/runs",
            json={"input_text": "oi", "session_id": target, "background": True},
            headers=_auth(other),
        ),
    )
    loser = other if turn.status_code == 200 else sync_key
    loser_reads = await http.get(f"/v1/sessions/{target}", headers=_auth(loser))
    return turn.status_code, queued.status_code, loser_reads.status_code


def test_a_turn_and_another_tenants_background_run_on_one_new_id_one_wins_before_anything_runs(
    gateway: Process,
) -> None:
    async def rounds() -> list[tuple[int, int, int]]:
        async with httpx.AsyncClient(base_url=gateway.url, timeout=60) as http:
            return [await _first_turn_round(http, (KA, KB)[i % 2]) for i in range(ROUNDS)]

    outcomes = asyncio.run(rounds())
    seen = Counter(outcomes)
    for turn, queued, loser_reads in outcomes:
        # never a 500 with the turn lost: the turn runs (200) or is refused (404) before it runs
        assert (turn, queued) in {(200, 404), (404, 202)}, seen
        assert loser_reads == 404, seen
