"""The inspector's Approvals page in headless Chromium, against a real gateway: an approver key
sees its tenant's pending approval and approves it with a click (the step runs, the page says what
the person will read); a user key is told it needs the approver role."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.conftest import Process, gateway_over
from tests.ui.conftest import SCREENSHOTS
from tests.ui.test_inspector_browser import Page

pytestmark = pytest.mark.integration

ADMIN = {"Authorization": "Bearer test-admin-token"}


@pytest.fixture(scope="module")
def gated(
    domain_processes: dict[str, Process], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Process]:
    env = {"DOMAIN_CONFIRM_CAPABILITIES": "notifier.send_telegram_message", "APPROVAL_EXPIRES_S": "86400"}
    with gateway_over(domain_processes, tmp_path_factory.mktemp("inspector-approvals"), env) as gateway:
        yield gateway


def _key(gateway: Process, tenant: str, role: str) -> str:
    made = httpx.post(
        f"{gateway.url}/v1/admin/keys", json={"tenant": tenant, "role": role}, headers=ADMIN, timeout=30
    )
    assert made.status_code == 201, made.text
    key: str = made.json()["key"]
    return key


def _open_with(page: Page, key: str, loaded: str = "approvals") -> None:
    page.driver.get(f"{page.gateway.url}/ui#/sessions")
    page.driver.execute_script("sessionStorage.setItem('orchestrator.apiKey', arguments[0])", key)
    page.open("/approvals", loaded)


def test_an_approver_approves_from_the_page(browser: Any, gated: Process) -> None:
    user = _key(gated, "acme", "user")
    approver = _key(gated, "acme", "approver")
    session = f"ui-approval-{uuid.uuid4().hex[:6]}"
    asked = httpx.post(
        f"{gated.url}/v1/runs",
        json={"input_text": "manda a cotação da Vale no meu telegram", "session_id": session},
        headers={"Authorization": f"Bearer {user}"},
        timeout=60,
    )
    assert asked.json()["status"] == "waiting_input", asked.text
    page = Page(browser, gated)

    _open_with(page, user)
    assert "approver role" in page.one("#approvals-refused").text

    _open_with(page, approver)
    rows = page.all("tr[data-approval-id]")
    assert len(rows) == 1
    assert session in rows[0].text and "Confirma? (sim/não)" in rows[0].text
    assert "notifier.send_telegram_message" in rows[0].text
    page.screenshot("approvals-pending", 700)
    rows[0].find_element(page.by.CSS_SELECTOR, "button.approve").click()
    page.until(lambda: bool(page.all(".approval-outcome")), "the decision's outcome")
    outcome = page.one(".approval-outcome")
    assert outcome.get_attribute("data-status") == "approved"
    assert "ended completed" in outcome.text, outcome.text
    assert page.one("#approvals-count").text == "0 waiting for a decision."
    page.screenshot("approvals-approved", 700)
    assert SCREENSHOTS.exists()

    _open_with(page, approver)
    assert page.one("#approvals-none").text == "No approval is waiting."
    page.driver.execute_script("sessionStorage.clear()")
