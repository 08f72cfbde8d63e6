"""The research domain as a real process: ``python -m domains.research --port P`` over HTTP."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from tests.conftest import start_domain


@pytest.mark.integration
def test_research_runs_as_its_own_process(tmp_path: Path) -> None:
    env = {
        "RESEARCH_DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'research.sqlite3'}",
        "LLM_BASE_URL": "",
    }
    process = start_domain("research", env)  # waits for /health; stopped below
    try:
        with httpx.Client(base_url=process.url, timeout=10.0) as client:
            health = client.get("/health").json()
            assert (health["status"], health["domain"]) == ("ok", "research")
            manifest = client.get("/manifest").json()
            assert {g["goal"] for g in manifest["goals"]} == {
                "RESEARCH_HYPOTHESIS",
                "RESEARCH_VERSIONS",
                "RESEARCH_RESET",
            }
            assert {c["name"] for c in manifest["capabilities"]} == {
                "research_start",
                "research_reply",
                "research_versions",
                "research_reset",
            }
            out = client.post(
                "/execute",
                json={
                    "domain": "research",
                    "capability": "research_start",
                    "parameters": {"idea_text": "Método incremental é mais rápido"},
                    "original_query": "Método incremental é mais rápido",
                    "context": {"session_id": "proc-1"},
                },
            ).json()
            assert out["status"] == "clarification"
            assert client.get("/sessions/proc-1/snapshot").json()["session_id"] == "proc-1"
    finally:
        process.stop()
    assert (tmp_path / "research.sqlite3").exists()
