"""Operator controls on background runs, through a real gateway (one worker) and real domains:
``POST /v1/runs/{id}/cancel`` on a running run (stored ``cancelled`` at once, and it stays so when
its step ends) and on a queued one (it never starts: the notifier's outbox stays empty);
``GET /v1/runs?status=&session=`` lists the tenant's runs; another tenant gets 404s and an empty
list; a finished or an interactive run cannot be cancelled (409). A run cancelled in its first
step (the durable engine's cancel) finishes that step and never starts its second."""

from __future__ import annotations

import functools
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.conftest import (
    ROOT,
    Process,
    SlowStack,
    gateway_over,
    slow_stack,
    start_domain,
    start_fixture_domain,
    start_service,
    wait_until,
)

pytestmark = pytest.mark.integration

KEY_A, KEY_B = "cancel-tenant-a", "cancel-tenant-b"
A = {"Authorization": f"Bearer {KEY_A}"}
B = {"Authorization": f"Bearer {KEY_B}"}


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SlowStack]:
    # a background step waits for a domain it cannot reach; the retry test needs its run to fail
    # (it restarts finance)
    env = {"API_KEYS": f"{KEY_A},{KEY_B}", "BACKGROUND_WORKERS": "1", "BACKGROUND_UNDELIVERED_RETRY_S": "1"}
    with slow_stack(tmp_path_factory.mktemp("cancel"), env) as started:
        yield started


#: This module's runs finish within a minute.
_wait = functools.partial(wait_until, timeout_s=60.0)


def _background(gateway: Process, text: str, session: str) -> dict[str, Any]:
    body = {"input_text": text, "session_id": session, "background": True}
    answer = httpx.post(f"{gateway.url}/v1/runs", json=body, headers=A, timeout=30)
    assert answer.status_code == 202, answer.text
    return dict(answer.json())


def _run(gateway: Process, run_id: str, headers: dict[str, str] = A) -> httpx.Response:
    return httpx.get(f"{gateway.url}/v1/runs/{run_id}", headers=headers, timeout=10)


def test_cancel_a_running_and_a_queued_run(stack: SlowStack) -> None:
    gateway, notifier, slow, _ = stack
    session = f"cancel-{uuid.uuid4().hex[:8]}"
    running = _background(gateway, "reconcilia o inventário do armazém", session)
    _wait(lambda: httpx.get(f"{slow.url}/started", timeout=5).json()["started"] >= 1)
    queued = _background(gateway, "manda a cotação da Vale no meu telegram", f"{session}-2")
    assert _run(gateway, queued["run_id"]).json()["status"] == "queued"

    # another tenant sees neither run, and cannot cancel them
    assert (
        httpx.post(f"{gateway.url}/v1/runs/{queued['run_id']}/cancel", headers=B, timeout=10).status_code
        == 404
    )
    listed_b = httpx.get(f"{gateway.url}/v1/runs", headers=B, timeout=10).json()
    assert listed_b == {"object": "list", "data": []}

    for run in (queued, running):
        cancelled = httpx.post(f"{gateway.url}/v1/runs/{run['run_id']}/cancel", headers=A, timeout=10)
        assert cancelled.status_code == 200, cancelled.text
        assert cancelled.json()["status"] == "cancelled"
        assert "Cancelled through the API." in cancelled.json()["notes"]

    listed = httpx.get(f"{gateway.url}/v1/runs", params={"status": "cancelled"}, headers=A, timeout=10)
    assert {r["run_id"] for r in listed.json()["data"]} == {queued["run_id"], running["run_id"]}
    by_session = httpx.get(f"{gateway.url}/v1/runs", params={"session": session}, headers=A, timeout=10)
    assert [r["run_id"] for r in by_session.json()["data"]] == [running["run_id"]]

    # one worker: a run sent now starts once the slow step has given up (its timeout, twice) and
    # the cancelled queued run has been taken off the queue
    last = _background(gateway, "qual a cotação da Vale?", f"{session}-3")
    wait_until(lambda: _run(gateway, last["run_id"]).json()["status"] == "completed", 90.0)
    assert _run(gateway, running["run_id"]).json()["status"] == "cancelled"
    assert _run(gateway, queued["run_id"]).json()["status"] == "cancelled"
    assert httpx.get(f"{notifier.url}/outbox", timeout=10).json()["messages"] == []  # it never started

    again = httpx.post(f"{gateway.url}/v1/runs/{running['run_id']}/cancel", headers=A, timeout=10)
    assert again.status_code == 409 and again.json()["error"]["param"] == "run_id"


def test_an_interactive_or_unknown_run_cannot_be_cancelled(stack: SlowStack) -> None:
    gateway, _, _, _ = stack
    done = httpx.post(
        f"{gateway.url}/v1/runs", json={"input_text": "qual a cotação da Vale?"}, headers=A, timeout=30
    )
    assert done.status_code == 200
    finished = httpx.post(f"{gateway.url}/v1/runs/{done.json()['run_id']}/cancel", headers=A, timeout=10)
    assert finished.status_code == 409 and "already finished" in finished.json()["error"]["message"]
    unknown = httpx.post(f"{gateway.url}/v1/runs/run-nope/cancel", headers=A, timeout=10)
    assert unknown.status_code == 404
    bad = httpx.get(f"{gateway.url}/v1/runs", params={"status": "sleeping"}, headers=A, timeout=10)
    assert bad.status_code == 400 and bad.json()["error"]["param"] == "status"


def test_a_failed_run_is_retried_under_its_id(stack: SlowStack) -> None:
    """Finance down: the quote fails, so does the run, and nothing is sent. Finance back up,
    ``retry`` runs it again under the same id, and the message goes out once. (Runs last in this
    module: it restarts finance.)"""
    gateway, notifier, _, finance = stack
    port = int(finance.url.rsplit(":", 1)[1])
    finance.stop("kill")
    session = f"retry-{uuid.uuid4().hex[:8]}"
    run = _background(gateway, "manda a cotação da Vale no meu telegram", session)
    _wait(lambda: _run(gateway, run["run_id"]).json()["status"] not in ("queued", "executing"))
    failed = _run(gateway, run["run_id"]).json()
    assert failed["status"] == "failed", failed
    before = len(httpx.get(f"{notifier.url}/outbox", timeout=10).json()["messages"])
    assert (
        httpx.post(f"{gateway.url}/v1/runs/{run['run_id']}/retry", headers=B, timeout=10).status_code == 404
    )

    back = start_domain("finance", None, port)
    try:
        _wait(
            lambda: (
                httpx.get(f"{gateway.url}/ready", timeout=5).json()["checks"]["domains"]["finance"] == "ok"
            )
        )
        retried = httpx.post(f"{gateway.url}/v1/runs/{run['run_id']}/retry", headers=A, timeout=10)
        assert retried.status_code == 202, retried.text
        assert retried.json()["run_id"] == run["run_id"] and retried.json()["status"] == "queued"
        _wait(lambda: _run(gateway, run["run_id"]).json()["status"] == "completed")
        messages = httpx.get(f"{notifier.url}/outbox", timeout=10).json()["messages"]
        assert [m["idempotency_key"] for m in messages[before:]] == [f"{run['run_id']}:2"]
        again = httpx.post(f"{gateway.url}/v1/runs/{run['run_id']}/retry", headers=A, timeout=10)
        assert again.status_code == 409  # completed now: nothing to retry
    finally:
        back.stop()


def test_a_run_cancelled_mid_step_starts_no_further_step(tmp_path: Path) -> None:
    """Two slow steps (tests/fixtures/counting_domain.py): cancelled while the first runs, the run
    is ``cancelled`` at once, its first step ends in the domain, and its second never runs."""
    env = {"COUNTING_DB": str(tmp_path / "executions.sqlite3"), "COUNTING_STEP_S": "2"}
    ledger = start_service("counting_domain", [str(ROOT / "tests/fixtures/counting_domain.py")], env, None)
    try:
        with gateway_over({"ledger": ledger}, tmp_path, {"API_KEYS": KEY_A}) as gateway:
            run = _background(gateway, "post the ledger batch", f"cancel-mid-{uuid.uuid4().hex[:8]}")
            run_id = run["run_id"]

            def ran() -> list[str]:
                seen = httpx.get(f"{ledger.url}/executions", timeout=5).json()["executions"]
                return [e["key"] for e in seen if e["key"].startswith(f"{run_id}:")]

            _wait(lambda: ran() == [f"{run_id}:1"])
            cancelled = httpx.post(f"{gateway.url}/v1/runs/{run_id}/cancel", headers=A, timeout=10)
            assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled", cancelled.text
            # the first step runs to its end in the domain; the second must never start: watched
            # for longer than both steps would take
            watch_until = time.monotonic() + 2 * 2 + 3
            while time.monotonic() < watch_until:
                assert ran() == [f"{run_id}:1"]
                time.sleep(0.2)
            final = _run(gateway, run_id).json()
            assert final["status"] == "cancelled", final
            assert "Cancelled through the API." in final["notes"], final
    finally:
        ledger.stop()


def test_a_run_past_its_deadline_is_retried_under_its_id(tmp_path: Path) -> None:
    """A run whose domain held its call past ``RUN_DEADLINE_S`` ends ``timeout``; once the domain
    answers again, ``retry`` runs it under the same id to ``completed``, and the domain sees the
    same step key again (its idempotency store answers it)."""
    gated = start_fixture_domain("gated_domain")
    env = {"API_KEYS": KEY_A, "RUN_DEADLINE_S": "2", "DOMAIN_TIMEOUT_S": "60"}
    export = "export the quarterly sales report"
    try:
        with gateway_over({"gated": gated}, tmp_path, env) as gateway:
            run_id = _background(gateway, export, f"deadline-{uuid.uuid4().hex[:8]}")["run_id"]
            _wait(lambda: _run(gateway, run_id).json()["status"] not in ("queued", "executing"))
            timed_out = _run(gateway, run_id).json()
            assert timed_out["status"] == "timeout", timed_out
            httpx.post(f"{gated.url}/gate/open", timeout=5).raise_for_status()
            retried = httpx.post(f"{gateway.url}/v1/runs/{run_id}/retry", headers=A, timeout=10)
            assert retried.status_code == 202, retried.text
            _wait(lambda: _run(gateway, run_id).json()["status"] == "completed")
            calls = httpx.get(f"{gated.url}/calls", timeout=5).json()
            assert set(calls["keys"]) == {f"{run_id}:1"}, calls
            again = httpx.post(f"{gateway.url}/v1/runs/{run_id}/retry", headers=A, timeout=10)
            assert again.status_code == 409, again.text
    finally:
        gated.stop()
