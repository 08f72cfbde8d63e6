"""The research domain app in-process (httpx ASGITransport) over a tmp SQLite database, with the
real graph engine and the real agent YAML files (or a tmp copy a test edits)."""

from __future__ import annotations

import shutil
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from domains.research.config import DEFAULT_AGENTS_DIR
from domains.research.service import ResearchDomain, build
from domains.research.settings import ResearchSettings
from tests.domains.conftest import client_for

Say = Callable[..., Awaitable[dict[str, Any]]]


def research_settings(tmp_path: Path, **overrides: Any) -> ResearchSettings:
    """Explicit settings so an LLM_* variable in the developer's shell cannot leak in."""
    values: dict[str, Any] = {
        "research_database_url": f"sqlite+aiosqlite:///{tmp_path / 'research.sqlite3'}",
        "research_agents_dir": DEFAULT_AGENTS_DIR,
        "llm_base_url": None,
        "llm_api_key": None,
        "llm_model": None,
        **overrides,
    }
    return ResearchSettings(**values)


def copy_agents(tmp_path: Path) -> Path:
    target = tmp_path / "agents"
    shutil.copytree(DEFAULT_AGENTS_DIR, target)
    return target


def conversation(client: httpx.AsyncClient, session_id: str) -> Say:
    """``await say(capability, text)`` -> DomainOutput JSON, as the gateway would call the domain."""

    async def say(capability: str, text: str = "", **params: Any) -> dict[str, Any]:
        parameters = dict(params)
        if capability == "research_reply":
            parameters.setdefault("reply", text)
        elif capability == "research_start":
            parameters.setdefault("idea_text", text)
        body = {
            "domain": "research",
            "capability": capability,
            "parameters": parameters,
            "original_query": text,
            "context": {"session_id": session_id, "run_id": "r1"},
        }
        response = await client.post("/execute", json=body)
        assert response.status_code == 200, response.text
        data: dict[str, Any] = response.json()
        return data

    return say


@pytest.fixture
async def research(tmp_path: Path) -> AsyncIterator[tuple[ResearchDomain, httpx.AsyncClient]]:
    domain = build(research_settings(tmp_path))
    async with client_for(domain.app) as client:
        yield domain, client
    await domain.conversations.aclose()
