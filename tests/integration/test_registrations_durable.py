"""Runtime registrations outlive the gateway: real gateway processes on one SQLite file, no Redis."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.conftest import Process, start_fixture_domain, start_gateway, write_bootstrap

pytestmark = pytest.mark.integration

ADMIN = {"Authorization": "Bearer test-admin-token"}


@pytest.fixture
def weather() -> Iterator[Process]:
    domain = start_fixture_domain("weather_domain")
    try:
        yield domain
    finally:
        domain.stop()


def gateway_env(work: Path, domains: dict[str, Process]) -> dict[str, str]:
    bootstrap = write_bootstrap(work / "bootstrap.json", {n: p.url for n, p in domains.items()})
    return {
        "DATABASE_URL": f"sqlite+aiosqlite:///{work / 'gateway.sqlite3'}",
        "BOOTSTRAP_FILE": str(bootstrap),
        "ADMIN_TOKEN": "test-admin-token",
        "API_KEYS": "",
        "REDIS_URL": "",
    }


def listed(gateway: Process) -> dict[str, dict[str, Any]]:
    response = httpx.get(f"{gateway.url}/v1/domains", timeout=10)
    assert response.status_code == 200, response.text
    return {d["name"]: d for d in response.json()["data"]}


def register(gateway: Process, weather: Process) -> None:
    response = httpx.post(
        f"{gateway.url}/v1/domains",
        json={"name": "weather", "base_url": weather.url},
        headers=ADMIN,
        timeout=30,
    )
    assert response.status_code == 201, response.text


def ask(gateway: Process, text: str) -> dict[str, Any]:
    response = httpx.post(f"{gateway.url}/v1/runs", json={"input_text": text}, timeout=60)
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


def test_a_runtime_registration_survives_restarts_until_it_is_deleted(
    tmp_path: Path, domain_processes: dict[str, Process], weather: Process
) -> None:
    env = gateway_env(tmp_path, domain_processes)
    first = start_gateway(env)
    try:
        register(first, weather)
    finally:
        first.stop()

    second = start_gateway(env)
    try:
        restored = listed(second)["weather"]
        assert restored["base_url"] == weather.url and restored["healthy"]
        trace = ask(second, "como está o tempo em Oslo?")
        assert trace["steps"][0]["domain"] == "weather"
        assert "Oslo" in trace["answer"] and trace["status"] == "completed"
        deleted = httpx.delete(f"{second.url}/v1/domains/weather", headers=ADMIN, timeout=10)
        assert deleted.status_code == 200, deleted.text
    finally:
        second.stop()

    third = start_gateway(env)
    try:
        assert "weather" not in listed(third)
        assert set(domain_processes) <= set(listed(third))
    finally:
        third.stop()


def test_a_stored_domain_that_is_down_at_start_is_listed_unhealthy(
    tmp_path: Path, domain_processes: dict[str, Process]
) -> None:
    env = gateway_env(tmp_path, domain_processes)
    weather = start_fixture_domain("weather_domain")
    first = start_gateway(env)
    try:
        register(first, weather)
    finally:
        first.stop()
        weather.stop()

    second = start_gateway(env)
    try:
        down = listed(second)["weather"]
        assert not down["healthy"] and down["last_error"]
    finally:
        second.stop()
