"""HMAC-SHA256 signatures of ``/execute`` calls: the gateway signs, the domain SDK verifies.

The header is ``X-Domain-Signature: t=<unix seconds>,v2=<hex HMAC-SHA256 of
"<t>\\n<Idempotency-Key>\\n" + body>``. The key is signed with the body, so a captured call
replayed under another key (or none) is refused instead of running again; a signature older or
newer than :data:`MAX_SKEW_S` is refused, so a captured call cannot be replayed later.

>>> header = sign(b"secret", b'{"a": 1}', idempotency_key="run-1:1", now=1000)
>>> header
't=1000,v2=...'
>>> verify(b"secret", b'{"a": 1}', header, idempotency_key="run-1:1", now=1100)
>>> verify(b"secret", b'{"a": 1}', header, idempotency_key="run-1:2", now=1100)
Traceback (most recent call last):
...
shared.signing.SignatureInvalid: signature does not match the call
>>> verify(b"secret", b'{"a": 2}', header, idempotency_key="run-1:1", now=1100)
Traceback (most recent call last):
...
shared.signing.SignatureInvalid: signature does not match the call
"""

from __future__ import annotations

import hashlib
import hmac
import time

#: The request header that carries the signature.
SIGNATURE_HEADER = "X-Domain-Signature"
#: How far the signature's timestamp may be from the verifier's clock.
MAX_SKEW_S = 300


class SignatureInvalid(ValueError):
    """The signature is missing, malformed, expired or does not match the body and key."""


def _digest(secret: bytes, timestamp: int, idempotency_key: str, body: bytes) -> str:
    # a header value holds no newline, so the key cannot be confused with the start of the body
    signed = f"{timestamp}\n{idempotency_key}\n".encode() + body
    return hmac.new(secret, signed, hashlib.sha256).hexdigest()


def sign(secret: bytes, body: bytes, *, idempotency_key: str = "", now: float | None = None) -> str:
    """The header value for ``body`` sent with ``idempotency_key`` (``""``: none), signed at
    ``now`` (the current time by default)."""
    if "\n" in idempotency_key or "\r" in idempotency_key:
        raise ValueError("an idempotency key holds no line break")
    timestamp = int(time.time() if now is None else now)
    return f"t={timestamp},v2={_digest(secret, timestamp, idempotency_key, body)}"


def verify(
    secret: bytes,
    body: bytes,
    header: str | None,
    *,
    idempotency_key: str = "",
    now: float | None = None,
) -> None:
    """Raise :class:`SignatureInvalid` unless ``header`` signs ``body`` and ``idempotency_key``
    (``""``: the call carried none) with ``secret`` within :data:`MAX_SKEW_S` of ``now``."""
    if not header:
        raise SignatureInvalid("missing signature")
    fields = dict(part.split("=", 1) for part in header.split(",") if "=" in part)
    stamp, given = fields.get("t", ""), fields.get("v2", "")
    if not stamp.isdigit() or len(stamp) > 12 or not given:
        raise SignatureInvalid("malformed signature")
    timestamp = int(stamp)
    current = time.time() if now is None else now
    if abs(current - timestamp) > MAX_SKEW_S:
        raise SignatureInvalid("signature expired")
    if not hmac.compare_digest(_digest(secret, timestamp, idempotency_key, body), given):
        raise SignatureInvalid("signature does not match the call")
