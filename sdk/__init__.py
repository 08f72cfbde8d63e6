"""The domain SDK: declare capabilities and goals in Python, get ``/health``, ``/manifest`` and
``/execute`` for free (:mod:`sdk.service`), answer with :func:`clarify` / :func:`fail`
(:mod:`sdk.answers`), and run each ``Idempotency-Key`` once, durably (:mod:`sdk.idempotency`)."""

from sdk.answers import clarify, error_body, fail, option
from sdk.http_app import serve
from sdk.idempotency import IdempotencySettings, IdempotencyStore, IdempotencyStoreUnavailable, current_key
from sdk.service import DomainService

__all__ = [
    "DomainService",
    "IdempotencySettings",
    "IdempotencyStore",
    "IdempotencyStoreUnavailable",
    "clarify",
    "current_key",
    "error_body",
    "fail",
    "option",
    "serve",
]
