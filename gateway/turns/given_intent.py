"""Turns whose message is already understood: a caller that names a goal and its entities (an
MCP goal tool) gets a turn like any message's, with its intent standing in for the parse.

:class:`GivenIntents` wraps the intent adapter of the turn graph. :meth:`GivenIntents.given`
marks the current task (a context variable, so concurrent turns never see each other's) with the
session and the intent; the graph's ``understand`` node then gets that intent instead of parsing
the text, and everything after it (a pending question, follow-ups, planning, the gate, the run) is
what a typed message would get.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from intent import IntentAdapter
from shared.catalog import Catalog
from shared.models import IntentOutput

#: (session id, intent) of the turn the current task is running, when its intent was given.
_GIVEN: ContextVar[tuple[str, IntentOutput] | None] = ContextVar("given_intent", default=None)


class GivenIntents:
    """An :class:`~intent.IntentAdapter` that answers the given intent for the turn it was given
    to, and parses every other message with ``adapter``."""

    def __init__(self, adapter: IntentAdapter):
        self.adapter = adapter
        self.name = adapter.name
        #: The wrapped adapter's default time zone (``INTENT_TIME_ZONE``), which the dialogue's
        #: clock reads for a session that never gave one.
        self.time_zone: str = getattr(adapter, "time_zone", "UTC")

    @staticmethod
    @contextmanager
    def given(session_id: str, intent: IntentOutput) -> Iterator[None]:
        """Within the block, the turn of ``session_id`` run by this task is understood as ``intent``."""
        token = _GIVEN.set((session_id, intent))
        try:
            yield
        finally:
            _GIVEN.reset(token)

    def update_catalog(self, catalog: Catalog) -> None:
        self.adapter.update_catalog(catalog)

    async def update_catalog_async(self, catalog: Catalog) -> None:
        await self.adapter.update_catalog_async(catalog)

    async def parse(
        self, text: str, *, pinned_domain: str | None = None, context: dict[str, Any] | None = None
    ) -> IntentOutput:
        given = _GIVEN.get()
        if given is not None and given[0] == (context or {}).get("session_id"):
            return given[1]
        return await self.adapter.parse(text, pinned_domain=pinned_domain, context=context)
