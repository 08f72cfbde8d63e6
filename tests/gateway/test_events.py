"""The in-process event hub: late followers see everything; finished runs expire, running ones don't."""

from __future__ import annotations

from gateway.turns.events import TERMINAL_EVENT, RunEventHub


async def test_a_late_follower_gets_every_event_in_order() -> None:
    hub = RunEventHub()
    hub.open("r1")
    await hub.publish("r1", {"type": "run.status", "status": "executing"})
    await hub.publish("r1", {"type": TERMINAL_EVENT, "status": "completed"})
    events = [e async for e in hub.follow("r1")]
    assert [(e["seq"], e["type"]) for e in events] == [(1, "run.status"), (2, TERMINAL_EVENT)]


async def test_finished_runs_expire_and_running_ones_stay() -> None:
    hub = RunEventHub(retain_s=0.0)
    for run_id in ("done-1", "running", "done-2"):
        hub.open(run_id)
    await hub.publish("done-1", {"type": TERMINAL_EVENT})
    await hub.publish("done-2", {"type": TERMINAL_EVENT})
    await hub.publish("done-2", {"type": TERMINAL_EVENT})  # a second terminal event is harmless
    hub.open("next")  # expiry runs when a run opens
    assert not hub.has("done-1") and not hub.has("done-2")
    assert hub.has("running") and hub.has("next")


async def test_finished_runs_are_kept_for_the_retention_time() -> None:
    hub = RunEventHub(retain_s=3600.0)
    hub.open("r1")
    await hub.publish("r1", {"type": TERMINAL_EVENT})
    hub.open("r2")
    assert hub.has("r1")
