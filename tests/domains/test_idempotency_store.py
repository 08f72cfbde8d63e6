"""The SDK's durable idempotency keys (sdk/idempotency.py): one execution per key across
concurrent calls, processes and restarts; a failure lets go of its key; a crashed call's claim
is taken over; a key re-run with other values gets the first answer; old keys are forgotten. The same
statements on a SQLite file and on PostgreSQL."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import httpx
import pytest

from sdk import DomainService, IdempotencyStore
from shared.models import DomainOutput, ExecutionIntent


def _ok(text: str = "done") -> DomainOutput:
    return DomainOutput(status="success", explanation=text)


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'keys.sqlite3'}"
    return str(request.getfixturevalue("pg_database_url"))


async def test_one_execution_per_key_across_two_stores_on_one_database(store_url: str) -> None:
    """Two stores on one database stand for two processes of a domain (or one before and one
    after a restart): concurrent calls with one key run the capability once, the others wait."""
    first, second = IdempotencyStore(store_url), IdempotencyStore(store_url)
    release, started = asyncio.Event(), asyncio.Event()
    runs: list[str] = []

    async def slow() -> DomainOutput:
        runs.append("ran")
        started.set()
        await release.wait()
        return _ok("sent once")

    try:
        calls = [
            asyncio.create_task(store.run("run-1:1", "fp", slow)) for store in (first, second, first, second)
        ]
        await asyncio.wait_for(started.wait(), 10)
        await asyncio.sleep(0.2)  # the waiters poll meanwhile; none may start a second run
        assert runs == ["ran"]
        release.set()
        results = await asyncio.gather(*calls)
        assert [output.explanation for output, _ in results] == ["sent once"] * 4
        assert sorted(replayed for _, replayed in results) == [False, True, True, True]
        restarted = IdempotencyStore(store_url)
        try:
            output, replayed = await restarted.run("run-1:1", "fp", slow)
        finally:
            await restarted.close()
        assert replayed and output.explanation == "sent once" and runs == ["ran"]
    finally:
        await first.close()
        await second.close()


async def test_a_failed_call_lets_go_of_its_key(store_url: str) -> None:
    store = IdempotencyStore(store_url)
    attempts: list[int] = []

    async def flaky() -> DomainOutput:
        attempts.append(1)
        if len(attempts) == 1:
            raise RuntimeError("the mail server hung up")
        return _ok()

    try:
        with pytest.raises(RuntimeError):
            await store.run("run-2:1", "fp", flaky)
        output, replayed = await store.run("run-2:1", "fp", flaky)
        assert output.explanation == "done" and not replayed and len(attempts) == 2
    finally:
        await store.close()


async def test_a_crashed_calls_claim_is_taken_over_after_its_ttl(store_url: str) -> None:
    crashed = IdempotencyStore(store_url, claim_ttl_s=60)
    later = IdempotencyStore(store_url, claim_ttl_s=60, clock=lambda: time.time() + 61)
    never, claimed = asyncio.Event(), asyncio.Event()

    async def hangs() -> DomainOutput:
        claimed.set()
        await never.wait()
        return _ok("never")

    stuck = asyncio.create_task(crashed.run("run-3:1", "fp", hangs))
    try:
        await asyncio.wait_for(claimed.wait(), 10)
        output, replayed = await asyncio.wait_for(later.run("run-3:1", "fp", lambda: _answer("retaken")), 10)
        assert output.explanation == "retaken" and not replayed
    finally:
        stuck.cancel()
        await asyncio.gather(stuck, return_exceptions=True)
        await crashed.close()
        await later.close()


async def _answer(text: str) -> DomainOutput:
    return _ok(text)


async def test_keys_older_than_the_retention_are_forgotten(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'keys.sqlite3'}"
    now = [time.time()]
    store = IdempotencyStore(url, retention_s=3600, clock=lambda: now[0])
    try:
        await store.run("run-4:1", "fp", lambda: _answer("first"))
        now[0] += 3601 + store.purge_every_s
        output, replayed = await store.run("run-4:1", "fp", lambda: _answer("again"))
        assert output.explanation == "again" and not replayed
    finally:
        await store.close()


# ---------------------------------------------------------------- over HTTP


def counting_service(store: IdempotencyStore) -> tuple[DomainService, list[str]]:
    svc = DomainService("mailer", "1", "Sends mail", idempotency=store)
    sent: list[str] = []

    @svc.capability("send", "Send a mail")
    def send(intent: ExecutionIntent) -> DomainOutput:
        sent.append(intent.parameters["to"])
        return _ok(f"sent to {intent.parameters['to']}")

    return svc, sent


async def test_a_key_is_answered_once_even_with_other_values_and_too_long_keys_are_refused(
    tmp_path: Path,
) -> None:
    """A step re-run after a crash may carry a fresher value: it still gets the first answer."""
    svc, sent = counting_service(IdempotencyStore(f"sqlite:///{tmp_path / 'keys.sqlite3'}"))
    transport = httpx.ASGITransport(app=svc.app())
    async with httpx.AsyncClient(transport=transport, base_url="http://mailer.test") as client:
        body = {"domain": "mailer", "capability": "send", "parameters": {"to": "ana"}}
        assert (
            await client.post("/execute", json=body, headers={"Idempotency-Key": "r:1"})
        ).status_code == 200
        other = {**body, "parameters": {"to": "bruno"}}
        replayed = await client.post("/execute", json=other, headers={"Idempotency-Key": "r:1"})
        too_long = await client.post("/execute", json=body, headers={"Idempotency-Key": "k" * 256})
    await svc.idempotency.close()
    assert replayed.status_code == 200 and replayed.json()["explanation"] == "sent to ana"
    assert replayed.json()["metadata"] == {"idempotent_replay": True}
    assert too_long.status_code == 400 and too_long.json()["error"]["code"] == "invalid_idempotency_key"
    assert sent == ["ana"]


async def test_a_store_that_cannot_record_answers_503_and_runs_nothing(tmp_path: Path) -> None:
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the store's folder should be")
    svc, sent = counting_service(IdempotencyStore(f"sqlite:///{blocked / 'keys.sqlite3'}"))
    transport = httpx.ASGITransport(app=svc.app())
    async with httpx.AsyncClient(transport=transport, base_url="http://mailer.test") as client:
        body = {"domain": "mailer", "capability": "send", "parameters": {"to": "ana"}}
        answer = await client.post("/execute", json=body, headers={"Idempotency-Key": "r:1"})
    assert answer.status_code == 503, answer.text
    assert answer.json()["error"]["code"] == "store_unavailable"
    assert "Traceback" not in answer.text and sent == []
