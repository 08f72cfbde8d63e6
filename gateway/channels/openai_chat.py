"""OpenAI-compatible chat: ``POST /v1/chat/completions`` (plain and SSE), ``GET /v1/models`` and
``GET /v1/models/{model}``, with nothing in a body or chunk that the OpenAI API does not define.

Step progress is opt-in (``metadata.show_progress``): one line per step, in the person's language,
inside standard ``delta.content`` before the answer. Token counts are estimates (whitespace words),
since no tokenizer is involved in answering.

A request that names no session continues the one its resent history belongs to (a fork of it when
the history diverged from the session: an edited message, a regenerated answer), see
:mod:`gateway.storage.history`; docs/openai.md describes it for clients.
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import AsyncIterator
from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse
from sse_starlette.sse import EventSourceResponse

from gateway.channels.openai_wire import ChatCompletionRequest, check_request, show_progress
from gateway.channels.progress import progress_text
from gateway.channels.streams import start_turn
from gateway.deps import (
    SESSION_HEADERS,
    PointsDep,
    PrincipalDep,
    RegistryDep,
    SettingsDep,
    TurnsDep,
    new_session_id,
    session_id_from,
)
from gateway.errors import error_body
from gateway.storage.history import (
    ConversationPoints,
    Utterance,
    following_key,
    point_after,
    session_for_history,
    utterance,
)
from gateway.turns.idempotency import HEADER, REPLAYED_HEADER, idempotent_run_id, replayable
from gateway.turns.turn import TurnService
from shared.errors import InvalidRequest, NotFound, PlatformError
from shared.i18n import language_of
from shared.models import EntryRequest, RunResult

router = APIRouter()


def _count_tokens(text: str) -> int:
    return len(text.split())


def pinned_domain(model: str, settings_model: str, registry: RegistryDep) -> str | None:
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


def has_session_hint(request: Request, metadata: dict[str, Any] | None) -> bool:
    """The client named its session (a session header or ``metadata.session_id``)."""
    named = any((request.headers.get(h) or "").strip() for h in SESSION_HEADERS)
    return named or bool(str((metadata or {}).get("session_id") or "").strip())


async def conversation_session(
    request: Request,
    metadata: dict[str, Any] | None,
    history: list[Utterance],
    turns: TurnService,
    points: ConversationPoints,
    tenant: str,
) -> tuple[str, bool]:
    """The session of a turn, and whether it was derived from the resent ``history`` (whose turns
    then record their points): a named session, else the one the history continues (forked where
    it diverged), else a new one."""
    if has_session_hint(request, metadata):
        return session_id_from(request, metadata), False
    found = await session_for_history(
        points,
        turns.engine,
        turns.store,
        tenant=tenant,
        history=history,
        new_session_id=new_session_id(),
    )
    return found or new_session_id(), True


@router.post("/v1/chat/completions", response_model=None)
async def chat_completions(
    body: ChatCompletionRequest,
    request: Request,
    response: Response,
    settings: SettingsDep,
    registry: RegistryDep,
    turns: TurnsDep,
    points: PointsDep,
    principal: PrincipalDep,
) -> JSONResponse | EventSourceResponse:
    check_request(body)
    pinned = pinned_domain(body.model, settings.model_name, registry)
    last_user = next(
        (
            i
            for i in range(len(body.messages) - 1, -1, -1)
            if body.messages[i].role == "user" and body.messages[i].text().strip()
        ),
        None,
    )
    if last_user is None:
        raise InvalidRequest("messages must contain at least one user message with text", param="messages")
    text = body.messages[last_user].text().strip()
    prompt_tokens = sum(_count_tokens(m.text()) for m in body.messages)
    completion_id = f"chatcmpl-{uuid.uuid4().hex}"
    created = int(time.time())
    # a resend with the same Idempotency-Key gets the first request's answer, on any gateway
    keyed_run_id = idempotent_run_id(request, principal.tenant)
    if keyed_run_id is not None:
        if body.stream:
            raise InvalidRequest(f"{HEADER} is only supported on requests with stream=false", param=HEADER)
        stored = await turns.store.owned_run(keyed_run_id, principal.tenant)
        if stored is not None:
            replayed = {"X-Session-Id": stored.session_id, "X-Run-Id": stored.run_id, REPLAYED_HEADER: "true"}
            run = replayable(stored)
            return JSONResponse(
                _completion_body(run, body.model, prompt_tokens, completion_id, created), headers=replayed
            )
    history = [u for m in body.messages[:last_user] if (u := utterance(m.role, m.text())) is not None]
    session_id, derived = await conversation_session(
        request, body.metadata, history, turns, points, principal.tenant
    )
    entry = EntryRequest(
        session_id=session_id,
        input_text=text,
        channel="openai",
        metadata={k: v for k, v in (body.metadata or {}).items() if k != "session_id"},
        pinned_domain=pinned,
    )

    async def remember(run_id: str, sent: str) -> None:
        # the client's next request resends this history: name the point it continues from
        point = await point_after(turns.engine, session_id, run_id) if derived else None
        if point is not None:
            said = [utterance("user", text), utterance("assistant", sent)]
            await points.put(point, principal.tenant, {following_key(principal.tenant, history, said): None})

    headers = {"X-Session-Id": session_id}
    if not body.stream:
        replay = keyed_run_id is not None
        run = await turns.handle(entry, keyed_run_id, tenant=principal.tenant, replay_stored=replay)
        await remember(run.run_id, run.answer)
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
    # a refused turn (busy session, ...) is an HTTP error, before the stream starts
    run_id, turn = await start_turn(turns, entry, principal.tenant)
    headers["X-Run-Id"] = run_id

    async def events() -> AsyncIterator[dict[str, str]]:
        yield {"data": chunk({"role": "assistant", "content": ""})}
        sent: list[str] = []
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
                sent.append(f"{line}\n\n")
                yield {"data": chunk({"content": f"{line}\n\n"})}
        try:
            run = (await turn).run
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
            sent.append(piece if i == 0 else " " + piece)
            yield {"data": chunk({"content": sent[-1]})}
        await remember(run.run_id, "".join(sent))
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
