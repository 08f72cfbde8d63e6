"""The run inspector in headless Chromium against a real platform: what a person sees and does.

Screenshots land in a temporary directory; ``INSPECTOR_SCREENSHOTS=bench/results/inspector``
re-takes the committed ones in ``bench/results/inspector/`` (see tests/ui/conftest.py).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from datetime import datetime
from typing import Any

import pytest

from tests.conftest import Process
from tests.ui.conftest import API_KEY, SCREENSHOTS, api, run

pytestmark = pytest.mark.integration

WAIT_S = 30
#: The stylesheet's status colours (fill, stroke) as the browser computes them.
COMPLETED = ("rgb(230, 244, 231)", "rgb(46, 125, 50)")
WAITING_INPUT = ("rgb(255, 244, 222)", "rgb(178, 106, 0)")


class Page:
    """The driver, with the waits and lookups these tests repeat."""

    def __init__(self, driver: Any, gateway: Process):
        from selenium.common.exceptions import StaleElementReferenceException
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support.ui import WebDriverWait

        self.driver = driver
        self.gateway = gateway
        self.by = By
        # a page redrawn between finding an element and reading it: the wait looks again
        self.wait = WebDriverWait(driver, WAIT_S, ignored_exceptions=(StaleElementReferenceException,))

    def open(self, route: str, loaded: str) -> None:
        # a URL that differs only by its hash would not load the page again
        self.driver.get("about:blank")
        self.driver.get(f"{self.gateway.url}/ui#{route}")
        self.until_loaded(loaded)

    def until_loaded(self, loaded: str) -> None:
        self.until(lambda: self.one("#view").get_attribute("data-loaded") == loaded, f"page {loaded!r}")

    def until(self, condition: Callable[[], bool], what: str) -> None:
        self.wait.until(lambda _driver: condition(), message=f"waited {WAIT_S}s for {what}")

    def one(self, css: str) -> Any:
        return self.driver.find_element(self.by.CSS_SELECTOR, css)

    def all(self, css: str) -> list[Any]:
        return list(self.driver.find_elements(self.by.CSS_SELECTOR, css))

    def colours(self, css: str) -> tuple[str, str]:
        element = self.one(css)
        style = self.driver.execute_script(
            "const s = getComputedStyle(arguments[0]); return [s.fill, s.stroke];", element
        )
        return style[0], style[1]

    def screenshot(self, name: str, height: int = 1000) -> None:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        self.driver.set_window_size(1400, height)
        assert self.driver.save_screenshot(str(SCREENSHOTS / f"{name}.png"))


@pytest.fixture(scope="module")
def page(browser: Any, keyed_gateway: Process) -> Page:
    """A page that has been given the key once, through the page's own prompt."""
    page = Page(browser, keyed_gateway)
    browser.get(f"{keyed_gateway.url}/ui#/sessions")
    page.until(lambda: page.one("#key-dialog").get_attribute("open") is not None, "the key prompt")
    page.one("#key-input").send_keys(API_KEY)
    page.one("#key-save").click()
    page.until_loaded("sessions")
    return page


@pytest.fixture(scope="module")
def runs(keyed_gateway: Process) -> dict[str, dict[str, Any]]:
    tag = uuid.uuid4().hex[:6]
    return {
        "fanout": run(keyed_gateway, "preço da Apple, Microsoft e Nvidia", f"ui-fanout-{tag}"),
        "clarification": run(keyed_gateway, "qual o preço da Nordea?", f"ui-nordea-{tag}"),
    }


def test_a_wrong_key_is_asked_again(browser: Any, keyed_gateway: Process) -> None:
    page = Page(browser, keyed_gateway)
    browser.get(f"{keyed_gateway.url}/ui#/domains")
    browser.execute_script("sessionStorage.setItem('orchestrator.apiKey', 'wrong-key')")
    browser.refresh()
    page.until(lambda: page.one("#key-dialog").get_attribute("open") is not None, "the key prompt")
    assert "Incorrect API key" in page.one("#key-error").text
    browser.execute_script("sessionStorage.clear()")


def test_sessions_list_and_search(page: Page, runs: dict[str, dict[str, Any]]) -> None:
    fanout, nordea = runs["fanout"]["session_id"], runs["clarification"]["session_id"]
    page.open("/sessions", "sessions")
    rows = {row.get_attribute("data-session-id"): row for row in page.all("tr.session-row")}
    assert fanout in rows and nordea in rows
    # told apart by their first request, not by their ids; one status, with what a session waits for
    title = rows[nordea].find_element(page.by.CSS_SELECTOR, "a.session-title")
    assert title.text == "qual o preço da Nordea?"
    status = rows[nordea].find_element(page.by.CSS_SELECTOR, "td.session-status").text
    assert "Encontrei mais de um ticker para 'Nordea'" in status
    assert rows[fanout].find_element(page.by.CSS_SELECTOR, "a.session-title").text == (
        "preço da Apple, Microsoft e Nvidia"
    )
    # sessions made through POST /v1/runs are the REST API's
    assert rows[fanout].find_element(page.by.CSS_SELECTOR, "td.channel").text == "REST API"
    page.screenshot("sessions")

    search = page.one("#session-search")
    search.clear()
    search.send_keys("preço da nordea")
    page.one("#session-search-form button").click()
    page.until(lambda: "q=pre" in page.driver.current_url, "the search route")
    page.until_loaded("sessions")
    listed = [row.get_attribute("data-session-id") for row in page.all("tr.session-row")]
    assert nordea in listed and fanout not in listed


def test_a_parallel_fan_out_shows_three_completed_nodes_and_overlapping_bars(
    page: Page, runs: dict[str, dict[str, Any]]
) -> None:
    trace = runs["fanout"]
    page.open(f"/runs/{trace['run_id']}", "runs")
    nodes = page.all("svg.dag g.dag-node")
    assert [n.get_attribute("data-step-id") for n in nodes] == ["1", "2", "3"]
    assert {n.get_attribute("data-status") for n in nodes} == {"completed"}
    assert page.colours("svg.dag g.dag-node .dag-box") == COMPLETED
    # a node names what the step does (the capability's description), not its id
    titles = [n.find_element(page.by.CSS_SELECTOR, ".dag-title").text for n in nodes]
    capability = trace["steps"][0]["capability"]
    assert all(capability not in t for t in titles), titles
    catalog = api(page.gateway, "GET", "/v1/inspector/catalog", params={"lang": "pt"}).json()
    described = {c["name"]: c["description"] for d in catalog["domains"] for c in d["capabilities"]}
    assert titles[0].startswith(f"1 · {described[capability][:10]}")
    # no step depends on another: one layer, no edges
    assert page.all("svg.dag .dag-edge") == []
    assert len({n.get_attribute("transform").split()[0] for n in nodes}) == 1

    bars = page.all("svg.timeline .tl-bar")
    assert len(bars) == 3
    spans = [
        (float(b.get_attribute("x")), float(b.get_attribute("x")) + float(b.get_attribute("width")))
        for b in bars
    ]
    assert all(end > start for start, end in spans)
    # ran in parallel: every bar overlaps the others on the time axis
    assert max(start for start, _ in spans) < min(end for _, end in spans)
    durations = sorted(float(b.get_attribute("data-duration-ms")) for b in bars)
    assert durations == sorted(float(s["duration_ms"]) for s in trace["steps"])

    assert page.one("#intent-goal").text == "GET_QUOTE"
    entities = page.one("#entities-table").text
    assert "Apple, Microsoft, Nvidia" in entities
    assert float(page.one("#intent-confidence").get_attribute("value")) == pytest.approx(
        trace["intent"]["confidence"]
    )
    assert "AAPL" in page.one("#run-answer").text and "NVDA" in page.one("#run-answer").text
    assert page.one("#run-status [data-status]").get_attribute("data-status") == "completed"
    page.screenshot("run-parallel-fanout", height=1900)


def test_a_clarification_shows_the_step_that_asked_and_its_options(
    page: Page, runs: dict[str, dict[str, Any]]
) -> None:
    trace = runs["clarification"]
    page.open(f"/runs/{trace['run_id']}", "runs")
    nodes = page.all("svg.dag g.dag-node")
    assert [n.get_attribute("data-status") for n in nodes] == ["waiting_input"]
    assert page.colours("svg.dag g.dag-node .dag-box") == WAITING_INPUT
    assert page.one("#run-status [data-status]").get_attribute("data-status") == "waiting_input"
    assert "Nordea Bank Abp (Helsinki)" in page.one("#view").text
    page.screenshot("run-clarification", height=1700)

    page.open(f"/sessions/{trace['session_id']}", "sessions")
    # a part of the page that does not apply is left out, not printed as "null"
    assert "null" not in page.one("#view").text.split()
    assert page.one("#session-title").text == "qual o preço da Nordea?"
    # one status, with the question it waits on; the engine's own status only under "details"
    assert "Encontrei mais de um ticker para 'Nordea'" in page.one("#session-status").text
    assert page.one("#session-details").get_attribute("open") is None
    assert not page.one("#versions-table").is_displayed()
    options = [b.text for b in page.all("button.option")]
    assert any("Helsinki" in o for o in options) and any("Stockholm" in o for o in options)
    page.screenshot("session-clarification", height=1400)


def test_answering_the_question_from_the_page_follows_the_run_live(
    page: Page, runs: dict[str, dict[str, Any]]
) -> None:
    session_id = runs["clarification"]["session_id"]
    page.open(f"/sessions/{session_id}", "sessions")
    helsinki = next(b for b in page.all("button.option") if "Helsinki" in b.text)
    helsinki.click()
    page.until(lambda: "/runs/" in page.driver.current_url, "the new run's page")
    page.until_loaded("runs")
    events = [e.get_attribute("data-event") for e in page.all("#live-log li")]
    assert "step" in events and events[-1] == "run.finished"
    assert page.one("#run-status [data-status]").get_attribute("data-status") == "completed"
    assert "NDA-FI" in page.one("#run-answer").text
    assert page.colours("svg.dag g.dag-node .dag-box") == COMPLETED
    page.screenshot("run-live-after-answer", height=1900)
    page.open(f"/sessions/{session_id}", "sessions")
    turn_rows = page.all("tr.turn-row")
    assert turn_rows[0].get_attribute("data-run-id") == runs["clarification"]["run_id"]
    assert len(turn_rows) == 2
    # the reply "2" is shown with the request it ran, and the question with the run that answered it
    assert "understood as: qual o preço da Nordea?" in turn_rows[1].text
    answer_run = turn_rows[1].get_attribute("data-run-id")
    link = turn_rows[0].find_element(page.by.CSS_SELECTOR, ".answered-link a")
    assert link.get_attribute("href").endswith(f"#/runs/{answer_run}")
    page.open(f"/runs/{runs['clarification']['run_id']}", "runs")
    answered = page.one("#answered-by")
    assert "“2”" in answered.text
    assert answered.find_element(page.by.TAG_NAME, "a").get_attribute("href").endswith(f"#/runs/{answer_run}")
    assert "Waiting for the person" not in page.one("#view").text
    page.screenshot("run-clarification-answered", height=1300)
    stored = api(page.gateway, "GET", f"/v1/sessions/{session_id}").json()
    assert stored["turn_count"] == 2 and stored["pending_question"] is None


def test_forking_from_a_version_opens_the_new_session(page: Page, runs: dict[str, dict[str, Any]]) -> None:
    source = runs["fanout"]["session_id"]
    page.open(f"/sessions/{source}", "sessions")
    versions = page.all("tr.version-row")
    assert len(versions) >= 2
    assert not versions[0].is_displayed(), "engine internals stay behind the details toggle"
    page.one("#session-details summary").click()
    page.until(lambda: versions[0].is_displayed(), "the state versions")
    # a finished session's graph waits for the next message: not "asked the person"
    assert page.one("#graph-status").text == "paused between messages (waiting_input)"
    page.screenshot("session-versions", height=1400)
    page.one("tr.version-row[data-version='1'] button.fork-button").click()
    page.until(lambda: "forked_from=" in page.driver.current_url, "the forked session's page")
    page.until_loaded("sessions")
    forked = page.one("#session-id").text
    assert forked != source
    assert source in page.one("#fork-notice").text
    assert api(page.gateway, "GET", f"/v1/sessions/{forked}").status_code == 200
    page.screenshot("session-forked", height=1200)

    page.open("/sessions", "sessions")
    assert forked in [row.get_attribute("data-session-id") for row in page.all("tr.session-row")]


def test_the_registry_page_shows_health_breakers_and_goals(page: Page) -> None:
    page.open("/domains", "domains")
    rows = {row.get_attribute("data-domain"): row for row in page.all("tr.domain-row")}
    assert {"finance", "general", "notifier"} <= set(rows)
    finance = rows["finance"]
    assert (
        finance.find_element(page.by.CSS_SELECTOR, "[data-healthy]").get_attribute("data-healthy") == "true"
    )
    assert (
        finance.find_element(page.by.CSS_SELECTOR, "[data-breaker]").get_attribute("data-breaker") == "closed"
    )
    assert "GET_QUOTE" in finance.text
    assert finance.find_element(page.by.CSS_SELECTOR, "td.kind").text == "HTTP"
    # overlaps (goal pairs with their score) and the registry's other notices are apart
    catalog = api(page.gateway, "GET", "/v1/inspector/catalog").json()
    shown = [li.text for li in page.all("#overlap-warnings li")]
    assert len(shown) == len(catalog["overlaps"])
    assert all("% similar" in text for text in shown)
    notices = page.all("#registry-notices li") or page.all("#registry-notices-none")
    assert notices
    assert not any("similar" in n.text for n in page.all("#registry-notices li"))
    page.screenshot("domains")


def test_a_step_that_depends_on_another_is_drawn_in_the_next_layer_with_an_edge(
    page: Page, keyed_gateway: Process
) -> None:
    trace = run(
        keyed_gateway, "manda a cotação da Vale no meu telegram", f"ui-compose-{uuid.uuid4().hex[:6]}"
    )
    assert [s["depends_on"] for s in trace["plan"]["steps"]] == [[], [1]]
    page.open(f"/runs/{trace['run_id']}", "runs")
    nodes = {n.get_attribute("data-step-id"): n for n in page.all("svg.dag g.dag-node")}
    assert set(nodes) == {"1", "2"}
    x_of = {
        step: float(node.get_attribute("transform").split()[0].removeprefix("translate("))
        for step, node in nodes.items()
    }
    assert x_of["2"] > x_of["1"]
    # the notification node says what happened (kept in the outbox), not only "completed"
    outcome = trace["steps"][1]["output"]["explanation"]
    assert "Telegram" in outcome
    assert outcome in nodes["2"].find_element(page.by.TAG_NAME, "title").get_attribute("textContent")
    assert "completed" not in nodes["2"].text
    assert nodes["2"].text.split("\n")[-1].startswith(outcome[:20])
    edges = page.all("svg.dag .dag-edge")
    assert [(e.get_attribute("data-from"), e.get_attribute("data-to")) for e in edges] == [("1", "2")]
    # each bar starts where its step started, counted from the turn's start (a browser's clock is in ms)
    bars = {
        b.find_element(page.by.XPATH, "..").get_attribute("data-step-id"): b
        for b in page.all("svg.timeline .tl-bar")
    }
    turn_start = datetime.fromisoformat(trace["created_at"])
    started = {str(s["id"]): datetime.fromisoformat(s["started_at"]) for s in trace["steps"]}
    for step, bar in bars.items():
        expected_ms = (started[step] - turn_start).total_seconds() * 1000
        assert float(bar.get_attribute("data-start-ms")) == pytest.approx(expected_ms, abs=1)
    # so the notification's bar begins after the quote it sends had finished
    assert started["2"] >= datetime.fromisoformat(trace["steps"][0]["finished_at"])
    assert float(bars["2"].get_attribute("x")) > float(bars["1"].get_attribute("x"))
    page.screenshot("run-dependent-steps", height=1700)
