"""The platform's one exception tree. Foreign exceptions are translated at the boundary
(``orchestrator.client`` for httpx, ``gateway.errors`` for HTTP); everything raised inside
the platform is a :class:`PlatformError` carrying its HTTP status and a stable code.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypeAlias, TypedDict

#: One object of named details about the error (``{"delivered": False, "domain": ...}``): JSON
#: data for logs, tests and the callers that branch on it, never a live object.
DetailsObject: TypeAlias = Mapping[str, object]
#: ``details``: one object, or a list of them (``[{"path", "message"}]`` of a rejected manifest).
ErrorDetails: TypeAlias = DetailsObject | Sequence[DetailsObject]


class ErrorObject(TypedDict):
    """An HTTP error answer's ``error`` object, in the OpenAI error shape."""

    message: str
    type: str
    param: str | None
    code: str | None


class ErrorBody(TypedDict):
    """The body of an HTTP error answer: ``{"error": {...}}`` (the gateway's and the domains')."""

    error: ErrorObject


class PlatformError(Exception):
    status_code = 500
    code = "internal_error"
    error_type = "server_error"

    def __init__(self, message: str, *, param: str | None = None, details: ErrorDetails | None = None):
        super().__init__(message)
        self.message = message
        self.param = param
        self.details = details


class InvalidRequest(PlatformError):
    status_code = 400
    code = "invalid_request"
    error_type = "invalid_request_error"


class Unauthorized(PlatformError):
    status_code = 401
    code = "invalid_api_key"
    error_type = "authentication_error"


class Forbidden(PlatformError):
    status_code = 403
    code = "forbidden"
    error_type = "permission_error"


class NotFound(PlatformError):
    status_code = 404
    code = "not_found"
    error_type = "not_found_error"


class Conflict(PlatformError):
    status_code = 409
    code = "conflict"
    error_type = "conflict_error"


class PayloadTooLarge(PlatformError):
    status_code = 413
    code = "payload_too_large"
    error_type = "invalid_request_error"


class DomainUnavailable(PlatformError):
    """A domain could not be reached, timed out, or its circuit is open. ``details`` is one
    object: ``delivered`` (False: the request never reached the domain), ``domain``, ``detail``."""

    status_code = 503
    code = "domain_unavailable"
    error_type = "server_error"
    details: DetailsObject

    def __init__(self, message: str, *, param: str | None = None, details: DetailsObject | None = None):
        # always an object (empty when nothing is known), so callers read keys without a None check
        super().__init__(message, param=param, details={} if details is None else details)


class DomainProtocolError(PlatformError):
    """A domain answered, but not with a valid ``DomainOutput`` / manifest."""

    status_code = 502
    code = "domain_protocol_error"
    error_type = "server_error"


class PlanError(PlatformError):
    """A plan that cannot run (cycle, unknown reference, unknown capability)."""

    status_code = 422
    code = "invalid_plan"
    error_type = "invalid_request_error"


class SetupError(PlatformError):
    """A definition error found before anything runs (bad graph, bad config)."""

    code = "setup_error"
