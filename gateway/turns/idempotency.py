"""``Idempotency-Key``: a client that resends a request (its gateway died, the answer was lost)
gets the first request's run instead of a second one.

The key names the run: the run id is a hash of the tenant and the key, so every gateway behind a
load balancer finds the same run, and the domains see the same per-step idempotency keys
(``{run_id}:{step}``) when a run that never committed is run again: a domain that keeps its
answers by that key (every SDK domain does) does not act twice.

- the run is stored and finished: its stored answer is sent again (``Idempotent-Replayed: true``);
- the run is stored and still queued or running (a background run): 409, try again later;
- no run yet: it runs under that id.

>>> run_id_for_key("acme", "order-42") == run_id_for_key("acme", "order-42")
True
>>> run_id_for_key("acme", "order-42") != run_id_for_key("globex", "order-42")
True
"""

from __future__ import annotations

import hashlib

from fastapi import Request

from shared.errors import Conflict, InvalidRequest
from shared.models import RunResult
from shared.status import RunStatus

HEADER = "Idempotency-Key"
#: The answer header a replay carries (the name Stripe and others use).
REPLAYED_HEADER = "Idempotent-Replayed"
MAX_KEY_CHARS = 255
#: A stored run that has not ended: a resend must not answer with its half-written trace.
UNFINISHED = frozenset({RunStatus.QUEUED, RunStatus.EXECUTING})


def run_id_for_key(tenant: str, key: str) -> str:
    digest = hashlib.sha256(f"{tenant}\x00{key}".encode()).hexdigest()
    return f"run-{digest[:32]}"


def idempotent_run_id(request: Request, tenant: str) -> str | None:
    """The run id ``request``'s ``Idempotency-Key`` names for ``tenant``, or None without one."""
    key = request.headers.get(HEADER)
    if key is None:
        return None
    key = key.strip()
    if not key or len(key) > MAX_KEY_CHARS or not (key.isascii() and key.isprintable()):
        raise InvalidRequest(
            f"{HEADER} must be 1 to {MAX_KEY_CHARS} printable ASCII characters", param=HEADER
        )
    return run_id_for_key(tenant, key)


def replayable(run: RunResult) -> RunResult:
    """``run`` if its answer can be sent again; 409 while it has not finished."""
    if run.status in UNFINISHED:
        raise Conflict(
            f"The request with this {HEADER} is still running (run '{run.run_id}'); "
            "ask again once it has finished.",
            param=HEADER,
        )
    return run
