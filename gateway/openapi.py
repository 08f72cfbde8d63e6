"""The gateway's OpenAPI document as the server really answers.

FastAPI documents a 422 with its own validation body on every route that takes input, and nothing
else. The gateway answers a bad request with 400 in OpenAI's error shape (:mod:`gateway.errors`),
and every other refusal in that same shape. :func:`install_openapi` post-processes the generated
document once: the 422 is gone, and each operation lists the error answers it can give, derived
from what the route is (behind the API key, admin only, takes input, looks a resource up, runs a
turn) plus a short table of what a few handlers answer beyond that.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

import fastapi.routing
from fastapi import FastAPI
from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute
from pydantic import BaseModel, ConfigDict, Field
from pydantic.json_schema import models_json_schema
from starlette.routing import BaseRoute

from gateway.deps import CheckedRequest, current_principal, require_admin
from gateway.telemetry import is_turn_route


class ErrorDetail(BaseModel):
    message: str = Field(description="What went wrong, for a person to read")
    type: str = Field(description="The error's kind: invalid_request_error, authentication_error, ...")
    param: str | None = Field(description="The request field at fault (``messages[0].role``), if one is")
    code: str | None = Field(description="A stable code for programs: invalid_request, not_found, ...")


class ErrorResponse(BaseModel):
    """Every error the gateway answers, in OpenAI's shape."""

    error: ErrorDetail


class RunAccepted(BaseModel):
    """``POST /v1/runs`` with ``background: true``: the run is accepted and runs after the answer."""

    model_config = ConfigDict(extra="allow")
    run_id: str
    status: str = Field(description="The run's status when it was accepted (see GET /v1/runs/{run_id})")
    session_id: str | None = None
    events_url: str | None = Field(default=None, description="Its Server-Sent Events")


class Readiness(BaseModel):
    """``/ready``: what was checked, and (when not ready) what is down."""

    model_config = ConfigDict(extra="allow")
    status: str
    checks: dict[str, Any]
    down: list[str] | None = None


_DESCRIPTIONS = {
    202: "Accepted: the run goes on in the background",
    400: "Invalid request; `error.param` names the field at fault",
    401: "Missing or unknown API key",
    403: "The key's role may not do this, or the channel is disabled",
    404: "Not found (or not the caller's tenant's)",
    409: "Conflict: the session is busy, was reset, or the id is taken",
    413: "Request body too large",
    429: "Rate or concurrency limit of the key reached; see `Retry-After`",
    503: "A store or domain the request needs is unavailable; nothing was run, retry later",
}

#: What a handler answers beyond the rules of :func:`error_codes` (method, path template): code ->
#: body model (``None``: :class:`ErrorResponse`).
_ROUTE_EXTRAS: dict[tuple[str, str], dict[int, type[BaseModel] | None]] = {
    ("POST", "/v1/runs"): {202: RunAccepted},
    # a finished or an interactive run cannot be cancelled; every POST body is size-checked
    ("POST", "/v1/runs/{run_id}/cancel"): {409: None, 413: None},
    # a retry is a background run: 202, or a full queue; only a failed run is retried
    ("POST", "/v1/runs/{run_id}/retry"): {202: RunAccepted, 409: None, 413: None, 503: None},
    ("GET", "/ready"): {503: Readiness},
    # approvals need an approver key; a decision runs a turn, refused once decided or expired
    ("GET", "/v1/approvals"): {403: None},
    ("POST", "/v1/approvals/{approval_id}/approve"): {403: None, 409: None, 413: None, 503: None},
    ("POST", "/v1/approvals/{approval_id}/reject"): {403: None, 409: None, 413: None, 503: None},
    # standing requests: a tenant's limit (409); pause/resume are bodiless POSTs, size-checked
    ("POST", "/v1/schedules"): {409: None},
    ("POST", "/v1/schedules/{standing_id}/pause"): {413: None},
    ("POST", "/v1/schedules/{standing_id}/resume"): {413: None},
    # the shared registry's version is read from Redis; registration fetches the manifest
    ("GET", "/v1/domains"): {503: None},
    ("POST", "/v1/domains"): {503: None},
    ("DELETE", "/v1/domains/{name}"): {503: None},
    # versions before a reset are gone; a fork's new id may be taken
    ("GET", "/v1/sessions/{session_id}/versions/{version}"): {409: None},
    ("POST", "/v1/sessions/{session_id}/fork"): {409: None},
    # a reset takes the session lock
    ("DELETE", "/v1/sessions/{session_id}"): {409: None, 503: None},
    # the webhook's own secret (403 while disabled), its own body parsing, then a turn
    ("POST", "/channels/telegram/webhook"): {
        400: None,
        401: None,
        403: None,
        409: None,
        413: None,
        503: None,
    },
}

#: Operations that answer Server-Sent Events: always (True), or when the body sets ``stream``.
_EVENT_STREAMS: dict[tuple[str, str], bool] = {
    ("GET", "/v1/runs/{run_id}/events"): True,
    ("POST", "/v1/chat/completions"): False,
    ("POST", "/v1/responses"): False,
}
#: Each event's ``data``: a JSON object of the route's own (or ``[DONE]``), described in its docs.
_EVENT_STREAM = {"text/event-stream": {"schema": {"description": "One Server-Sent Event's data"}}}


def _dependants(dependant: Dependant) -> Iterator[Dependant]:
    """``dependant`` and every dependency under it."""
    yield dependant
    for sub in dependant.dependencies:
        yield from _dependants(sub)


def api_routes(routes: Iterable[BaseRoute]) -> Iterator[APIRoute]:
    """Every API route of ``routes`` as the app serves it (its router's dependencies included)."""
    # FastAPI keeps included routers whole and resolves each route in a context of its includes;
    # older versions copied every route into the app's list
    contexts = getattr(fastapi.routing, "iter_route_contexts", None)
    if contexts is None:
        yield from (r for r in routes if isinstance(r, APIRoute))
        return
    for context in contexts(list(routes)):
        if isinstance(context.original_route, APIRoute):
            yield context  # the route's attributes, resolved in its includes' context


def error_codes(route: APIRoute, method: str) -> set[int]:
    """The error statuses ``route`` can answer for ``method``, from what it depends on and takes."""
    every = list(_dependants(route.dependant))
    calls = {d.call for d in every if d.call is not None}
    # a path parameter may be read by a dependency (the session routes' owner check) only
    path_params = any(d.path_params for d in every)
    codes: set[int] = set()
    if current_principal in calls:
        # per-key quotas apply wherever a key is checked
        codes |= {401, 429}
    if require_admin in calls:
        codes |= {401, 403}
    takes_input = path_params or any(d.query_params for d in every) or route.body_field is not None
    if CheckedRequest.dependency in calls or takes_input:
        codes.add(400)
    if route.body_field is not None:
        codes.add(413)
    if path_params:
        codes.add(404)
    if is_turn_route(method, route.path_format):
        # model or session not the caller's (404), session busy (409), shared store down (503)
        codes |= {404, 409, 503}
    return codes


def _error_ref(model: type[BaseModel]) -> dict[str, Any]:
    return {"application/json": {"schema": {"$ref": f"#/components/schemas/{model.__name__}"}}}


#: Refusals a client may retry say when (quotas, a full background queue, Redis down).
_RETRY_AFTER = {
    "Retry-After": {"description": "Seconds to wait before retrying", "schema": {"type": "string"}}
}


def _error_response(code: int, model: type[BaseModel]) -> dict[str, Any]:
    response: dict[str, Any] = {"description": _DESCRIPTIONS[code], "content": _error_ref(model)}
    if code in (429, 503):
        response["headers"] = _RETRY_AFTER
    return response


def describe_responses(document: dict[str, Any], routes: Iterable[BaseRoute]) -> dict[str, Any]:
    """``document`` (FastAPI's) with the gateway's real error answers instead of the 422."""
    for route in api_routes(routes):
        if not route.include_in_schema:
            continue
        for method in route.methods or ():
            operation = document["paths"].get(route.path_format, {}).get(method.lower())
            if operation is None:
                continue
            responses: dict[str, Any] = operation.setdefault("responses", {})
            responses.pop("422", None)
            streams_only = _EVENT_STREAMS.get((method, route.path_format))
            if streams_only is not None and "200" in responses:
                content = {} if streams_only else responses["200"].get("content", {})
                responses["200"]["content"] = {**content, **_EVENT_STREAM}
            extras = _ROUTE_EXTRAS.get((method, route.path_format), {})
            models: dict[int, type[BaseModel]] = {code: ErrorResponse for code in error_codes(route, method)}
            models.update({code: model or ErrorResponse for code, model in extras.items()})
            for code in sorted(models):
                responses.setdefault(str(code), _error_response(code, models[code]))
    schemas = document.setdefault("components", {}).setdefault("schemas", {})
    _, generated = models_json_schema(
        [(m, "serialization") for m in (ErrorResponse, RunAccepted, Readiness)],
        ref_template="#/components/schemas/{model}",
    )
    schemas.update(generated.get("$defs", {}))
    # FastAPI's validation bodies, which no answer has any more
    for unused in ("HTTPValidationError", "ValidationError"):
        if f"#/components/schemas/{unused}" not in str(document["paths"]):
            schemas.pop(unused, None)
    return document


def install_openapi(app: FastAPI) -> None:
    """Serve :func:`describe_responses` of FastAPI's document at ``/openapi.json`` (built once)."""
    generate = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = describe_responses(generate(), app.routes)
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
