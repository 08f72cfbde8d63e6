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

import asyncio
import json
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from sse_starlette.sse import EventSourceResponse

from gateway.channels.openai_core import (
    answer_pieces,
    conversation_session,
    count_tokens,
    last_user_message,
    pinned_domain,
    turn_entry,
)
from gateway.channels.openai_wire import ChatCompletionRequest, check_request, show_progress
from gateway.channels.progress import progress_text
from gateway.channels.streams import start_turn
from gateway.deps import PrincipalDep, RegistryDep, SettingsDep
from gateway.deps import services as services_of
from gateway.errors import error_body
from gateway.storage.history import ConversationPoints, Utterance, following_key, point_after, utterance
from gateway.turns.idempotency import HEADER, REPLAYED_HEADER, idempotent_run_id, replayable
from gateway.turns.turn import UNFINISHED_RUN, TracedTurn, TurnService
from shared.catalog import Catalog
from shared.errors import InvalidRequest, NotFound, PlatformError
from shared.events import StepEvent
from shared.i18n import language_of
from shared.models import RunResult
from shared.status import RunStatus

router = APIRouter()


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


@dataclass(frozen=True)
class Completion:
    """One completion's identity, and the bodies and chunks it is answered with."""

    model: str
    prompt_tokens: int
    id: str = field(default_factory=lambda: f"chatcmpl-{uuid.uuid4().hex}")
    created: int = field(default_factory=lambda: int(time.time()))

    def usage(self, answer: str) -> dict[str, int]:
        completion_tokens = count_tokens(answer)
        return {
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": self.prompt_tokens + completion_tokens,
        }

    def body(self, run: RunResult) -> dict[str, Any]:
        return {
            "id": self.id,
            "object": "chat.completion",
            "created": self.created,
            "model": self.model,
            "system_fingerprint": None,
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": run.answer, "refusal": None},
                    "logprobs": None,
                    "finish_reason": "stop",
                }
            ],
            "usage": self.usage(run.answer),
        }

    def chunk(self, delta: dict[str, Any], finish: str | None = None) -> str:
        return json.dumps(
            {
                "id": self.id,
                "object": "chat.completion.chunk",
                "created": self.created,
                "model": self.model,
                "system_fingerprint": None,
                "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}],
            }
        )

    def usage_chunk(self, answer: str) -> str:
        return json.dumps(
            {
                "id": self.id,
                "object": "chat.completion.chunk",
                "created": self.created,
                "model": self.model,
                "choices": [],
                "usage": self.usage(answer),
            }
        )


async def _replayed(
    body: ChatCompletionRequest, keyed_run_id: str, tenant: str, turns: TurnService, completion: Completion
) -> JSONResponse | None:
    """A resend with the same ``Idempotency-Key`` gets the first request's answer, on any gateway."""
    if body.stream:
        raise InvalidRequest(f"{HEADER} is only supported on requests with stream=false", param=HEADER)
    stored = await turns.store.owned_run(keyed_run_id, tenant)
    if stored is None or stored.status in UNFINISHED_RUN:  # in flight, or its gateway died: run it
        return None
    replayed = {"X-Session-Id": stored.session_id, "X-Run-Id": stored.run_id, REPLAYED_HEADER: "true"}
    return JSONResponse(completion.body(replayable(stored)), headers=replayed)


def _remembering(
    turns: TurnService,
    points: ConversationPoints,
    tenant: str,
    session_id: str,
    derived: bool,
    history: list[Utterance],
    text: str,
) -> Callable[[str, str], Awaitable[None]]:
    """What records, after a turn, the point the client's next resent history continues from."""

    async def remember(run_id: str, sent: str) -> None:
        point = await point_after(turns.engine, session_id, run_id) if derived else None
        if point is not None:
            said = [utterance("user", text), utterance("assistant", sent)]
            await points.put(point, tenant, {following_key(tenant, history, said): None})

    return remember


@router.post("/v1/chat/completions", response_model=None)
async def chat_completions(
    body: ChatCompletionRequest,
    request: Request,
    principal: PrincipalDep,
) -> JSONResponse | EventSourceResponse:
    # the app's services from the request's state: a turn route solves no dependency for them
    services = services_of(request)
    settings, registry, turns, points = services.settings, services.registry, services.turns, services.points
    check_request(body)
    pinned = pinned_domain(body.model, settings.model_name, registry)
    last_user, text = last_user_message(body.messages, param="messages", what="messages")
    completion = Completion(body.model, sum(count_tokens(m.text()) for m in body.messages))
    keyed_run_id = idempotent_run_id(request, principal.tenant)
    if keyed_run_id is not None:
        replayed = await _replayed(body, keyed_run_id, principal.tenant, turns, completion)
        if replayed is not None:
            return replayed
    history = [u for m in body.messages[:last_user] if (u := utterance(m.role, m.text())) is not None]
    session_id, derived = await conversation_session(
        request, body.metadata, history, turns, points, principal.tenant
    )
    entry = turn_entry(session_id, text, body.metadata, pinned)
    remember = _remembering(turns, points, principal.tenant, session_id, derived, history, text)
    headers = {"X-Session-Id": session_id}
    if not body.stream:
        replay = keyed_run_id is not None
        run = await turns.handle(entry, keyed_run_id, tenant=principal.tenant, replay_stored=replay)
        await remember(run.run_id, run.answer)
        headers["X-Run-Id"] = run.run_id
        return JSONResponse(completion.body(run), headers=headers)
    # a refused turn (busy session, ...) is an HTTP error, before the stream starts
    run_id, turn = await start_turn(turns, entry, principal.tenant)
    headers["X-Run-Id"] = run_id
    chunks = _chunks(
        completion,
        turn,
        remember,
        progress=_progress_lines(turns, registry.catalog, run_id, body.metadata, text),
        include_usage=bool(body.stream_options and body.stream_options.include_usage),
    )
    return EventSourceResponse(chunks, headers=headers, ping=600)


async def _progress_lines(
    turns: TurnService, catalog: Catalog, run_id: str, metadata: dict[str, Any] | None, text: str
) -> AsyncIterator[str]:
    """Opted-in progress: one line per kind of step as it starts, never twice the same line."""
    wanted = show_progress(metadata)
    language = language_of(metadata or {}, text)
    shown: set[str] = set()
    async for event in turns.events.follow(run_id):
        if not wanted or not isinstance(event, StepEvent) or event.status is not RunStatus.EXECUTING:
            continue
        line = progress_text(catalog, event.domain, event.capability, language)
        if line not in shown:
            shown.add(line)
            yield f"{line}\n\n"


async def _chunks(
    completion: Completion,
    turn: asyncio.Task[TracedTurn],
    remember: Callable[[str, str], Awaitable[None]],
    *,
    progress: AsyncIterator[str],
    include_usage: bool,
) -> AsyncIterator[dict[str, str]]:
    yield {"data": completion.chunk({"role": "assistant", "content": ""})}
    sent: list[str] = []
    async for line in progress:
        sent.append(line)
        yield {"data": completion.chunk({"content": line})}
    try:
        run = (await turn).run
    except PlatformError as exc:
        # mid-stream errors travel as an OpenAI error object, then the stream ends
        yield {"data": json.dumps(error_body(exc.message, exc.error_type, exc.code, exc.param))}
        yield {"data": "[DONE]"}
        return
    for piece in answer_pieces(run.answer):
        sent.append(piece)
        yield {"data": completion.chunk({"content": piece})}
    await remember(run.run_id, "".join(sent))
    yield {"data": completion.chunk({}, "stop")}
    if include_usage:
        yield {"data": completion.usage_chunk(run.answer)}
    yield {"data": "[DONE]"}
