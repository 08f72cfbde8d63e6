"""Issue 24, finding 5: lookup tables are bounded together, and a slow domain delays no other.

* A manifest whose every ``lookup_path`` table is within the per-table limits, but which adds up to
  more entries (or bytes) than one manifest may have, is refused naming the entity where the budget
  ran out.
* A domain whose lookup endpoint hangs is marked down after the registry's per-domain deadline, and
  meanwhile a domain that comes back up is seen healthy within a second or so, not after the slow
  domain's round. Real HTTP (uvicorn on loopback) for every domain.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
import pytest
import uvicorn
from fastapi import FastAPI

from orchestrator import DomainClient, DomainRegistry
from orchestrator.refresh import HealthRefresh
from orchestrator.registry import ManifestRejected
from orchestrator.url_policy import UrlPolicy
from shared.manifest import ManifestLimits
from tests.conftest import free_port, reserve_port, write_bootstrap
from tests.security.conftest import manifest, raw_app, serving

TABLES = 3
ENTRIES = 9_000  # each table within the per-table limit (10,000); together above 20,000


def _with_lookups(domain: str, paths: list[str]) -> dict[str, Any]:
    goals = [
        {
            "goal": f"FIND_{i}",
            "description": f"find thing number {i}",
            "entities_schema": {"thing": {"type": "string", "lookup_path": path}},
        }
        for i, path in enumerate(paths)
    ]
    return manifest(domain, goals)


def _tables_app(domain: str, entries: int) -> FastAPI:
    app = raw_app(_with_lookups(domain, [f"/lookup/{i}" for i in range(TABLES)]))
    table = [{"value": f"thing-{n}", "aliases": []} for n in range(entries)]
    for i in range(TABLES):
        app.get(f"/lookup/{i}")(lambda: table)
    return app


async def test_lookup_tables_are_capped_together() -> None:
    async with serving(_tables_app("hoarder", ENTRIES)) as url, httpx.AsyncClient(timeout=30) as http:
        registry = DomainRegistry(DomainClient(http), env={}, url_policy=UrlPolicy(resolve=False))
        with pytest.raises(ManifestRejected) as refused:
            await registry.register("hoarder", url)
    assert refused.value.details == [
        {
            "path": "goals.2.entities_schema.thing.lookup",
            "message": "the manifest's lookup tables have more than 20000 entries together",
        }
    ]
    assert registry.catalog.domains == []


async def test_lookup_tables_are_capped_together_in_bytes() -> None:
    # each table of 5,000 entries is about 185 KB: the third one is past the budget
    limits = ManifestLimits(max_lookup_total_bytes=400_000)
    async with serving(_tables_app("hoarder", 5_000)) as url, httpx.AsyncClient(timeout=30) as http:
        registry = DomainRegistry(
            DomainClient(http, manifest_limits=limits), env={}, url_policy=UrlPolicy(resolve=False)
        )
        with pytest.raises(ManifestRejected) as refused:
            await registry.register("hoarder", url)
    assert refused.value.details is not None
    assert refused.value.details[0]["path"] == "goals.2.entities_schema.thing.lookup"


async def test_tables_within_the_budget_are_read() -> None:
    async with serving(_tables_app("modest", 100)) as url, httpx.AsyncClient(timeout=30) as http:
        registry = DomainRegistry(DomainClient(http), env={}, url_policy=UrlPolicy(resolve=False))
        registered = await registry.register("modest", url)
    assert registered.healthy and len(registered.goals) == TABLES


class SlowLookups:
    """A domain whose lookup endpoint hangs once :attr:`slow` is set (and says when it was asked)."""

    def __init__(self) -> None:
        self.slow = False
        self.asked = asyncio.Event()
        self.app = raw_app(_with_lookups("sluggish", ["/lookup/slow"]))
        self.app.get("/lookup/slow")(self.lookup)

    async def lookup(self) -> list[dict[str, Any]]:
        if self.slow:
            self.asked.set()
            await asyncio.sleep(120)
        return [{"value": "thing", "aliases": []}]


@asynccontextmanager
async def serving_on(app: FastAPI, port: int) -> AsyncIterator[str]:
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    task = asyncio.create_task(server.serve())
    try:
        while not server.started:
            assert not task.done(), "uvicorn did not start"
            await asyncio.sleep(0.01)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        server.force_exit = True  # the slow lookup is still sleeping
        await task


async def test_a_slow_lookup_endpoint_delays_no_other_domains_refresh(tmp_path: Any) -> None:
    sluggish = SlowLookups()
    # the late domain's port is held (bound, never listening) until it is served there: down
    # meanwhile, and given to no other server (the sluggish one's included)
    with reserve_port() as late:
        late_port = late.port
        deadline_s = 3.0
        async with serving_on(sluggish.app, free_port()) as slow_url, httpx.AsyncClient(timeout=60) as http:
            registry = DomainRegistry(
                DomainClient(http), env={}, url_policy=UrlPolicy(resolve=False), load_deadline_s=deadline_s
            )
            bootstrap = write_bootstrap(
                tmp_path / "b.json", {"sluggish": slow_url, "late": f"http://127.0.0.1:{late_port}"}
            )
            await registry.load_bootstrap(bootstrap)
            assert registry.down() == ["late"]
            sluggish.slow = True
            refresh = HealthRefresh(registry, interval_s=0.2, down_interval_s=0.1)
            refresh.start()
            try:
                await asyncio.wait_for(sluggish.asked.wait(), 10)  # a round is now stuck on it
                late_app = raw_app(manifest("late", [{"goal": "LATE_THING", "description": "a late thing"}]))
                async with serving_on(late_app, late_port):
                    started = time.monotonic()
                    while "late" in registry.down():
                        assert time.monotonic() - started < 30, registry.list()
                        await asyncio.sleep(0.05)
                    seen_after = time.monotonic() - started
                    # and the slow one is marked down once its deadline passes, not after the read timeout
                    while "sluggish" not in registry.down():
                        assert time.monotonic() - started < deadline_s + 5, registry.list()
                        await asyncio.sleep(0.05)
            finally:
                await refresh.stop()
    assert seen_after < 2.0, f"a restarted domain was seen healthy after {seen_after:.1f} s"
    slow = registry.get("sluggish")
    assert slow is not None and "within 3 s" in (slow.last_error or ""), slow
