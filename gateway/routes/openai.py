"""OpenAI-compatible chat: ``POST /v1/chat/completions`` (plain and SSE), ``GET /v1/models`` and
``GET /v1/models/{model}``, with nothing in a body or chunk that the OpenAI API does not define.

Step progress is opt-in (``metadata.show_progress``): one line per step, in the person's language,
inside standard ``delta.content`` before the answer. Token counts are estimates (whitespace words),
since no tokenizer is involved in answering.
"""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from collections.abc import AsyncIterator
from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse
from sse_starlette.sse import EventSourceResponse

from gateway.deps import RegistryDep, SettingsDep, TurnsDep, session_id_from
from gateway.errors import error_body
from gateway.openai_wire import ChatCompletionRequest, check_request, show_progress
from gateway.progress import progress_text
from gateway.turn import new_run_id
from shared.errors import InvalidRequest, NotFound, PlatformError
from shared.i18n import language_of
from shared.models import EntryRequest, RunResult

router = APIRouter()


def _count_tokens(text: str) -> int:
    return len(text.split())


def _pinned_domain(model: str, settings_model: str, registry: RegistryDep) -> str | None:
    if model == settings_model:
        return None
    prefix = f"{settings_model}:"
    if model.startswith(prefix) and model[len(prefix) :] in registry.catalog.domains:
        return model[len(prefix) :]
    raise NotFound(f"The model '{model}' does not exist", param="model", details=None)


def _model_ids(settings: SettingsDep, registry: RegistryDep) -> list[str]:
    return [settings.model_name] + [f"{settings.model_name}:{d}" for d in registry.catalog.domains]


def _model(model_id: str, created: int) -> dict[str, Any]:
    return {"id": model_id, "object": "model", "created": created, "owned_by": "agent-orchestrator"}


@router.get("/v1/models")
async def list_models(settings: SettingsDep, registry: RegistryDep) -> dict[str, Any]:
    created = int(time.time())
    return {"object": "list", "data": [_model(i, created) for i in _model_ids(settings, registry)]}


@router.get("/v1/models/{model_id:path}")
async def retrieve_model(model_id: str, settings: SettingsDep, registry: RegistryDep) -> dict[str, Any]:
    if model_id not in _model_ids(settings, registry):
        raise NotFound(f"The model '{model_id}' does not exist", param="model")
    return _model(model_id, int(time.time()))


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
    check_request(body)
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

    progress_wanted = show_progress(body.metadata)
    language = language_of(body.metadata or {}, text)

    async def events() -> AsyncIterator[dict[str, str]]:
        yield {"data": chunk({"role": "assistant", "content": ""})}
        run_id = new_run_id()
        turns.events.open(run_id)
        turn = asyncio.create_task(turns.handle(entry, run_id=run_id))
        # opted-in progress: one line per kind of step as it starts, never twice the same line
        shown: set[str] = set()
        async for event in turns.events.follow(run_id):
            if not progress_wanted or event["type"] != "step" or event["status"] != "executing":
                continue
            line = progress_text(
                registry.catalog,
                event.get("domain"),
                event.get("capability"),
                event.get("language") or language,
            )
            if line not in shown:
                shown.add(line)
                yield {"data": chunk({"content": f"{line}\n\n"})}
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
