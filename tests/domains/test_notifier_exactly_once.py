"""Exactly-once notifications across crashes (real notifier processes, signed calls): a call
repeated under its ``Idempotency-Key`` after the notifier was SIGKILLed and restarted sends
nothing new; even with the SDK's key store lost (a crash between the outbox's commit and the
key's), the outbox, keyed by the same key, finds the message; a signed call replayed under
another key, or none, is refused."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from shared.models import ExecutionIntent
from shared.signing import SIGNATURE_HEADER, sign
from tests.conftest import Process, reserve_port, start_domain

pytestmark = pytest.mark.integration

SECRET = "notifier-gateway-secret"


def _body() -> bytes:
    intent = ExecutionIntent(
        domain="notifier",
        capability="send_telegram_message",
        parameters={"message": "a cotação da Vale: R$ 61,20"},
        context={"language": "en"},
    )
    return intent.model_dump_json().encode()


def _send(notifier: Process, key: str | None, signed_key: str | None = None) -> httpx.Response:
    body = _body()
    headers = {
        "Content-Type": "application/json",
        SIGNATURE_HEADER: sign(
            SECRET.encode(), body, idempotency_key=(key or "") if signed_key is None else signed_key
        ),
    }
    if key is not None:
        headers["Idempotency-Key"] = key
    return httpx.post(f"{notifier.url}/execute", content=body, headers=headers, timeout=10)


def _outbox(notifier: Process) -> list[dict[str, object]]:
    messages: list[dict[str, object]] = httpx.get(f"{notifier.url}/outbox", timeout=10).json()["messages"]
    return messages


@pytest.fixture
def notifier_env(tmp_path: Path) -> dict[str, str]:
    return {
        "NOTIFIER_OUTBOX_PATH": str(tmp_path / "outbox.sqlite3"),
        "DOMAIN_IDEMPOTENCY_URL": f"sqlite:///{tmp_path / 'keys.sqlite3'}",
        "DOMAIN_SIGNING_SECRET": SECRET,
        "TELEGRAM_BOT_TOKEN": "",
    }


@pytest.fixture
def started() -> Iterator[list[Process]]:
    processes: list[Process] = []
    yield processes
    for process in processes:
        process.stop("kill")


@pytest.fixture
def notifier_port() -> Iterator[int]:
    """One port for the notifiers a test starts in turn, held (bound, never listening) for the whole
    test: between a kill and the next start it is given to no other process."""
    with reserve_port() as reserved:
        yield reserved.port


def test_a_call_repeated_after_a_crash_sends_nothing_new(
    notifier_env: dict[str, str], tmp_path: Path, started: list[Process], notifier_port: int
) -> None:
    port = notifier_port
    first = start_domain("notifier", notifier_env, port)
    started.append(first)
    sent = _send(first, "run-9:2")
    assert sent.status_code == 200, sent.text
    outbox_id = sent.json()["result"]["outbox_id"]
    first.stop("kill")

    second = start_domain("notifier", notifier_env, port)
    started.append(second)
    again = _send(second, "run-9:2")
    assert again.status_code == 200 and again.json()["metadata"] == {"idempotent_replay": True}
    assert again.json()["result"]["outbox_id"] == outbox_id
    second.stop("kill")

    # the SDK's keys lost, the outbox kept: the outbox's own key still finds the message
    lost_keys = {**notifier_env, "DOMAIN_IDEMPOTENCY_URL": f"sqlite:///{tmp_path / 'fresh-keys.sqlite3'}"}
    third = start_domain("notifier", lost_keys, port)
    started.append(third)
    once_more = _send(third, "run-9:2")
    assert once_more.status_code == 200 and once_more.json()["result"]["outbox_id"] == outbox_id
    assert [m["idempotency_key"] for m in _outbox(third)] == ["run-9:2"]


@pytest.mark.parametrize(("key", "signed_key"), [("run-9:3", "run-9:2"), (None, "run-9:2"), ("run-9:2", "")])
def test_a_signed_call_replayed_under_another_key_is_refused(
    notifier_env: dict[str, str], started: list[Process], key: str | None, signed_key: str
) -> None:
    notifier = start_domain("notifier", notifier_env)
    started.append(notifier)
    refused = _send(notifier, key, signed_key)
    assert refused.status_code == 401
    assert refused.json()["error"] == {
        "message": "signature does not match the call",
        "type": "authentication_error",
        "param": None,
        "code": "invalid_signature",
    }
    assert _outbox(notifier) == []
