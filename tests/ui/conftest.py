"""A gateway that asks for an API key, over the real domain processes, and headless Chromium.

Chromium and ChromeDriver come from Debian's packages (``chromium``, ``chromium-driver``); a
missing browser skips these tests locally and fails them under ``CI=true``.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.conftest import Process, gateway_over, unavailable

API_KEY = "ui-test-key"
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
#: Where the screenshots go. A plain test run keeps the tree clean (a temporary directory); the
#: committed ones are re-taken with ``INSPECTOR_SCREENSHOTS=bench/results/inspector pytest tests/ui``.
SCREENSHOTS = Path(
    os.environ.get("INSPECTOR_SCREENSHOTS") or Path(tempfile.gettempdir()) / "inspector-screenshots"
)
#: Chromium's flags on a machine whose network reaches nothing but loopback.
CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--window-size=1400,1000",
)


@pytest.fixture(scope="session")
def keyed_gateway(
    domain_processes: dict[str, Process], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Process]:
    """A real gateway with ``API_KEYS`` set, so the page has to ask for the key."""
    with gateway_over(
        domain_processes, tmp_path_factory.mktemp("inspector"), {"API_KEYS": API_KEY}
    ) as gateway:
        yield gateway


def api(gateway: Process, method: str, path: str, **kwargs: Any) -> httpx.Response:
    """A call with the key, as any API client makes it."""
    headers = {"Authorization": f"Bearer {API_KEY}", **kwargs.pop("headers", {})}
    return httpx.request(method, f"{gateway.url}{path}", headers=headers, timeout=30, **kwargs)


def run(gateway: Process, text: str, session_id: str) -> dict[str, Any]:
    response = api(gateway, "POST", "/v1/runs", json={"input_text": text, "session_id": session_id})
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Debian's headless Chromium under Selenium, with a fresh profile; no browser download."""
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        unavailable("selenium (pip install -e '.[dev]')")
        raise
    if not (Path(CHROMIUM).exists() and shutil.which(CHROMEDRIVER)):
        unavailable("Debian's chromium and chromium-driver (apt-get install chromium chromium-driver)")
    profile = tempfile.mkdtemp(prefix="inspector-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (*CHROMIUM_FLAGS, f"--user-data-dir={profile}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(options=options, service=Service(executable_path=CHROMEDRIVER))
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)
