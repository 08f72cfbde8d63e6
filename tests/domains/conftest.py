"""Clients for the three domain apps, in-process through ``httpx.ASGITransport``.

Each app is the one ``python -m domains.<name>`` serves (built by the same factory), so these
tests go through the SDK's real routes, validation and idempotency handling.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from domains.finance.service import build_service as build_finance
from domains.general.service import build_service as build_general
from domains.notifier.service import build as build_notifier
from domains.notifier.settings import NotifierSettings

Execute = Callable[..., Awaitable[dict[str, Any]]]


def client_for(app: FastAPI) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://domain.test")


def executor(client: httpx.AsyncClient, domain: str) -> Execute:
    """``await execute(capability, params, language=..., context=..., key=...)`` -> DomainOutput JSON."""

    async def execute(
        capability: str,
        parameters: dict[str, Any] | None = None,
        *,
        language: str | None = None,
        context: dict[str, Any] | None = None,
        key: str | None = None,
        query: str = "",
    ) -> dict[str, Any]:
        ctx = dict(context or {})
        if language:
            ctx["language"] = language
        body = {
            "domain": domain,
            "capability": capability,
            "parameters": parameters or {},
            "original_query": query,
            "context": ctx,
        }
        headers = {"Idempotency-Key": key} if key else {}
        response = await client.post("/execute", json=body, headers=headers)
        assert response.status_code == 200, response.text
        data: dict[str, Any] = response.json()
        return data

    return execute


@pytest.fixture
async def finance_client() -> AsyncIterator[httpx.AsyncClient]:
    async with client_for(build_finance().app()) as client:
        yield client


@pytest.fixture
def finance(finance_client: httpx.AsyncClient) -> Execute:
    return executor(finance_client, "finance")


@pytest.fixture
async def general_client() -> AsyncIterator[httpx.AsyncClient]:
    async with client_for(build_general().app()) as client:
        yield client


@pytest.fixture
def general(general_client: httpx.AsyncClient) -> Execute:
    return executor(general_client, "general")


def outbox_settings(path: Path, **overrides: Any) -> NotifierSettings:
    """Explicit settings so a TELEGRAM_* variable in the developer's shell cannot leak in."""
    values: dict[str, Any] = {
        "telegram_bot_token": None,
        "telegram_chat_id": None,
        "telegram_api_base": "https://api.telegram.org",
        "notifier_outbox_path": path,
        **overrides,
    }
    return NotifierSettings(**values)


@pytest.fixture
def outbox_path(tmp_path: Path) -> Path:
    return tmp_path / "var" / "notifier_outbox.sqlite3"


@pytest.fixture
async def notifier_client(outbox_path: Path) -> AsyncIterator[httpx.AsyncClient]:
    async with client_for(build_notifier(outbox_settings(outbox_path)).app) as client:
        yield client


@pytest.fixture
def notifier(notifier_client: httpx.AsyncClient) -> Execute:
    return executor(notifier_client, "notifier")
