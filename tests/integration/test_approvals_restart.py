"""An approval survives a full restart: asked on one gateway process, the process stopped, a new
one on the same database lists it to the tenant's approver, who approves it; the steps that
waited run once and the person reads the result in their conversation. Real processes over HTTP
(gateway, finance, notifier)."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.conftest import Process, gateway_over, wait_until
from tests.integration.conftest import sent

pytestmark = pytest.mark.integration

ADMIN = {"Authorization": "Bearer test-admin-token"}
GATED = {"DOMAIN_CONFIRM_CAPABILITIES": "notifier.send_telegram_message", "APPROVAL_EXPIRES_S": "86400"}


def _key(gateway: Process, tenant: str, role: str) -> dict[str, str]:
    made = httpx.post(
        f"{gateway.url}/v1/admin/keys", json={"tenant": tenant, "role": role}, headers=ADMIN, timeout=30
    )
    assert made.status_code == 201, made.text
    return {"Authorization": f"Bearer {made.json()['key']}"}


def _acme(gateway: Process) -> tuple[dict[str, str], dict[str, str]]:
    """New keys of tenant acme: a user's and an approver's."""
    return _key(gateway, "acme", "user"), _key(gateway, "acme", "approver")


@pytest.fixture
def domains(domain_processes: dict[str, Process], notifier: Process) -> dict[str, Process]:
    return {**domain_processes, "notifier": notifier}


def _ask(gateway: Process, headers: dict[str, str], text: str, session: str, **extra: Any) -> dict[str, Any]:
    """``text`` said in ``session`` (``extra``: more of the body, ``background``); the answer."""
    answer = httpx.post(
        f"{gateway.url}/v1/runs",
        json={"input_text": text, "session_id": session, **extra},
        headers=headers,
        timeout=60,
    )
    assert answer.status_code == (202 if extra.get("background") else 200), answer.text
    body: dict[str, Any] = answer.json()
    return body


def _pending(gateway: Process, headers: dict[str, str]) -> list[dict[str, Any]]:
    listed = httpx.get(f"{gateway.url}/v1/approvals", headers=headers, timeout=30)
    assert listed.status_code == 200, listed.text
    data: list[dict[str, Any]] = listed.json()["data"]
    return data


def test_an_approver_approves_after_a_full_restart(
    domains: dict[str, Process], notifier: Process, tmp_path: Path
) -> None:
    session = f"approvals-restart-{uuid.uuid4().hex[:8]}"
    before = sent(notifier)
    with gateway_over(domains, tmp_path, GATED) as first:
        user, approver = _acme(first)
        other = _key(first, "globex", "approver")
        asked = _ask(first, user, "send the Vale stock price to my telegram", session)
        assert asked["status"] == "waiting_input", asked
    assert sent(notifier) == before

    with gateway_over(domains, tmp_path, GATED) as second:  # same database file, a new process
        assert _pending(second, other) == []
        waiting = [a for a in _pending(second, approver) if a["session_id"] == session]
        assert len(waiting) == 1, waiting
        approval = waiting[0]
        assert approval["language"] == "en" and "Go ahead? (yes/no)" in approval["question"]
        assert [s["capability"] for s in approval["steps"]] == ["send_telegram_message"]
        refused = httpx.post(f"{second.url}/v1/approvals/{approval['id']}/approve", headers=other, timeout=60)
        assert refused.status_code == 404, refused.text
        done = httpx.post(f"{second.url}/v1/approvals/{approval['id']}/approve", headers=approver, timeout=60)
        assert done.status_code == 200, done.text
        run = done.json()["run"]
        assert run["status"] == "completed", run
        assert [s["capability"] for s in run["steps"]] == ["get_stock_price", "send_telegram_message"]
        assert sent(notifier) == before + 1
        # the person reads it in their conversation, in their language
        history = httpx.get(f"{second.url}/v1/sessions/{session}/history", headers=user, timeout=30)
        assert history.status_code == 200, history.text
        last = history.json()["turns"][-1]
        assert last["run_id"] == run["run_id"] and last["status"] == "completed"
        assert last["input_text"] == "Approved by an approver."
        assert _pending(second, approver) == []


def _turns(gateway: Process, session: str, headers: dict[str, str]) -> list[dict[str, Any]]:
    history = httpx.get(f"{gateway.url}/v1/sessions/{session}/history", headers=headers, timeout=30)
    assert history.status_code == 200, history.text
    turns: list[dict[str, Any]] = history.json()["turns"]
    return turns


TIMED = {**GATED, "DURABLE_LIVENESS_LEASE_S": "2", "DURABLE_RECOVERY_INTERVAL_S": "0.5"}


def test_the_person_is_reminded_then_told_the_request_expired(
    domains: dict[str, Process], notifier: Process, tmp_path: Path
) -> None:
    session = f"approvals-timers-{uuid.uuid4().hex[:8]}"
    before = sent(notifier)
    env = {**TIMED, "APPROVAL_REMINDER_S": "1", "APPROVAL_EXPIRES_S": "6"}
    with gateway_over(domains, tmp_path, env) as gateway:
        user, approver = _acme(gateway)
        asked = _ask(gateway, user, "manda a cotação da Vale no meu telegram", session)
        assert asked["status"] == "waiting_input", asked
        wait_until(lambda: len(_turns(gateway, session, user)) >= 2, 30, "the reminder")
        reminded = _turns(gateway, session, user)[1]
        assert reminded["status"] == "waiting_input" and reminded["answer"].startswith("Lembrete:"), reminded
        assert any(a["reminded_at"] for a in _pending(gateway, approver) if a["session_id"] == session)
        wait_until(lambda: _turns(gateway, session, user)[-1]["status"] == "cancelled", 60, "the expiry")
        told = _turns(gateway, session, user)
        assert len(told) == 3 and "expirou" in told[-1]["answer"], told  # one reminder, then the expiry
        assert _pending(gateway, approver) == []
    assert sent(notifier) == before


def test_the_deadline_outlives_a_restart_of_the_gateway(
    domains: dict[str, Process], notifier: Process, tmp_path: Path
) -> None:
    session = f"approvals-timers-{uuid.uuid4().hex[:8]}"
    before = sent(notifier)
    env = {**TIMED, "APPROVAL_EXPIRES_S": "4"}
    with gateway_over(domains, tmp_path, env) as first:
        user = _key(first, "acme", "user")
        asked = _ask(first, user, "send the Vale stock price to my telegram", session)
        assert asked["status"] == "waiting_input", asked
    # stopped before its deadline; the next process (same database) tells the person
    with gateway_over(domains, tmp_path, env) as second:
        wait_until(lambda: _turns(second, session, user)[-1]["status"] == "cancelled", 60, "the expiry")
        told = _turns(second, session, user)[-1]
        assert "expired" in told["answer"] and "nothing was done" in told["answer"], told
    assert sent(notifier) == before


def test_a_background_runs_approval_is_approved_by_an_approver(
    domains: dict[str, Process], notifier: Process, tmp_path: Path
) -> None:
    session = f"approvals-bg-{uuid.uuid4().hex[:8]}"
    before = sent(notifier)
    with gateway_over(domains, tmp_path, TIMED) as gateway:
        user, approver = _acme(gateway)
        run_id = _ask(gateway, user, "manda a cotação da Vale no meu telegram", session, background=True)[
            "run_id"
        ]

        def status() -> str:
            read = httpx.get(f"{gateway.url}/v1/runs/{run_id}", headers=user, timeout=30)
            return str(read.json()["status"])

        wait_until(lambda: status() == "waiting_input", 60, "the background run's question")
        waiting = [a for a in _pending(gateway, approver) if a["session_id"] == session]
        assert len(waiting) == 1 and waiting[0]["run_id"] == run_id, waiting
        done = httpx.post(
            f"{gateway.url}/v1/approvals/{waiting[0]['id']}/approve", headers=approver, timeout=60
        )
        assert done.status_code == 200, done.text
        assert done.json()["run"]["status"] == "completed"
        assert sent(notifier) == before + 1
