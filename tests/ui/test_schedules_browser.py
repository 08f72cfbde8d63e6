"""The inspector's Schedules page in headless Chromium, against a real gateway: the tenant's
schedules and watches (one made through the API, one in conversation), a watch's firings with
the run each started, and a pause from the page that the API then shows."""

from __future__ import annotations

import time
import uuid
from typing import Any

from tests.conftest import Process
from tests.ui.conftest import api, run
from tests.ui.test_inspector_browser import Page


def _open_with_key(page: Page) -> None:
    from tests.ui.conftest import API_KEY

    page.driver.get(f"{page.gateway.url}/ui#/sessions")
    page.driver.execute_script("sessionStorage.setItem('orchestrator.apiKey', arguments[0])", API_KEY)
    page.open("/schedules", "schedules")


def test_schedules_and_a_watchs_firings_on_the_page(browser: Any, keyed_gateway: Process) -> None:
    session = f"ui-standing-{uuid.uuid4().hex[:6]}"
    made = api(
        keyed_gateway,
        "POST",
        "/v1/schedules",
        json={
            "request": "maiores altas do Brasil",
            "session_id": session,
            "recurrence": "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=9;BYMINUTE=0",
            "timezone": "America/Sao_Paulo",
        },
    )
    assert made.status_code == 201, made.text
    asked = run(keyed_gateway, "me avisa quando a Petrobras passar de 1 real", session)
    assert asked["answer"].endswith("Confirma?"), asked["answer"]
    assert run(keyed_gateway, "sim", session)["answer"].startswith("Pronto:")
    watch = next(s for s in api(keyed_gateway, "GET", "/v1/schedules").json()["data"] if s["kind"] == "watch")
    # the engine's ticker polls a new watch at once (on a new database, once DBOS has read its schedule)
    deadline = time.monotonic() + 120
    while not api(keyed_gateway, "GET", f"/v1/schedules/{watch['id']}/firings").json()["data"]:
        assert time.monotonic() < deadline, "the watch never polled"
        time.sleep(0.5)

    page = Page(browser, keyed_gateway)
    _open_with_key(page)
    rows = page.all(f"tr[data-standing-id='{made.json()['id']}'], tr[data-standing-id='{watch['id']}']")
    assert len(rows) == 2
    page.one(f"button[data-show-firings='{watch['id']}']").click()
    page.until(
        lambda: bool(page.all(f"tr[data-firings-of='{watch['id']}'] tr[data-firing-id]")),
        "the watch's firings",
    )
    firing = page.one(f"tr[data-firings-of='{watch['id']}'] tr[data-firing-id]")
    assert firing.get_attribute("data-status") in {"succeeded", "quiet", "started"}
    page.screenshot("schedules", 700)

    row = page.one(f"tr[data-standing-id='{made.json()['id']}']")
    next(b for b in row.find_elements(page.by.TAG_NAME, "button") if b.text == "Pause").click()
    page.until(
        lambda: (
            page.one(f"tr[data-standing-id='{made.json()['id']}']").get_attribute("data-status") == "paused"
        ),
        "the schedule paused",
    )
    assert api(keyed_gateway, "GET", f"/v1/schedules/{made.json()['id']}").json()["status"] == "paused"
