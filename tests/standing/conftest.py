"""Fixtures of the standing-request tests: a price domain whose series the test writes, a gateway
app in this process on a clock the test moves, and standing requests as the store returns them."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.types import Receive, Scope, Send

from gateway.app import create_app
from gateway.settings import GatewaySettings
from gateway.storage.standing import StandingRequest
from gateway.turns.standing import StandingRunner, StandingService
from tests.conftest import Process, start_fixture_domain, write_bootstrap

SP = {"time_zone": "America/Sao_Paulo"}
KEY_A = {"Authorization": "Bearer key-a"}
KEY_B = {"Authorization": "Bearer key-b"}
PETROBRAS = "quanto está a Petrobras?"
#: Monday 2026-11-23, 08:00 in São Paulo
MONDAY_8 = datetime(2026, 11, 23, 11, tzinfo=UTC)


@pytest.fixture(scope="session")
def price_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("prices") / "price.txt"
    path.write_text("30")
    return path


@pytest.fixture(scope="session")
def tickers(price_file: Path) -> Iterator[Process]:
    mp = pytest.MonkeyPatch()
    mp.setenv("SCRIPTED_PRICE_FILE", str(price_file))
    try:
        process = start_fixture_domain("scripted_price_domain")
    finally:
        mp.undo()
    try:
        yield process
    finally:
        process.stop()


def standing_request(**changes: Any) -> StandingRequest:
    """An active weekday-09:00 schedule of tenant acme, as the store returns it, with ``changes``."""
    fields: dict[str, Any] = {
        "id": "st_1",
        "kind": "schedule",
        "tenant": "acme",
        "session_id": "s1",
        "channel": "rest",
        "deliver_to": "",
        "label": "x",
        "request_text": "x",
        "recurrence": "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=9;BYMINUTE=0",
        "interval_seconds": None,
        "condition": None,
        "last_condition": None,
        "timezone": "America/Sao_Paulo",
        "language": "pt",
        "status": "active",
        "next_fire_at": MONDAY_8,
        "created_at": MONDAY_8,
        "updated_at": MONDAY_8,
    }
    return StandingRequest.model_validate({**fields, **changes})


class Clock:
    """The standing service's clock, moved by the test."""

    def __init__(self, now: datetime):
        self.now = now

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock(MONDAY_8)


@pytest.fixture
def standing_env(monkeypatch: pytest.MonkeyPatch) -> None:
    # the test drives the ticks: no gateway looks for them on its own
    monkeypatch.setenv("SCHEDULES_RUNNER_ENABLED", "false")
    monkeypatch.setenv("SCHEDULES_MIN_INTERVAL_S", "120")
    monkeypatch.setenv("SCHEDULES_MAX_PER_TENANT", "3")


@pytest.fixture
def domains(domain_processes: dict[str, Process], tickers: Process) -> dict[str, Process]:
    return {**domain_processes, "tickers": tickers}


@pytest.fixture
def settings(tmp_path: Path, domains: dict[str, Process], standing_env: None) -> GatewaySettings:
    """A gateway on a SQLite file of the test's, keys ``key-a`` and ``key-b``, routing to ``domains``."""
    return gateway_settings(tmp_path, domains, f"sqlite+aiosqlite:///{tmp_path / 'gw.sqlite3'}")


def gateway_settings(tmp_path: Path, domains: dict[str, Process], database_url: str) -> GatewaySettings:
    bootstrap = write_bootstrap(tmp_path / "bootstrap.json", {n: p.url for n, p in domains.items()})
    return GatewaySettings(
        database_url=database_url,
        bootstrap_file=bootstrap,
        redis_url=None,
        api_keys="key-a,key-b",
    )


@asynccontextmanager
async def gateway(
    settings: GatewaySettings, clock: Clock
) -> AsyncIterator[tuple[httpx.AsyncClient, StandingService]]:
    """A gateway app in this process (its lifespan run), its standing service on the test's clock."""
    app = create_app(settings)
    async with app.router.lifespan_context(app) as state:
        assert state is not None
        service: StandingService = state["standing"]
        service.clock = clock

        async def with_state(scope: Scope, receive: Receive, send: Send) -> None:
            await app({**scope, "state": dict(state)}, receive, send)

        transport = httpx.ASGITransport(app=with_state)
        async with httpx.AsyncClient(transport=transport, base_url="http://gw", timeout=60) as client:
            yield client, service


async def say(client: httpx.AsyncClient, session: str, text: str, headers: dict[str, str] = KEY_A) -> str:
    answered = await client.post(
        "/v1/runs", json={"input_text": text, "session_id": session, "metadata": SP}, headers=headers
    )
    assert answered.status_code == 200, answered.text
    answer: str = answered.json()["answer"]
    return answer


async def listed(
    client: httpx.AsyncClient, headers: dict[str, str] = KEY_A, **params: Any
) -> list[dict[str, Any]]:
    found = await client.get("/v1/schedules", headers=headers, params=params)
    assert found.status_code == 200, found.text
    data: list[dict[str, Any]] = found.json()["data"]
    return data


async def schedule(client: httpx.AsyncClient, headers: dict[str, str] = KEY_A, **body: Any) -> dict[str, Any]:
    """A standing request made through ``POST /v1/schedules`` (asking the price of Petrobras
    unless ``body`` says otherwise), as the API returns it."""
    made = await client.post("/v1/schedules", json={"request": PETROBRAS, **body}, headers=headers)
    assert made.status_code == 201, made.text
    out: dict[str, Any] = made.json()
    return out


def running(service: StandingService) -> StandingRunner:
    """The gateway's runner (started with it; the test calls its ``run_due``)."""
    assert service.runner is not None
    return service.runner
