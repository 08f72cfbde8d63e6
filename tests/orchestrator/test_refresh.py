"""The registry's background health refresh: a domain down at start is routed once it answers,
healthy domains are only re-checked on full rounds, and stop() leaves nothing running."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from orchestrator import DomainClient, DomainRegistry, HealthRefresh, Orchestrator
from shared.errors import DomainUnavailable
from shared.models import ExecutionIntent
from tests.orchestrator.conftest import Hosts

#: Bound on every wait below: generous for a busy machine, yet a test that cannot pass still ends.
WAIT_S = 10.0


async def _until(condition: Callable[[], bool]) -> None:
    """Poll ``condition`` (registry state changes raise no event) until true, within ``WAIT_S``."""
    async with asyncio.timeout(WAIT_S):
        while True:
            if condition():
                return
            await asyncio.sleep(0.01)


async def _bootstrap(tmp_path: Path, registry: DomainRegistry, *names: str) -> None:
    path = tmp_path / "domains.bootstrap.json"
    path.write_text(json.dumps({"domains": [{"name": n, "base_url": f"http://{n}.test"} for n in names]}))
    await registry.load_bootstrap(path)


def _requests_to(hosts: Hosts, host: str) -> int:
    return sum(1 for r in hosts.requests if r.url.host == host)


async def test_refresh_of_named_domains_checks_only_those(
    tmp_path: Path, hosts: Hosts, registry: DomainRegistry, make: dict[str, Any]
) -> None:
    hosts.serve("bakery.test", make["bakery"]().app())
    await _bootstrap(tmp_path, registry, "bakery", "lounge")
    assert registry.down() == ["lounge"] and registry.catalog.domains == ["bakery"]

    hosts.serve("lounge.test", make["lounge"]().app())
    before = _requests_to(hosts, "bakery.test")
    await registry.refresh(registry.down())
    assert _requests_to(hosts, "bakery.test") == before
    assert registry.down() == [] and registry.catalog.domains == ["bakery", "lounge"]


async def test_a_domain_down_at_start_is_routed_once_it_answers(
    tmp_path: Path, hosts: Hosts, registry: DomainRegistry, client: DomainClient, make: dict[str, Any]
) -> None:
    hosts.serve("lounge.test", make["lounge"]().app())
    await _bootstrap(tmp_path, registry, "bakery", "lounge")
    orchestrator = Orchestrator(registry, client)
    intent = ExecutionIntent(
        domain="bakery", capability="bake_bread", confidence=0.99, context={"run_id": "r"}
    )
    with pytest.raises(DomainUnavailable):  # listed unhealthy: fails fast, no network
        await orchestrator.dispatch(intent)

    refresh = HealthRefresh(registry, interval_s=3600, down_interval_s=0.01)
    refresh.start()
    try:
        lounge_checks = _requests_to(hosts, "lounge.test")
        hosts.serve("bakery.test", make["bakery"]().app())  # the domain comes up, nobody re-registers it
        await _until(lambda: registry.catalog.find_capability("bake_bread") is not None)
        assert registry.down() == []
        output = await orchestrator.dispatch(intent)
        assert output.status == "success" and output.explanation == "Baked a plain loaf"
        # between full rounds only the domains that were down are re-checked
        assert _requests_to(hosts, "lounge.test") == lounge_checks
    finally:
        await refresh.stop()
    assert not refresh.running


async def test_full_rounds_notice_a_healthy_domain_going_down(
    tmp_path: Path, hosts: Hosts, registry: DomainRegistry, make: dict[str, Any]
) -> None:
    hosts.serve("bakery.test", make["bakery"]().app())
    await _bootstrap(tmp_path, registry, "bakery")
    refresh = HealthRefresh(registry, interval_s=0.02, down_interval_s=0.01)
    refresh.start()
    refresh.start()  # idempotent: still one loop
    try:
        del hosts.apps["bakery.test"]
        await _until(lambda: registry.unhealthy("bakery") is not None)
        assert registry.unhealthy("bakery") == "could not connect to http://bakery.test/manifest"
        hosts.serve("bakery.test", make["bakery"]().app())
        await _until(lambda: registry.down() == [])
    finally:
        await refresh.stop()
        await refresh.stop()  # a second stop is a no-op
    assert not refresh.running


async def test_a_domain_that_stays_down_is_logged_once_per_outage(
    tmp_path: Path,
    hosts: Hosts,
    registry: DomainRegistry,
    make: dict[str, Any],
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, logger="orchestrator.registry")
    await _bootstrap(tmp_path, registry, "bakery")
    for _ in range(3):
        await registry.refresh(registry.down())
    hosts.serve("bakery.test", make["bakery"]().app())
    await registry.refresh(registry.down())
    assert [r.getMessage() for r in caplog.records] == [
        "domain bakery: could not connect to http://bakery.test/manifest",
        "domain bakery is up again",
    ]
