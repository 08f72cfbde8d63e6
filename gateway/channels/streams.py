"""Turns answered as a stream: the turn is started, and the HTTP answer begins only once the turn
holds its session, so a refusal (a busy session under ``DOUBLE_TEXTING=reject``, a session the
caller may not use) is still an ordinary HTTP error rather than an error inside a 200 stream."""

from __future__ import annotations

import asyncio

from gateway.turns.turn import TracedTurn, TurnService, new_run_id
from shared.events import RunFinished
from shared.models import EntryRequest


async def start_turn(
    turns: TurnService, entry: EntryRequest, tenant: str
) -> tuple[str, asyncio.Task[TracedTurn]]:
    """The run id and the running turn, returned once the turn has started executing; raises the
    turn's error if it failed before that."""
    run_id = new_run_id()
    turns.open_run(run_id, tenant)
    task = asyncio.create_task(turns.handle_traced(entry, run_id=run_id, tenant=tenant))
    async for event in turns.events.follow(run_id):
        if isinstance(event, RunFinished):
            await task  # it failed before starting: its error is the answer
        break  # the first event: the turn holds the session and runs
    return run_id, task
