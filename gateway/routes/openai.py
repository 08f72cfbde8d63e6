"""OpenAI-compatible chat: ``POST /v1/chat/completions`` (plain and SSE) and ``GET /v1/models``.

Token counts are estimates (whitespace words), since no tokenizer is involved in answering.
"""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from collections.abc import AsyncIterator
from typing import Any, Literal

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field
from sse_starlette.sse import EventSourceResponse

from gateway.deps import RegistryDep, SettingsDep, TurnsDep, session_id_from
from gateway.errors import error_body
from gateway.turn import new_run_id
from shared.errors import InvalidRequest, NotFound, PlatformError
from shared.models import EntryRequest, RunResult

router = APIRouter()


class TextPart(BaseModel):
    model_config = ConfigDict(extra="allow")
    type: str
    text: str | None = None


class ChatMessage(BaseModel):
    model_config = ConfigDict(extra="allow")
    role: Literal["system", "developer", "user", "assistant", "tool", "function"]
    content: str | list[TextPart] | None = None
    name: str | None = None

    def text(self) -> str:
        if isinstance(self.content, str):
            return self.content
        return " ".join(p.text for p in self.content or [] if p.type == "text" and p.text)


class StreamOptions(BaseModel):
    model_config = ConfigDict(extra="allow")
    include_usage: bool = False


class ChatCompletionRequest(BaseModel):
    model_config = ConfigDict(extra="allow")
    model: str = Field(min_length=1)
    messages: list[ChatMessage] = Field(min_length=1)
    stream: bool = False
    stream_options: StreamOptions | None = None
    metadata: dict[str, Any] | None = None
    user: str | None = None


def _count_tokens(text: str) -> int:
    return len(text.split())


def _pinned_domain(model: str, settings_model: str, registry: RegistryDep) -> str | None:
    if model == settings_model:
        return None
    prefix = f"{settings_model}:"
    if model.startswith(prefix) and model[len(prefix) :] in registry.catalog.domains:
        return model[len(prefix) :]
    raise NotFound(f"The model '{model}' does not exist", param="model", details=None)


@router.get("/v1/models")
async def list_models(settings: SettingsDep, registry: RegistryDep) -> dict[str, Any]:
    created = int(time.time())
    ids = [settings.model_name] + [f"{settings.model_name}:{d}" for d in registry.catalog.domains]
    return {
        "object": "list",
        "data": [
            {"id": i, "object": "model", "created": created, "owned_by": "agent-orchestrator"} for i in ids
        ],
    }


def _completion_body(
    run: RunResult, model: str, prompt_tokens: int, completion_id: str, created: int
) -> dict:
    completion_tokens = _count_tokens(run.answer)
    return {
        "id": completion_id,
        "object": "chat.completion",
        "created": created,
        "model": model,
        "system_fingerprint": None,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": run.answer, "refusal": None},
                "logprobs": None,
                "finish_reason": "stop",
            }
        ],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        },
        "run": {"run_id": run.run_id, "status": run.status.value},
    }


@router.post("/v1/chat/completions", response_model=None)
async def chat_completions(
    body: ChatCompletionRequest,
    request: Request,
    response: Response,
    settings: SettingsDep,
    registry: RegistryDep,
    turns: TurnsDep,
) -> JSONResponse | EventSourceResponse:
    pinned = _pinned_domain(body.model, settings.model_name, registry)
    user_messages = [m for m in body.messages if m.role == "user" and m.text().strip()]
    if not user_messages:
        raise InvalidRequest("messages must contain at least one user message with text", param="messages")
    text = user_messages[-1].text().strip()
    session_id = session_id_from(request, body.metadata)
    entry = EntryRequest(
        session_id=session_id,
        input_text=text,
        channel="openai",
        metadata={k: v for k, v in (body.metadata or {}).items() if k != "session_id"},
        pinned_domain=pinned,
    )
    prompt_tokens = sum(_count_tokens(m.text()) for m in body.messages)
    completion_id = f"chatcmpl-{uuid.uuid4().hex}"
    created = int(time.time())
    headers = {"X-Session-Id": session_id}
    if not body.stream:
        run = await turns.handle(entry)
        headers["X-Run-Id"] = run.run_id
        return JSONResponse(
            _completion_body(run, body.model, prompt_tokens, completion_id, created), headers=headers
        )

    include_usage = bool(body.stream_options and body.stream_options.include_usage)

    def chunk(delta: dict[str, Any], finish: str | None = None) -> str:
        return json.dumps(
            {
                "id": completion_id,
                "object": "chat.completion.chunk",
                "created": created,
                "model": body.model,
                "system_fingerprint": None,
                "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}],
            }
        )

    show_progress = bool((body.metadata or {}).get("show_progress"))

    async def events() -> AsyncIterator[dict[str, str]]:
        yield {"data": chunk({"role": "assistant", "content": ""})}
        run_id = new_run_id()
        turns.events.open(run_id)
        turn = asyncio.create_task(turns.handle(entry, run_id=run_id))
        # step progress before the answer: an extra "progress" field (ignored by plain OpenAI
        # clients) and, when metadata.show_progress is set, a visible line per finished step
        async for event in turns.events.follow(run_id):
            if event["type"] != "step" or event["status"] == "pending":
                continue
            progress = {k: event[k] for k in ("step_id", "capability", "status")}
            text = (
                f"[{event['capability']}: {event['status']}]\n"
                if show_progress and event["status"] not in ("executing", "pending")
                else ""
            )
            yield {"data": chunk({"content": text, "progress": progress})}
        try:
            run = await turn
        except PlatformError as exc:
            # mid-stream errors travel as an OpenAI error object, then the stream ends
            yield {"data": json.dumps(error_body(exc.message, exc.error_type, exc.code, exc.param))}
            yield {"data": "[DONE]"}
            return
        words = run.answer.split(" ")
        # a few chunks rather than one: clients render progressively
        size = max(1, len(words) // 8)
        for i in range(0, len(words), size):
            piece = " ".join(words[i : i + size])
            yield {"data": chunk({"content": piece if i == 0 else " " + piece})}
        yield {"data": chunk({}, "stop")}
        if include_usage:
            completion_tokens = _count_tokens(run.answer)
            yield {
                "data": json.dumps(
                    {
                        "id": completion_id,
                        "object": "chat.completion.chunk",
                        "created": created,
                        "model": body.model,
                        "choices": [],
                        "usage": {
                            "prompt_tokens": prompt_tokens,
                            "completion_tokens": completion_tokens,
                            "total_tokens": prompt_tokens + completion_tokens,
                        },
                    }
                )
            }
        yield {"data": "[DONE]"}

    return EventSourceResponse(events(), headers=headers, ping=600)
