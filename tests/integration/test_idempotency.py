"""``Idempotency-Key``: a resent request is the first request's run (replayed from storage, or run
again under the same id so the domains recognise their steps); nothing is sent twice."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from gateway.storage.principals import ANONYMOUS_TENANT
from gateway.turns.idempotency import run_id_for_key
from shared.models import ExecutionIntent
from tests.conftest import Process, gateway_over


@pytest.fixture(scope="module")
def gateway(
    domain_processes: dict[str, Process], notifier: Process, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Process]:
    domains = {**domain_processes, "notifier": notifier}
    with gateway_over(domains, tmp_path_factory.mktemp("idempotency")) as started:
        yield started


def _outbox(notifier: Process) -> list[dict[str, Any]]:
    return list(httpx.get(f"{notifier.url}/outbox", timeout=10).json()["messages"])


def _run(gateway: Process, key: str | bytes | None, text: str, session: str, **extra: Any) -> httpx.Response:
    raw = key.encode() if isinstance(key, str) else key
    headers = {b"Idempotency-Key": raw} if raw is not None else {}
    body = {"input_text": text, "session_id": session, **extra}
    return httpx.post(f"{gateway.url}/v1/runs", json=body, headers=headers, timeout=60)


def test_a_resent_run_is_answered_from_storage_and_sends_nothing_again(
    gateway: Process, notifier: Process
) -> None:
    key, session = f"send-{uuid.uuid4().hex}", f"idem-{uuid.uuid4().hex[:8]}"
    before = len(_outbox(notifier))
    first = _run(gateway, key, "manda a cotação da Vale no meu telegram", session)
    assert first.status_code == 200, first.text
    assert "Idempotent-Replayed" not in first.headers
    assert len(_outbox(notifier)) == before + 1
    again = _run(gateway, key, "manda a cotação da Vale no meu telegram", session)
    assert again.status_code == 200
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.json()["run_id"] == first.json()["run_id"]
    assert again.json()["answer"] == first.json()["answer"]
    assert len(_outbox(notifier)) == before + 1
    history = httpx.get(f"{gateway.url}/v1/sessions/{session}/history", timeout=10).json()["turns"]
    assert len(history) == 1  # the resend added no turn


def test_a_run_that_never_committed_runs_again_as_the_same_run(gateway: Process, notifier: Process) -> None:
    """A gateway that died between the notifier's send and the turn's commit: its call reached the
    notifier with the step's idempotency key (``{run_id}:2``), then nothing was stored. Played
    here by making that call first, as the dead gateway did; the resend then runs the turn under
    the same run id, and the notifier answers step 2 from what it already sent."""
    key, session = f"crash-{uuid.uuid4().hex}", f"idem-{uuid.uuid4().hex[:8]}"
    run_id = run_id_for_key(ANONYMOUS_TENANT, key)  # open mode: one anonymous tenant
    dead_gateways_call = ExecutionIntent(
        domain="notifier",
        capability="send_telegram_message",
        parameters={"message": "Vale (VALE3): cotação enviada antes da queda"},
        original_query="manda a cotação da Vale no meu telegram",
    )
    sent = httpx.post(
        f"{notifier.url}/execute",
        content=dead_gateways_call.model_dump_json(),
        headers={"Content-Type": "application/json", "Idempotency-Key": f"{run_id}:2"},
        timeout=30,
    )
    assert sent.status_code == 200, sent.text
    before = len(_outbox(notifier))
    resent = _run(gateway, key, "manda a cotação da Vale no meu telegram", session)
    assert resent.status_code == 200, resent.text
    assert resent.json()["run_id"] == run_id
    steps = resent.json()["steps"]
    assert [s["capability"] for s in steps] == ["get_stock_price", "send_telegram_message"]
    assert steps[1]["output"]["result"]["outbox_id"] == sent.json()["result"]["outbox_id"]
    assert len(_outbox(notifier)) == before  # nothing sent a second time


def test_keys_are_per_tenant_and_chat_completions_replay_too(gateway: Process) -> None:
    key = f"chat-{uuid.uuid4().hex}"
    body = {"model": "orchestrator", "messages": [{"role": "user", "content": "preço da Petrobras"}]}
    first = httpx.post(
        f"{gateway.url}/v1/chat/completions", json=body, headers={"Idempotency-Key": key}, timeout=60
    )
    again = httpx.post(
        f"{gateway.url}/v1/chat/completions", json=body, headers={"Idempotency-Key": key}, timeout=60
    )
    assert first.status_code == again.status_code == 200
    assert again.headers["X-Run-Id"] == first.headers["X-Run-Id"]
    assert again.headers["Idempotent-Replayed"] == "true"
    text = again.json()["choices"][0]["message"]["content"]
    assert text == first.json()["choices"][0]["message"]["content"] and "PETR4" in text
    streamed = httpx.post(
        f"{gateway.url}/v1/chat/completions",
        json={**body, "stream": True},
        headers={"Idempotency-Key": key},
        timeout=60,
    )
    assert streamed.status_code == 400 and streamed.json()["error"]["param"] == "Idempotency-Key"


@pytest.mark.parametrize("key", [b"", "chave-é".encode(), b"x" * 256], ids=["empty", "not-ascii", "too-long"])
def test_a_bad_key_is_refused_before_anything_runs(gateway: Process, notifier: Process, key: bytes) -> None:
    before = len(_outbox(notifier))
    response = _run(gateway, key, "manda a cotação da Vale no meu telegram", f"idem-{uuid.uuid4().hex[:8]}")
    assert response.status_code == 400, response.text
    assert response.json()["error"]["param"] == "Idempotency-Key"
    assert len(_outbox(notifier)) == before
