"""Synthesis strategies; the LLM one against a tiny OpenAI-compatible fake (a third-party service)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from execution.synthesis import ConcatSynthesis, LlmSynthesis, synthesis_from_settings
from shared.models import DomainOutput, StepTrace
from shared.settings import LlmSettings
from shared.status import RunStatus


def fake_llm(seen: list[dict[str, Any]], status: int = 200) -> FastAPI:
    app = FastAPI()

    @app.post("/v1/chat/completions")
    async def complete(request: Request) -> JSONResponse:
        body = await request.json()
        seen.append({"body": body, "auth": request.headers.get("authorization")})
        if status != 200:
            return JSONResponse({"error": {"message": "overloaded"}}, status_code=status)
        return JSONResponse(
            {
                "id": "chatcmpl-1",
                "object": "chat.completion",
                "model": body["model"],
                "choices": [
                    {
                        "index": 0,
                        "finish_reason": "stop",
                        "message": {"role": "assistant", "content": " Apple 190. "},
                    }
                ],
            }
        )

    return app


TRACES = [
    StepTrace(
        id=1,
        domain="m",
        capability="quote",
        status=RunStatus.COMPLETED,
        output=DomainOutput(status="success", explanation="Apple 190", confidence=0.8),
    ),
    StepTrace(id=2, domain="m", capability="quote", status=RunStatus.FAILED, error="unknown Zzz"),
]


async def test_llm_synthesis_speaks_the_chat_completions_protocol() -> None:
    seen: list[dict[str, Any]] = []
    transport = httpx.ASGITransport(app=fake_llm(seen))
    async with httpx.AsyncClient(transport=transport) as http:
        llm = LlmSynthesis("http://llm.test/v1", "tiny", api_key="k", http=http)
        result = await llm.synthesize("prices?", TRACES, {1: True, 2: True}, "pt")
    assert result.text == "Apple 190." and result.strategy == "llm"
    assert result.confidence == 0.4 and [g.step for g in result.gaps] == [2]
    body = seen[0]["body"]
    assert body["model"] == "tiny" and seen[0]["auth"] == "Bearer k"
    assert "Brazilian Portuguese" in body["messages"][0]["content"]
    assert '"gaps"' in body["messages"][1]["content"] and "unknown Zzz" in body["messages"][1]["content"]


async def test_llm_failure_falls_back_to_concatenation() -> None:
    transport = httpx.ASGITransport(app=fake_llm([], status=503))
    async with httpx.AsyncClient(transport=transport) as http:
        result = await LlmSynthesis("http://llm.test/v1", "tiny", http=http).synthesize(
            "prices?", TRACES, {1: True, 2: True}, "en"
        )
    assert result.strategy == "llm->concat fallback"
    assert result.text == "Apple 190\nCould not answer:\n- unknown Zzz"


async def test_concat_without_gaps_is_just_the_findings() -> None:
    result = await ConcatSynthesis().synthesize("q", TRACES[:1], {1: True}, "pt")
    assert (result.text, result.gaps, result.confidence) == ("Apple 190", [], 0.8)


def test_strategy_is_llm_only_when_configured(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("LLM_BASE_URL", "LLM_MODEL", "LLM_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    assert synthesis_from_settings(LlmSettings(_env_file=None)).name == "concat"
    assert synthesis_from_settings(LlmSettings(_env_file=None, llm_base_url="http://x/v1")).name == "concat"
    both = LlmSettings(_env_file=None, llm_base_url="http://x/v1", llm_model="m")
    assert synthesis_from_settings(both).name == "llm"


def test_llm_settings_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LLM_BASE_URL", "http://llm.test/v1")
    monkeypatch.setenv("LLM_MODEL", "tiny")
    monkeypatch.setenv("LLM_API_KEY", "sk-test")
    settings = LlmSettings(_env_file=None)
    assert settings.llm_enabled and "sk-test" not in repr(settings)
    strategy = synthesis_from_settings(settings)
    assert isinstance(strategy, LlmSynthesis) and strategy.model == "tiny"
