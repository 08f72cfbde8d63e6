"""The run page's operator controls in headless Chromium, against a real gateway (one background
worker) and real domains: a failed background run (finance down) shows Retry, and a click runs it
again once finance is back (the message goes out once); a queued run shows Cancel, and a click
cancels it (it never starts); a running one is cancelled from its page too; a completed run offers
neither."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.conftest import Process, SlowStack, slow_stack, start_domain, wait_until
from tests.ui.conftest import SCREENSHOTS
from tests.ui.test_inspector_browser import Page

pytestmark = pytest.mark.integration

KEY = "run-controls-key"
AUTH = {"Authorization": f"Bearer {KEY}"}


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SlowStack]:
    # one worker, so a second background run stays queued; a step's unreachable domain is waited
    # for only briefly, so the run with finance down fails (the retry test stops finance)
    env = {"API_KEYS": KEY, "BACKGROUND_WORKERS": "1", "BACKGROUND_UNDELIVERED_RETRY_S": "1"}
    with slow_stack(tmp_path_factory.mktemp("run-controls"), env) as started:
        yield started


def _background(gateway: Process, text: str) -> str:
    body = {"input_text": text, "session_id": f"ui-controls-{uuid.uuid4().hex[:8]}", "background": True}
    answer = httpx.post(f"{gateway.url}/v1/runs", json=body, headers=AUTH, timeout=30)
    assert answer.status_code == 202, answer.text
    run_id: str = answer.json()["run_id"]
    return run_id


def _status(gateway: Process, run_id: str) -> str:
    status: str = httpx.get(f"{gateway.url}/v1/runs/{run_id}", headers=AUTH, timeout=10).json()["status"]
    return status


def _open_run(page: Page, run_id: str) -> None:
    page.driver.get(f"{page.gateway.url}/ui#/sessions")
    page.driver.execute_script("sessionStorage.setItem('orchestrator.apiKey', arguments[0])", KEY)
    page.open(f"/runs/{run_id}", "runs")


def _shown_status(page: Page) -> str:
    return str(page.one("#run-status .badge").get_attribute("data-status"))


def test_a_failed_run_is_retried_from_its_page(browser: Any, stack: SlowStack) -> None:
    gateway, notifier, _, finance = stack
    port = int(finance.url.rsplit(":", 1)[1])
    finance.stop("kill")
    run_id = _background(gateway, "manda a cotação da Vale no meu telegram")
    wait_until(lambda: _status(gateway, run_id) not in ("queued", "executing"))
    assert _status(gateway, run_id) == "failed"
    before = len(httpx.get(f"{notifier.url}/outbox", timeout=10).json()["messages"])

    page = Page(browser, gateway)
    _open_run(page, run_id)
    assert _shown_status(page) == "failed"
    assert page.all("#run-cancel") == []
    page.screenshot("run-failed-retry", 700)

    back = start_domain("finance", None, port)
    try:
        ready = f"{gateway.url}/ready"
        wait_until(lambda: httpx.get(ready, timeout=5).json()["checks"]["domains"]["finance"] == "ok")
        page.one("#run-retry").click()
        # the page is drawn again from the stored run: queued (or already running or done)
        page.until(lambda: _shown_status(page) in ("queued", "executing", "completed"), "the retried run")
        wait_until(lambda: _status(gateway, run_id) == "completed")
        messages = httpx.get(f"{notifier.url}/outbox", timeout=10).json()["messages"]
        assert [m["idempotency_key"] for m in messages[before:]] == [f"{run_id}:2"]
        _open_run(page, run_id)
        assert _shown_status(page) == "completed"
        assert page.all("#run-actions") == []  # a completed run offers neither control
    finally:
        back.stop()


def test_a_queued_and_a_running_run_are_cancelled_from_their_pages(browser: Any, stack: SlowStack) -> None:
    gateway, notifier, slow, _ = stack
    started = httpx.get(f"{slow.url}/started", timeout=5).json()["started"]
    running = _background(gateway, "reconcilia o inventário do armazém")
    wait_until(lambda: httpx.get(f"{slow.url}/started", timeout=5).json()["started"] > started)
    queued = _background(gateway, "manda a cotação da Vale no meu telegram")
    assert _status(gateway, queued) == "queued"
    outbox = len(httpx.get(f"{notifier.url}/outbox", timeout=10).json()["messages"])

    page = Page(browser, gateway)
    _open_run(page, queued)
    assert _shown_status(page) == "queued"
    assert page.all("#run-retry") == []
    page.screenshot("run-queued-cancel", 700)
    page.one("#run-cancel").click()
    page.until(lambda: _shown_status(page) == "cancelled", "the cancelled run")
    assert page.all("#run-actions") == []
    assert _status(gateway, queued) == "cancelled"

    _open_run(page, running)
    assert _shown_status(page) == "executing"
    page.one("#run-cancel").click()
    page.until(lambda: _shown_status(page) == "cancelled", "the cancelled running run")
    assert _status(gateway, running) == "cancelled"
    page.screenshot("run-cancelled", 700)
    # the queued run never started: nothing was sent for it
    assert len(httpx.get(f"{notifier.url}/outbox", timeout=10).json()["messages"]) == outbox
    assert SCREENSHOTS.exists()
