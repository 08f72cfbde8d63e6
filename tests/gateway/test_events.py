"""The in-process event hub: late followers see everything; finished runs expire, running ones don't."""

from __future__ import annotations

from gateway.turns.events import TERMINAL_EVENT, RunEventHub
from shared.events import RunFinished, RunStatusEvent
from shared.status import RunStatus


async def test_a_late_follower_gets_every_event_in_order() -> None:
    hub = RunEventHub()
    hub.open("r1")
    await hub.publish(RunStatusEvent(run_id="r1", status=RunStatus.EXECUTING))
    await hub.publish(RunFinished(run_id="r1", status=RunStatus.COMPLETED))
    events = [e async for e in hub.follow("r1")]
    assert [(e.seq, e.type) for e in events] == [(1, "run.status"), (2, TERMINAL_EVENT)]


async def test_finished_runs_expire_and_running_ones_stay() -> None:
    hub = RunEventHub(retain_s=0.0)
    for run_id in ("done-1", "running", "done-2"):
        hub.open(run_id)
    await hub.publish(RunFinished(run_id="done-1", status=RunStatus.COMPLETED))
    await hub.publish(RunFinished(run_id="done-2", status=RunStatus.COMPLETED))
    # a second terminal event is harmless
    await hub.publish(RunFinished(run_id="done-2", status=RunStatus.COMPLETED))
    hub.open("next")  # expiry runs when a run opens
    assert not hub.has("done-1") and not hub.has("done-2")
    assert hub.has("running") and hub.has("next")


async def test_finished_runs_are_kept_for_the_retention_time() -> None:
    hub = RunEventHub(retain_s=3600.0)
    hub.open("r1")
    await hub.publish(RunFinished(run_id="r1", status=RunStatus.COMPLETED))
    hub.open("r2")
    assert hub.has("r1")


async def test_only_the_latest_finished_runs_are_kept_however_recent() -> None:
    hub = RunEventHub(retain_s=3600.0, keep_finished=2)
    for run_id in ("r1", "r2", "r3"):
        hub.open(run_id)
        await hub.publish(RunFinished(run_id=run_id, status=RunStatus.COMPLETED))
    hub.open("running")
    assert not hub.has("r1")
    assert hub.has("r2") and hub.has("r3") and hub.has("running")
