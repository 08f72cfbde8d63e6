"""A turn whose gateway died after storing its run (``executing``, before its first domain call)
is not an answer: the resend with its ``Idempotency-Key`` runs the turn under the same run id
(the notifier sends once) instead of replaying the unfinished row, on ``/v1/runs`` and on
``/v1/chat/completions``. The row the dead gateway left is written here with the gateway's own
store, as it would have written it."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from gateway.storage.principals import ANONYMOUS_TENANT
from gateway.storage.runs import RunStore
from gateway.turns.idempotency import run_id_for_key
from shared.clock import utcnow
from shared.db import create_engine
from shared.models import RunResult
from shared.status import RunStatus
from tests.conftest import Process, gateway_over, start_domain

pytestmark = pytest.mark.integration

TEXT = "manda a cotação da Vale no meu telegram"


@pytest.fixture(scope="module")
def stack(
    domain_processes: dict[str, Process], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Process, Process, Path]]:
    work = tmp_path_factory.mktemp("reserved")
    notifier = start_domain(
        "notifier", {"NOTIFIER_OUTBOX_PATH": str(work / "outbox.sqlite3"), "TELEGRAM_BOT_TOKEN": ""}
    )
    try:
        with gateway_over({**domain_processes, "notifier": notifier}, work) as gateway:
            yield gateway, notifier, work / "gateway.sqlite3"
    finally:
        notifier.stop()


def _left_by_a_dead_gateway(database: Path, run_id: str, session: str) -> None:
    async def reserve() -> None:
        engine = create_engine(f"sqlite+aiosqlite:///{database}")
        try:
            run = RunResult(
                run_id=run_id, session_id=session, status=RunStatus.EXECUTING, created_at=utcnow()
            )
            await RunStore(engine).reserve_run(run, input_text=TEXT)
        finally:
            await engine.dispose()

    asyncio.run(reserve())


def _outbox(notifier: Process) -> list[dict[str, Any]]:
    return list(httpx.get(f"{notifier.url}/outbox", timeout=10).json()["messages"])


@pytest.mark.parametrize("channel", ["runs", "chat"])
def test_the_resend_runs_the_reserved_turn(stack: tuple[Process, Process, Path], channel: str) -> None:
    gateway, notifier, database = stack
    session, key = f"reserved-{uuid.uuid4().hex[:8]}", f"resend-{uuid.uuid4().hex}"
    # the session exists (its first turn), then a turn is reserved by a gateway that dies
    assert httpx.post(
        f"{gateway.url}/v1/runs",
        json={"input_text": "qual a cotação da Vale?", "session_id": session},
        timeout=60,
    ).is_success
    run_id = run_id_for_key(ANONYMOUS_TENANT, key)
    _left_by_a_dead_gateway(database, run_id, session)
    assert httpx.get(f"{gateway.url}/v1/runs/{run_id}", timeout=10).json()["status"] == "executing"
    before = len(_outbox(notifier))

    headers = {"Idempotency-Key": key, "X-Session-Id": session}
    if channel == "runs":
        body: dict[str, Any] = {"input_text": TEXT, "session_id": session}
        resent = httpx.post(f"{gateway.url}/v1/runs", json=body, headers=headers, timeout=60)
    else:
        body = {"model": "orchestrator", "messages": [{"role": "user", "content": TEXT}]}
        resent = httpx.post(f"{gateway.url}/v1/chat/completions", json=body, headers=headers, timeout=60)
    assert resent.status_code == 200, resent.text
    assert "Idempotent-Replayed" not in resent.headers
    stored = httpx.get(f"{gateway.url}/v1/runs/{run_id}", timeout=10).json()
    assert stored["status"] == "completed"
    assert len(_outbox(notifier)) == before + 1
