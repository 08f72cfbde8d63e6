"""One circuit breaker per domain, on ``purgatory``.

Why purgatory rather than aiobreaker: it is asyncio-native and typed (``py.typed``), creates
breakers by name from one factory (one per domain, made on first use), lets us exclude exception
types (only "could not reach / timed out" counts; a domain's own ``failure`` answer or a
malformed body does not open its circuit), and can keep state in Redis if several gateways ever
need to share it (``AsyncRedisUnitOfWork``). aiobreaker (a pybreaker port) has had no release
since 2021.

States: ``closed`` (calls go through, failures counted) -> ``opened`` after ``threshold``
consecutive failures (calls fail at once, no network) -> ``half-opened`` after ``ttl_s`` (one
trial call: success closes, failure re-opens).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

from purgatory import AsyncCircuitBreakerFactory
from purgatory.domain.model import OpenedState

from shared.errors import DomainUnavailable

T = TypeVar("T")


class CircuitOpen(DomainUnavailable):
    """The domain's circuit is open: the call was not attempted."""

    code = "circuit_open"


class DomainBreakers:
    def __init__(self, *, threshold: int = 5, ttl_s: float = 30.0):
        self.threshold = threshold
        self.ttl_s = ttl_s
        self._factory = AsyncCircuitBreakerFactory(default_threshold=threshold, default_ttl=ttl_s)
        # the in-memory store hands out the live Context objects: keep them to read state sync
        self._known: dict[str, object] = {}

    async def call(self, domain: str, fn: Callable[[], Awaitable[T]]) -> T:
        """Run ``fn`` under ``domain``'s breaker; an open circuit raises :class:`CircuitOpen`
        (``details.delivered = False``) without calling ``fn``."""
        breaker = await self._factory.get_breaker(
            domain,
            # only transport failures count; everything else (incl. cancellation) passes through
            exclude=[(BaseException, lambda exc: not _counts(exc))],
        )
        self._known[domain] = breaker.context
        try:
            async with breaker:
                return await fn()
        except OpenedState:
            raise CircuitOpen(
                f"circuit open after {self.threshold} consecutive failures (retry in up to {self.ttl_s:g} s)",
                details={"delivered": False, "domain": domain},
            ) from None

    def state(self, domain: str) -> str:
        """``closed``, ``opened`` or ``half-opened`` (``closed`` for a domain never called)."""
        context = self._known.get(domain)
        return str(getattr(context, "state", "closed"))

    def is_open(self, domain: str) -> bool:
        """Open and still inside its ttl (after the ttl the next call is the half-open trial)."""
        context = self._known.get(domain)
        if context is None or getattr(context, "state", "closed") != "opened":
            return False
        opened_at = getattr(context, "opened_at", None)
        return opened_at is not None and time.time() < opened_at + self.ttl_s


def _counts(exc: BaseException) -> bool:
    return isinstance(exc, DomainUnavailable) and not isinstance(exc, asyncio.CancelledError)
