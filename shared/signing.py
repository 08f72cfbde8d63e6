"""HMAC-SHA256 signatures of ``/execute`` calls: the gateway signs, the domain SDK verifies.

The header is ``X-Domain-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>." + body>``;
a signature older or newer than :data:`MAX_SKEW_S` is refused, so a captured call cannot be
replayed later.

>>> header = sign(b"secret", b'{"a": 1}', now=1000)
>>> header
't=1000,v1=...'
>>> verify(b"secret", b'{"a": 1}', header, now=1100)
>>> verify(b"secret", b'{"a": 2}', header, now=1100)
Traceback (most recent call last):
...
shared.signing.SignatureInvalid: signature does not match the body
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
    """The signature is missing, malformed, expired or does not match the body."""


def _digest(secret: bytes, timestamp: int, body: bytes) -> str:
    return hmac.new(secret, str(timestamp).encode() + b"." + body, hashlib.sha256).hexdigest()


def sign(secret: bytes, body: bytes, *, now: float | None = None) -> str:
    """The header value for ``body`` signed at ``now`` (the current time by default)."""
    timestamp = int(time.time() if now is None else now)
    return f"t={timestamp},v1={_digest(secret, timestamp, body)}"


def verify(secret: bytes, body: bytes, header: str | None, *, now: float | None = None) -> None:
    """Raise :class:`SignatureInvalid` unless ``header`` signs ``body`` with ``secret`` within
    :data:`MAX_SKEW_S` of ``now``."""
    if not header:
        raise SignatureInvalid("missing signature")
    fields = dict(part.split("=", 1) for part in header.split(",") if "=" in part)
    stamp, given = fields.get("t", ""), fields.get("v1", "")
    if not stamp.isdigit() or len(stamp) > 12 or not given:
        raise SignatureInvalid("malformed signature")
    timestamp = int(stamp)
    current = time.time() if now is None else now
    if abs(current - timestamp) > MAX_SKEW_S:
        raise SignatureInvalid("signature expired")
    if not hmac.compare_digest(_digest(secret, timestamp, body), given):
        raise SignatureInvalid("signature does not match the body")
