"""A background run waits out a domain it cannot reach (``BACKGROUND_UNDELIVERED_RETRY_S``), real
processes: with the notifier down, an interactive turn ends at once without its message, while a
background run's notification step is retried (the engine's step retries, seen in the gateway's
log) until the notifier is back, and then the message goes out exactly once. With a short
window, a background run whose notifier stays down ends without it."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.conftest import Process, gateway_over, reserve_port, start_domain, wait_until

pytestmark = pytest.mark.integration

TEXT = "manda a cotação da Vale no meu telegram"
RETRIED = "Step being automatically retried"


@dataclass
class Stack:
    gateway: Process
    finance: Process
    work: Path
    log: Path
    notifier_port: int


def _notifier(work: Path, port: int | None = None) -> Process:
    env = {"NOTIFIER_OUTBOX_PATH": str(work / "outbox.sqlite3"), "TELEGRAM_BOT_TOKEN": ""}
    return start_domain("notifier", env, port)


@pytest.fixture
def notifier_port() -> Iterator[int]:
    """The notifier's port, held (bound, never listening) for the whole test: while the notifier is
    down it refuses, and no other process is given it before the notifier comes back on it."""
    with reserve_port() as reserved:
        yield reserved.port


@pytest.fixture
def stack(tmp_path: Path, notifier_port: int) -> Iterator[Stack]:
    finance = start_domain("finance")
    notifier = _notifier(tmp_path, notifier_port)
    log = tmp_path / "gateway.log"
    env = {"BACKGROUND_UNDELIVERED_RETRY_S": "60", "BACKGROUND_UNDELIVERED_INTERVAL_S": "0.2"}
    try:
        with gateway_over({"finance": finance, "notifier": notifier}, tmp_path, env, log=log) as gateway:
            notifier.stop("kill")
            yield Stack(gateway, finance, tmp_path, log, notifier_port)
    finally:
        notifier.stop()
        finance.stop()


def _run(gateway: Process, run_id: str) -> dict[str, Any]:
    answer: dict[str, Any] = httpx.get(f"{gateway.url}/v1/runs/{run_id}", timeout=10).json()
    return answer


def _notification(run: dict[str, Any]) -> dict[str, Any]:
    steps = [s for s in run["steps"] if s["capability"] == "send_telegram_message"]
    assert len(steps) == 1, run["steps"]
    return steps[0]


def test_a_background_run_waits_for_its_notifier_and_an_interactive_turn_does_not(stack: Stack) -> None:
    gateway = stack.gateway
    interactive = httpx.post(
        f"{gateway.url}/v1/runs",
        json={"input_text": TEXT, "session_id": f"undelivered-i-{uuid.uuid4().hex[:6]}"},
        timeout=60,
    )
    assert interactive.status_code == 200, interactive.text
    assert _notification(interactive.json())["status"] != "completed"
    assert RETRIED not in stack.log.read_text()  # an interactive turn is not retried by the engine

    body = {"input_text": TEXT, "session_id": f"undelivered-b-{uuid.uuid4().hex[:6]}", "background": True}
    accepted = httpx.post(f"{gateway.url}/v1/runs", json=body, timeout=30)
    assert accepted.status_code == 202, accepted.text
    run_id = accepted.json()["run_id"]
    # its notification step was tried while the notifier was down, and is waiting to try again
    wait_until(lambda: RETRIED in stack.log.read_text())
    assert _run(gateway, run_id)["status"] == "executing"

    back = _notifier(stack.work, stack.notifier_port)
    try:
        wait_until(lambda: _run(gateway, run_id)["status"] not in ("queued", "executing"))
        run = _run(gateway, run_id)
        assert run["status"] == "completed", run
        assert _notification(run)["status"] == "completed", run["steps"]
        messages = httpx.get(f"{back.url}/outbox", timeout=10).json()["messages"]
        assert [m["idempotency_key"] for m in messages] == [f"{run_id}:2"]
    finally:
        back.stop()


def test_a_short_window_gives_up_on_a_notifier_that_stays_down(tmp_path: Path, notifier_port: int) -> None:
    finance = start_domain("finance")
    notifier = _notifier(tmp_path, notifier_port)
    env = {"BACKGROUND_UNDELIVERED_RETRY_S": "1", "BACKGROUND_UNDELIVERED_INTERVAL_S": "0.2"}
    try:
        with gateway_over({"finance": finance, "notifier": notifier}, tmp_path, env) as gateway:
            notifier.stop("kill")
            body = {
                "input_text": TEXT,
                "session_id": f"undelivered-s-{uuid.uuid4().hex[:6]}",
                "background": True,
            }
            run_id = httpx.post(f"{gateway.url}/v1/runs", json=body, timeout=30).json()["run_id"]
            wait_until(lambda: _run(gateway, run_id)["status"] not in ("queued", "executing"), timeout_s=60)
            notification = _notification(_run(gateway, run_id))
            assert notification["status"] != "completed"
            assert notification["error"], notification
    finally:
        notifier.stop()
        finance.stop()
