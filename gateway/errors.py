"""Errors to HTTP in one place, one body shape (OpenAI's): ``{"error": {message, type, param, code}}``.

No stack trace ever reaches a client; unexpected errors are logged with their traceback and
answered with a plain 500.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from sqlalchemy.exc import DBAPIError
from starlette.exceptions import HTTPException as StarletteHTTPException

from shared.errors import ErrorBody, PlatformError

log = logging.getLogger(__name__)

#: What an unreachable Redis raises (redis-py wraps socket errors in these).
REDIS_OUTAGE = (RedisConnectionError, RedisTimeoutError)


class SharedStoreUnavailable(PlatformError):
    """Redis (the store gateways share: session locks, registry version) could not be reached.

    A 503 the client may retry, never a generic 500."""

    status_code = 503
    code = "service_unavailable"
    error_type = "server_error"


class StorageUnavailable(PlatformError):
    """The database refused a read or a write (down, full, locked past its timeout): a 503 the
    client may retry. A turn that could not be recorded has run no step (gateway/turns/reservation.py)."""

    status_code = 503
    code = "storage_unavailable"
    error_type = "server_error"


def storage_unavailable() -> StorageUnavailable:
    return StorageUnavailable("The database cannot record this request right now; try again shortly.")


class RetryLater(PlatformError):
    """A refusal the client should retry after ``retry_after_s`` (a quota, a full queue): answered
    with a ``Retry-After`` header, which OpenAI's SDKs honour when they back off."""

    def __init__(self, message: str, *, retry_after_s: float, param: str | None = None):
        super().__init__(message, param=param)
        self.retry_after_s = retry_after_s


def shared_store_unavailable() -> SharedStoreUnavailable:
    return SharedStoreUnavailable(
        "The shared store (Redis) is unreachable; the request was not run. Try again shortly."
    )


@contextmanager
def shared_store_errors() -> Iterator[None]:
    """Redis outages raised inside become :class:`SharedStoreUnavailable` (a platform error, so
    every channel, streams included, answers it in its own shape)."""
    try:
        yield
    except REDIS_OUTAGE:
        raise shared_store_unavailable() from None


def shared_store_call(call: Callable[[], Awaitable[None]]) -> Callable[[], Awaitable[None]]:
    """``call`` with :func:`shared_store_errors` around it (a hook that talks to Redis)."""

    async def guarded() -> None:
        with shared_store_errors():
            await call()

    return guarded


_HTTP_TYPES = {
    400: ("invalid_request_error", "invalid_request"),
    401: ("authentication_error", "invalid_api_key"),
    403: ("permission_error", "forbidden"),
    404: ("not_found_error", "not_found"),
    405: ("invalid_request_error", "method_not_allowed"),
    409: ("conflict_error", "conflict"),
    413: ("invalid_request_error", "payload_too_large"),
    415: ("invalid_request_error", "unsupported_media_type"),
    429: ("rate_limit_error", "rate_limited"),
    503: ("server_error", "service_unavailable"),
}


def error_body(message: str, type_: str, code: str | None, param: str | None = None) -> ErrorBody:
    return {"error": {"message": message, "type": type_, "param": param, "code": code}}


def error_response(
    status: int,
    message: str,
    *,
    type_: str | None = None,
    code: str | None = None,
    param: str | None = None,
    headers: dict[str, str] | None = None,
) -> JSONResponse:
    default_type, default_code = _HTTP_TYPES.get(status, ("server_error", "internal_error"))
    return JSONResponse(
        error_body(message, type_ or default_type, code or default_code, param), status, headers=headers
    )


def field_path(loc: Sequence[Any]) -> str:
    """``("body", "messages", 0, "role")`` -> ``messages[0].role``."""
    out = ""
    for part in loc:
        if part in ("body", "query", "path", "header"):
            continue
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


#: What pydantic says when the body is not an object at all (form-encoded, a JSON array, empty).
_NOT_AN_OBJECT = {"model_attributes_type", "model_type", "dict_type", "missing"}
BODY_MUST_BE_JSON = "The request body must be a JSON object, sent with Content-Type: application/json."


def validation_error_response(errors: Sequence[Any]) -> JSONResponse:
    """A request that failed validation: 400 naming the first bad field in ``param``.

    >>> import json
    >>> body = lambda r: json.loads(r.body)["error"]
    >>> body(validation_error_response([{"type": "extra_forbidden", "loc": ("body", "foo"), "msg": "x"}]))
    {'message': 'Unrecognized request argument supplied: foo', 'type': 'invalid_request_error', \
'param': 'foo', 'code': 'invalid_request'}
    >>> not_an_object = {"type": "model_attributes_type", "loc": ("body",), "msg": "x"}
    >>> body(validation_error_response([not_an_object]))["message"]
    'The request body must be a JSON object, sent with Content-Type: application/json.'
    """
    first: dict[str, Any] = errors[0] if errors else {"loc": (), "msg": "invalid request body"}
    loc = tuple(first.get("loc") or ())
    if first.get("type") == "json_invalid":  # its loc is a character offset, not a field
        where = loc[-1] if loc else "?"
        reason = (first.get("ctx") or {}).get("error", "JSON decode error")
        message = f"The request body is not valid JSON: {reason} (at character {where})"
        return error_response(400, message, code="invalid_json")
    if loc == ("body",) and first.get("type") in _NOT_AN_OBJECT:
        return error_response(400, BODY_MUST_BE_JSON, code="invalid_json")
    param = field_path(loc) or None
    if first.get("type") == "extra_forbidden":
        # OpenAI's own wording for a field its API does not define
        message = f"Unrecognized request argument supplied: {param}"
    else:
        message = f"{param}: {first['msg']}" if param else str(first["msg"])
    if len(errors) > 1:
        message += (
            f" (and {len(errors) - 1} more: "
            + ", ".join(field_path(e["loc"]) or "body" for e in errors[1:5])
            + ")"
        )
    return error_response(400, message, param=param, code="invalid_request")


def platform_error_response(exc: PlatformError) -> JSONResponse:
    headers = {"x-should-retry": "false"} if exc.status_code == 409 else None
    if isinstance(exc, (SharedStoreUnavailable, StorageUnavailable)):
        headers = {"Retry-After": "1"}  # nothing ran: a retry is safe once Redis is back
    elif isinstance(exc, RetryLater):
        headers = {"Retry-After": str(max(1, math.ceil(exc.retry_after_s)))}  # whole seconds, as HTTP says
    return error_response(
        exc.status_code, exc.message, type_=exc.error_type, code=exc.code, param=exc.param, headers=headers
    )


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(PlatformError)
    async def _platform(_: Request, exc: PlatformError) -> JSONResponse:
        if exc.status_code >= 500:
            log.warning("%s: %s", exc.code, exc.message)
        return platform_error_response(exc)

    @app.exception_handler(RequestValidationError)
    async def _validation(_: Request, exc: RequestValidationError) -> JSONResponse:
        return validation_error_response(exc.errors())

    @app.exception_handler(StarletteHTTPException)
    async def _http(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        message = exc.detail if isinstance(exc.detail, str) else "request failed"
        return error_response(exc.status_code, message, headers=getattr(exc, "headers", None))

    @app.exception_handler(RedisConnectionError)
    @app.exception_handler(RedisTimeoutError)
    async def _shared_store(_: Request, exc: Exception) -> JSONResponse:
        # any Redis call a route makes outside shared_store_errors(): still a 503, not a 500
        log.warning("shared store unreachable: %s", type(exc).__name__)
        return platform_error_response(shared_store_unavailable())

    @app.exception_handler(DBAPIError)
    async def _storage(_: Request, exc: Exception) -> JSONResponse:
        # a route's own read or write the database refused: a 503 to retry, not a 500
        log.warning("database refused a statement: %s", type(exc).__name__)
        return platform_error_response(storage_unavailable())

    @app.exception_handler(Exception)
    async def _unexpected(_: Request, exc: Exception) -> JSONResponse:
        log.exception("unhandled error")
        # the server closes the connection after an unhandled error: say so, so a keep-alive
        # client does not send its next request on it
        return error_response(
            500, "The server had an error while processing your request.", headers={"Connection": "close"}
        )
