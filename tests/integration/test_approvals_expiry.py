"""Approvals with a deadline on a clock the test controls, through the whole gateway app in this
process (its domains are real processes over HTTP): past the deadline nothing runs whoever
answers and the person is told; before it, the tenant's approver approves or rejects through the
API and the session's owner can still answer by chat; another tenant's approver sees nothing.

The clock is the gateway's approval clock (``TurnService.approvals.clock``), handed in after
start-up: every turn and approval route reads the time from it.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from dbos import DBOS
from pydantic import SecretStr
from starlette.types import Receive, Scope, Send

from gateway.app import create_app
from gateway.deps import Services
from gateway.durable import current_engine
from gateway.settings import GatewaySettings
from gateway.turns.approval_timers import ApprovalTimers, ApprovalWait, workflow_id
from tests.conftest import Process, write_bootstrap
from tests.integration.conftest import sent

pytestmark = pytest.mark.integration

ADMIN = {"Authorization": "Bearer test-admin-token"}
EXPIRES_S = 3600


@dataclass
class Clock:
    now: datetime

    def __call__(self) -> datetime:
        return self.now


@dataclass
class Gateway:
    client: httpx.AsyncClient
    services: Services
    clock: Clock
    user: dict[str, str]
    approver: dict[str, str]
    other_approver: dict[str, str]


@asynccontextmanager
async def gateway(
    tmp_path: Path,
    domains: dict[str, Process],
    monkeypatch: pytest.MonkeyPatch,
    database_url: str | None = None,
) -> AsyncIterator[Gateway]:
    monkeypatch.setenv("DOMAIN_CONFIRM_CAPABILITIES", "notifier.send_telegram_message")
    monkeypatch.setenv("APPROVAL_EXPIRES_S", str(EXPIRES_S))
    bootstrap = write_bootstrap(tmp_path / "bootstrap.json", {n: p.url for n, p in domains.items()})
    settings = GatewaySettings(
        database_url=database_url or f"sqlite+aiosqlite:///{tmp_path / 'gateway.sqlite3'}",
        bootstrap_file=bootstrap,
        redis_url=None,
        admin_token=SecretStr("test-admin-token"),
    )
    app = create_app(settings)
    async with app.router.lifespan_context(app) as state:
        assert state is not None

        async def with_state(scope: Scope, receive: Receive, send: Send) -> None:
            await app({**scope, "state": dict(state)}, receive, send)

        services: Services = state["services"]
        clock = Clock(datetime(2030, 1, 6, 9, 0, tzinfo=UTC))
        services.turns.approvals.clock = clock
        transport = httpx.ASGITransport(app=with_state)
        async with httpx.AsyncClient(transport=transport, base_url="http://gw", timeout=60) as client:

            async def key(tenant: str, role: str) -> dict[str, str]:
                made = await client.post(
                    "/v1/admin/keys", json={"tenant": tenant, "role": role}, headers=ADMIN
                )
                assert made.status_code == 201, made.text
                return {"Authorization": f"Bearer {made.json()['key']}"}

            yield Gateway(
                client,
                services,
                clock,
                user=await key("acme", "user"),
                approver=await key("acme", "approver"),
                other_approver=await key("globex", "approver"),
            )


async def _say(gw: Gateway, session: str, text: str) -> dict[str, Any]:
    response = await gw.client.post(
        "/v1/runs", json={"input_text": text, "session_id": session}, headers=gw.user
    )
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


async def _pending(gw: Gateway, headers: dict[str, str]) -> list[dict[str, Any]]:
    listed = await gw.client.get("/v1/approvals", headers=headers)
    assert listed.status_code == 200, listed.text
    data: list[dict[str, Any]] = listed.json()["data"]
    return data


async def _ask(gw: Gateway) -> tuple[str, dict[str, Any]]:
    """A session waiting for the yes of a Telegram send; its approval as the approver lists it."""
    session = f"approvals-{uuid.uuid4().hex[:8]}"
    asked = await _say(gw, session, "manda a cotação da Vale no meu telegram")
    assert asked["status"] == "waiting_input" and "Confirma? (sim/não)" in asked["answer"], asked
    mine = [a for a in await _pending(gw, gw.approver) if a["session_id"] == session]
    assert len(mine) == 1, mine
    await _timer_set(mine[0]["id"])
    return session, mine[0]


async def _timer_set(approval_id: str) -> None:
    """Until the approval's workflow has read how long it sleeps (on the gateway's clock): a
    workflow the engine starts late on a busy machine would otherwise read the clock the test
    moved on, and expire the approval itself before the test does."""
    async with asyncio.timeout(60):
        while True:
            steps = await DBOS.list_workflow_steps_async(workflow_id(approval_id), load_output=False)
            if any(step["function_name"] == "until-deadline" for step in steps):
                return
            await asyncio.sleep(0.05)


async def _history(gw: Gateway, session: str) -> list[dict[str, Any]]:
    read = await gw.client.get(f"/v1/sessions/{session}/history", headers=gw.user)
    assert read.status_code == 200, read.text
    turns: list[dict[str, Any]] = read.json()["turns"]
    return turns


async def test_an_expired_approval_runs_nothing_and_tells_the_person(
    tmp_path: Path,
    domain_processes: dict[str, Process],
    notifier: Process,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    domains = {**domain_processes, "notifier": notifier}
    async with gateway(tmp_path, domains, monkeypatch) as gw:
        before = sent(notifier)
        by_approver, approval = await _ask(gw)
        asked_at = gw.clock.now
        assert datetime.fromisoformat(approval["expires_at"]) == asked_at + timedelta(seconds=EXPIRES_S)
        by_person, _ = await _ask(gw)
        by_deadline, unanswered = await _ask(gw)

        gw.clock.now = asked_at + timedelta(seconds=EXPIRES_S)  # the deadline itself: too late
        assert await _pending(gw, gw.approver) == []

        # an approver's yes after the deadline is refused; the session records the expiry
        late = await gw.client.post(f"/v1/approvals/{approval['id']}/approve", headers=gw.approver)
        assert late.status_code == 409 and late.json()["error"]["code"] == "approval_expired", late.text
        told = (await _history(gw, by_approver))[-1]
        assert told["status"] == "cancelled" and "expirou" in told["answer"], told

        # the person's own yes after the deadline: refused the same way
        refused = await _say(gw, by_person, "sim")
        assert refused["status"] == "cancelled" and "expirou" in refused["answer"], refused
        assert not refused["steps"]

        # nobody answered the third: the expiry step of its workflow tells the person (the
        # workflow itself sleeps in real time; its step reads the gateway's clock)
        timers = await current_engine().get(ApprovalTimers)
        wait = ApprovalWait(unanswered["id"], "acme", None, gw.clock.now)
        assert await timers.expire(wait) == "expired"
        told = (await _history(gw, by_deadline))[-1]
        assert told["status"] == "cancelled" and "expirou" in told["answer"], told
        assert await timers.expire(wait) == "settled"  # a step run again tells nobody twice
        assert len(await _history(gw, by_deadline)) == 2

        assert sent(notifier) == before  # nothing ran, whoever answered
        # and the session goes on normally afterwards
        assert (await _say(gw, by_person, "preço da Petrobras"))["status"] == "completed"


async def test_approvers_decide_their_tenants_approvals_and_the_owner_can_still_answer(
    tmp_path: Path,
    domain_processes: dict[str, Process],
    notifier: Process,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    await _approvers_decide(tmp_path, {**domain_processes, "notifier": notifier}, notifier, monkeypatch)


@pytest.mark.postgres
async def test_approvers_decide_on_postgresql(
    tmp_path: Path,
    domain_processes: dict[str, Process],
    notifier: Process,
    monkeypatch: pytest.MonkeyPatch,
    pg_database_url: str,
) -> None:
    domains = {**domain_processes, "notifier": notifier}
    await _approvers_decide(tmp_path, domains, notifier, monkeypatch, pg_database_url)


async def _approvers_decide(
    tmp_path: Path,
    domains: dict[str, Process],
    notifier: Process,
    monkeypatch: pytest.MonkeyPatch,
    database_url: str | None = None,
) -> None:
    async with gateway(tmp_path, domains, monkeypatch, database_url) as gw:
        before = sent(notifier)
        approved_session, approval = await _ask(gw)

        # another tenant's approver sees nothing and cannot answer it; a user key cannot either
        assert await _pending(gw, gw.other_approver) == []
        for decision in ("approve", "reject"):
            path = f"/v1/approvals/{approval['id']}/{decision}"
            denied = await gw.client.post(path, headers=gw.other_approver)
            assert denied.status_code == 404, denied.text
        forbidden = await gw.client.get("/v1/approvals", headers=gw.user)
        assert forbidden.status_code == 403, forbidden.text
        assert sent(notifier) == before

        gw.clock.now += timedelta(seconds=EXPIRES_S - 1)  # still in time
        done = await gw.client.post(f"/v1/approvals/{approval['id']}/approve", headers=gw.approver)
        assert done.status_code == 200, done.text
        decided = done.json()
        assert decided["approval"]["status"] == "approved"
        assert decided["approval"]["decided_by"].startswith("key:")
        assert decided["run"]["status"] == "completed", decided
        assert [s["capability"] for s in decided["run"]["steps"]] == [
            "get_stock_price",
            "send_telegram_message",
        ]
        assert sent(notifier) == before + 1
        # the person sees it in their conversation
        last = (await _history(gw, approved_session))[-1]
        assert last["status"] == "completed" and last["run_id"] == decided["run"]["run_id"]
        # answered once: a second decision is refused, nothing runs again
        again = await gw.client.post(f"/v1/approvals/{approval['id']}/approve", headers=gw.approver)
        assert again.status_code == 409, again.text
        assert sent(notifier) == before + 1

        # a rejection cancels with nothing run
        rejected_session, to_reject = await _ask(gw)
        assert rejected_session != approved_session
        no = await gw.client.post(f"/v1/approvals/{to_reject['id']}/reject", headers=gw.approver)
        assert no.status_code == 200, no.text
        assert no.json()["approval"]["status"] == "rejected" and no.json()["run"]["status"] == "cancelled"
        assert "recusou" in no.json()["run"]["answer"]
        assert sent(notifier) == before + 1

        # the session's owner answers by chat as before
        chat_session, by_chat = await _ask(gw)
        said = await _say(gw, chat_session, "sim")
        assert said["status"] == "completed", said
        assert sent(notifier) == before + 2
        assert all(a["id"] != by_chat["id"] for a in await _pending(gw, gw.approver))
        settled = gw.services.turns.approvals.store
        assert settled is not None
        stored = await settled.get(by_chat["id"], "acme")
        assert stored is not None and stored.status == "approved" and stored.decided_by == "owner"
