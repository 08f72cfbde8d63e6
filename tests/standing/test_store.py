"""Standing requests in the database: tenant scoping, limits, the once-per-tick claim with several
gateways at once (SQLite and PostgreSQL), and the due ticks with a clock the test controls."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from gateway.storage.standing import (
    LimitReached,
    NewStanding,
    StandingSettings,
    StandingStore,
    firing_id,
)
from gateway.turns.standing import fire_due
from tests.conftest import migrated_engines
from tests.standing.conftest import standing_request

WEEKDAYS_9 = "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=9;BYMINUTE=0"
#: Monday 2026-11-23 09:00 in São Paulo
MONDAY_9 = datetime(2026, 11, 23, 12, tzinfo=UTC)


def schedule(first: datetime, session: str = "s1") -> NewStanding:
    return NewStanding(
        kind="schedule",
        session_id=session,
        label="maiores altas do Brasil",
        request_text="maiores altas do Brasil",
        recurrence=WEEKDAYS_9,
        timezone="America/Sao_Paulo",
        language="pt",
        next_fire_at=first,
    )


@pytest.fixture
async def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite+aiosqlite:///{tmp_path / 'gateway.sqlite3'}"


@pytest.fixture
async def sqlite_engines(sqlite_url: str) -> AsyncIterator[list[AsyncEngine]]:
    async with migrated_engines(sqlite_url, 3) as made:
        yield made


@pytest.fixture
async def pg_engines(pg_database_url: str) -> AsyncIterator[list[AsyncEngine]]:
    async with migrated_engines(pg_database_url, 3) as made:
        yield made


async def test_another_tenant_cannot_see_change_or_list(sqlite_engines: list[AsyncEngine]) -> None:
    store = StandingStore(sqlite_engines[0])
    made = await store.create("acme", schedule(MONDAY_9), max_per_tenant=5)
    assert await store.get("other", made.id) is None
    assert await store.all("other") == []
    assert await store.set_status("other", made.id, "cancelled") is None
    assert (await store.get("acme", made.id)) is not None
    assert [r.id for r in await store.all("acme")] == [made.id]
    assert await store.firings("other", made.id) == []


async def test_limit_per_tenant_counts_active_and_paused_only(sqlite_engines: list[AsyncEngine]) -> None:
    store = StandingStore(sqlite_engines[0])
    first = await store.create("acme", schedule(MONDAY_9), max_per_tenant=2)
    await store.create("acme", schedule(MONDAY_9), max_per_tenant=2)
    with pytest.raises(LimitReached):
        await store.create("acme", schedule(MONDAY_9), max_per_tenant=2)
    await store.create("other", schedule(MONDAY_9), max_per_tenant=2)  # per tenant
    await store.set_status("acme", first.id, "cancelled")
    await store.create("acme", schedule(MONDAY_9), max_per_tenant=2)


async def test_a_proposal_is_neither_listed_nor_due(sqlite_engines: list[AsyncEngine]) -> None:
    store = StandingStore(sqlite_engines[0])
    await store.propose("acme", "s1", schedule(MONDAY_9))
    assert await store.all("acme") == []
    assert await store.due(MONDAY_9 + timedelta(days=1)) == []
    proposed = await store.proposed("acme", "s1")
    assert proposed is not None and proposed.status == "proposed"
    assert await store.proposed("other", "s1") is None
    made = await store.activate("acme", proposed.id, MONDAY_9, max_per_tenant=5)
    assert made is not None and made.status == "active"
    assert [r.id for r in await store.due(MONDAY_9)] == [made.id]


def test_fire_due_runs_the_latest_missed_tick_once_and_skips_older() -> None:
    request = standing_request(next_fire_at=MONDAY_9)
    max_late = timedelta(hours=1)
    assert fire_due(MONDAY_9 - timedelta(seconds=1), [request], max_late=max_late) == []
    (on_time,) = fire_due(MONDAY_9 + timedelta(seconds=5), [request], max_late=max_late)
    assert (on_time.tick, on_time.too_late) == (MONDAY_9, False)
    assert on_time.next_fire_at == MONDAY_9 + timedelta(days=1)
    # down from Monday 08:00 to Wednesday 09:20 local: Monday's and Tuesday's ticks are skipped
    wednesday = MONDAY_9 + timedelta(days=2, minutes=20)
    (late,) = fire_due(wednesday, [request], max_late=max_late)
    assert (late.tick, late.too_late) == (MONDAY_9 + timedelta(days=2), False)
    assert late.next_fire_at == MONDAY_9 + timedelta(days=3)
    # back only in the afternoon: Wednesday's tick is recorded as skipped, not run
    (stale,) = fire_due(MONDAY_9 + timedelta(days=2, hours=5), [request], max_late=max_late)
    assert stale.too_late
    paused = request.model_copy(update={"status": "paused"})
    assert fire_due(wednesday, [paused], max_late=max_late) == []


async def claim_from_every_gateway(engines_: list[AsyncEngine]) -> None:
    stores = [StandingStore(e) for e in engines_]
    made = await stores[0].create("acme", schedule(MONDAY_9), max_per_tenant=5)
    settings = StandingSettings()
    for day in range(3):
        now = MONDAY_9 + timedelta(days=day, seconds=3)
        seen = [await s.due(now) for s in stores]  # every gateway sees the same due tick
        assert all([r.id for r in found] == [made.id] for found in seen)
        ticks = [fire_due(now, found, max_late=timedelta(seconds=settings.max_late_s))[0] for found in seen]
        claims = await asyncio.gather(
            *(
                s.claim(t.request, t.tick, t.next_fire_at, f"gw{i}")
                for i, (s, t) in enumerate(zip(stores, ticks, strict=True))
            )
        )
        won = [c for c in claims if c is not None]
        assert len(won) == 1, claims
        assert won[0].id == firing_id(made.id, MONDAY_9 + timedelta(days=day))
        # and a gateway that reads late does not run it again
        assert (
            await stores[2].claim(ticks[2].request, ticks[2].tick, ticks[2].next_fire_at, "gw-late") is None
        )
    firings = await stores[1].firings("acme", made.id)
    assert len(firings) == 3
    assert len({f.tick for f in firings}) == 3
    after = await stores[0].get("acme", made.id)
    assert after is not None and after.next_fire_at == MONDAY_9 + timedelta(days=3)


async def test_one_claim_per_tick_with_three_gateways_on_sqlite(sqlite_engines: list[AsyncEngine]) -> None:
    await claim_from_every_gateway(sqlite_engines)


@pytest.mark.postgres
async def test_one_claim_per_tick_with_three_gateways_on_postgresql(pg_engines: list[AsyncEngine]) -> None:
    await claim_from_every_gateway(pg_engines)


def test_ticks_stay_at_nine_local_through_the_spring_change_in_new_york() -> None:
    """The runner's own loop, with the test's clock: each tick's next one, across 2026-03-08."""
    request = standing_request(
        id="st_ny",
        timezone="America/New_York",
        language="en",
        next_fire_at=datetime(2026, 3, 5, 14, tzinfo=UTC),
    )
    fired: list[datetime] = []
    for _ in range(4):
        assert request.next_fire_at is not None
        now = request.next_fire_at + timedelta(seconds=2)
        (due,) = fire_due(now, [request], max_late=timedelta(hours=1))
        fired.append(due.tick)
        request = request.model_copy(update={"next_fire_at": due.next_fire_at})
    new_york = ZoneInfo("America/New_York")
    assert [t.astimezone(new_york).strftime("%a %H:%M") for t in fired] == [
        "Thu 09:00",
        "Fri 09:00",
        "Mon 09:00",
        "Tue 09:00",
    ]
    assert [t.hour for t in fired] == [14, 14, 13, 13]
