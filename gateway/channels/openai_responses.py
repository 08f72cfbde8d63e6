"""OpenAI's Responses API: ``POST /v1/responses`` (plain and streamed with the semantic events) and
``GET /v1/responses/{id}``, with nothing in a body or event that the API does not define.

A response is one turn of a session. ``previous_response_id`` continues the session of that
response from where it stood after it (a fork when the session has moved on since: a branch from
an older response sees only what came before it). A clarification is an ordinary completed
response whose text asks; the next response, naming it, answers. ``store: false`` responses are
neither retrievable nor continuable. Token counts are estimates (whitespace words).
"""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
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
from gateway.channels.responses_wire import (
    InputMessage,
    ResponseCreateRequest,
    check_request,
    input_messages,
    output_message,
    output_text,
    response_body,
    usage,
)
from gateway.channels.streams import start_turn
from gateway.deps import PointsDep, PrincipalDep, new_session_id
from gateway.deps import services as services_of
from gateway.storage.history import (
    ConversationPoints,
    Utterance,
    following_key,
    point_after,
    session_at,
    utterance,
)
from gateway.turns.turn import TracedTurn, TurnService
from shared.errors import Conflict, NotFound, PlatformError
from shared.models import RunResult

router = APIRouter()

RESPONSE_PREFIX = "resp_"


def _stored_id(response_id: str) -> bool:
    # the points table also holds chat-history points, which are not responses
    return response_id.startswith(RESPONSE_PREFIX)


def _not_found(response_id: str, param: str | None) -> NotFound:
    return NotFound(f"Response with id '{response_id}' not found.", param=param)


async def _previous_session(
    previous_id: str, tenant: str, turns: TurnService, points: ConversationPoints
) -> str:
    """The session a response naming ``previous_id`` runs on (a fork when it branches)."""
    point = await points.get(previous_id, tenant) if _stored_id(previous_id) else None
    if point is None:
        raise NotFound(f"Previous response with id '{previous_id}' not found.", param="previous_response_id")
    session_id = await session_at(
        point, turns.engine, turns.store, tenant=tenant, new_session_id=new_session_id()
    )
    if session_id is None:
        raise Conflict(
            f"The conversation of response '{previous_id}' was reset; start a new one without "
            "previous_response_id.",
            param="previous_response_id",
        )
    return session_id


async def _response_session(
    body: ResponseCreateRequest,
    request: Request,
    history: list[Utterance],
    turns: TurnService,
    points: ConversationPoints,
    tenant: str,
) -> tuple[str, bool]:
    """The session this response runs on, and whether it was derived from the input's history
    (not named by ``previous_response_id``)."""
    if body.previous_response_id is not None:
        return await _previous_session(body.previous_response_id, tenant, turns, points), False
    return await conversation_session(request, body.metadata, history, turns, points, tenant)


def _history(body: ResponseCreateRequest, earlier: Sequence[InputMessage]) -> list[Utterance]:
    """What came before this message, as a chat client would resend it (instructions first)."""
    return [
        u
        for u in (
            utterance("system", body.instructions or ""),
            *(utterance(m.role, m.text()) for m in earlier),
        )
        if u is not None
    ]


@router.post("/v1/responses", response_model=None)
async def create_response(
    body: ResponseCreateRequest,
    request: Request,
    principal: PrincipalDep,
) -> JSONResponse | EventSourceResponse:
    # the app's services from the request's state: a turn route solves no dependency for them
    services = services_of(request)
    settings, registry, turns, points = services.settings, services.registry, services.turns, services.points
    check_request(body)
    pinned = pinned_domain(body.model, settings.model_name, registry)
    messages = input_messages(body)
    last_user, text = last_user_message(messages, param="input", what="input")
    tenant = principal.tenant
    history = _history(body, messages[:last_user])
    session_id, derived = await _response_session(body, request, history, turns, points, tenant)
    entry = turn_entry(session_id, text, body.metadata, pinned)
    response_id = f"{RESPONSE_PREFIX}{uuid.uuid4().hex}"
    message_id = f"msg_{uuid.uuid4().hex}"
    created = int(time.time())
    input_tokens = count_tokens(body.instructions or "") + sum(count_tokens(m.text()) for m in messages)
    store = body.store is not False

    def completed(run: RunResult) -> dict[str, Any]:
        return response_body(
            body,
            response_id=response_id,
            created_at=created,
            status="completed",
            output=[output_message(message_id, run.answer)],
            usage_=usage(input_tokens, count_tokens(run.answer)),
            completed_at=int(time.time()),
        )

    async def remember(run: RunResult, sent: dict[str, Any]) -> None:
        point = await point_after(turns.engine, session_id, run.run_id)
        names: dict[str, dict[str, Any] | None] = {}
        if derived:  # the input's history plus this turn: what a client keeping its own sends next
            said = [utterance("user", text), utterance("assistant", run.answer)]
            names[following_key(tenant, history, said)] = None
        if store:
            names[response_id] = sent
        if point is not None and names:
            await points.put(point, tenant, names)

    headers = {"X-Session-Id": session_id}
    if not body.stream:
        run = await turns.handle(entry, tenant=tenant)
        sent = completed(run)
        await remember(run, sent)
        headers["X-Run-Id"] = run.run_id
        return JSONResponse(sent, headers=headers)

    # a refused turn (busy session, ...) is an HTTP error, before the stream starts
    run_id, turn = await start_turn(turns, entry, tenant)
    headers["X-Run-Id"] = run_id
    return EventSourceResponse(
        _events(body, response_id, message_id, created, turn, completed, remember), headers=headers, ping=600
    )


async def _events(
    body: ResponseCreateRequest,
    response_id: str,
    message_id: str,
    created: int,
    turn: asyncio.Task[TracedTurn],
    completed: Callable[[RunResult], dict[str, Any]],
    remember: Callable[[RunResult, dict[str, Any]], Awaitable[None]],
) -> AsyncIterator[dict[str, str]]:
    """The semantic events of one response, in OpenAI's order, numbered by ``sequence_number``."""
    sequence = 0

    def event(kind: str, **fields: Any) -> dict[str, str]:
        nonlocal sequence
        data = {"type": kind, **fields, "sequence_number": sequence}
        sequence += 1
        return {"event": kind, "data": json.dumps(data)}

    started = response_body(
        body, response_id=response_id, created_at=created, status="in_progress", output=[]
    )
    yield event("response.created", response=started)
    yield event("response.in_progress", response=started)
    try:
        run: RunResult = (await turn).run
    except PlatformError as exc:
        error = {"code": "server_error", "message": exc.message}
        failed = response_body(
            body, response_id=response_id, created_at=created, status="failed", output=[], error=error
        )
        yield event("response.failed", response=failed)
        return
    where = {"item_id": message_id, "output_index": 0, "content_index": 0}
    yield event("response.output_item.added", output_index=0, item=output_message(message_id, None))
    yield event("response.content_part.added", **where, part=output_text(""))
    for piece in answer_pieces(run.answer):
        yield event("response.output_text.delta", **where, delta=piece, logprobs=[])
    yield event("response.output_text.done", **where, text=run.answer, logprobs=[])
    yield event("response.content_part.done", **where, part=output_text(run.answer))
    yield event("response.output_item.done", output_index=0, item=output_message(message_id, run.answer))
    final = completed(run)
    await remember(run, final)  # retrievable before the client reads "completed"
    yield event("response.completed", response=final)


@router.get("/v1/responses/{response_id}")
async def retrieve_response(response_id: str, points: PointsDep, principal: PrincipalDep) -> dict[str, Any]:
    found = await points.response(response_id, principal.tenant) if _stored_id(response_id) else None
    if found is None:
        raise _not_found(response_id, "response_id")
    return found


@router.delete("/v1/responses/{response_id}")
async def delete_response(response_id: str, points: PointsDep, principal: PrincipalDep) -> dict[str, Any]:
    """Forget a stored response: no longer retrievable, nor continuable by ``previous_response_id``
    (the session and its runs stay, as the sessions API shows them)."""
    if not (_stored_id(response_id) and await points.delete(response_id, principal.tenant)):
        raise _not_found(response_id, "response_id")
    return {"id": response_id, "object": "response.deleted", "deleted": True}
