"""Finding 4: a deeply nested (or oversized) manifest is a 400 naming the problem, never a
RecursionError; a bad bootstrap entry is listed with its error and the others still load."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from orchestrator import DomainClient, DomainRegistry
from orchestrator.registry import ManifestRejected
from orchestrator.url_policy import UrlPolicy
from shared.manifest import ManifestLimits
from tests.security.conftest import manifest, raw_app, serving

DEEP = b'{"domain": "deep", "version": "1", "description": ' + b"[" * 50_000 + b"]" * 50_000 + b"}"


@pytest.fixture
async def registry() -> AsyncIterator[DomainRegistry]:
    async with httpx.AsyncClient(timeout=10) as http:
        client = DomainClient(http, manifest_limits=ManifestLimits(max_bytes=200_000, max_goals=3))
        yield DomainRegistry(client, env={}, url_policy=UrlPolicy(resolve=False))


async def test_a_deeply_nested_manifest_is_refused_with_its_path(registry: DomainRegistry) -> None:
    async with serving(raw_app(DEEP)) as url:
        with pytest.raises(ManifestRejected) as err:
            await registry.register("deep", url)
    assert err.value.status_code == 400
    assert err.value.details == [{"path": "$", "message": "nested deeper than 32 levels"}]


async def test_a_manifest_over_the_size_cap_is_refused(registry: DomainRegistry) -> None:
    big = manifest("big", [{"goal": "BIG", "description": "x" * 300_000}])
    async with serving(raw_app(json.dumps(big).encode())) as url:
        with pytest.raises(ManifestRejected) as err:
            await registry.register("big", url)
    assert err.value.details == [{"path": "$", "message": "larger than 200000 bytes"}]


async def test_too_many_goals_or_examples_are_named_by_path(registry: DomainRegistry) -> None:
    goals: list[dict[str, Any]] = [{"goal": f"G{i}", "description": "g"} for i in range(4)]
    goals[0]["examples"] = [f"example {i}" for i in range(201)]
    async with serving(raw_app(manifest("many", goals))) as url:
        with pytest.raises(ManifestRejected) as err:
            await registry.register("many", url)
    assert err.value.details == [
        {"path": "goals", "message": "more than 3 entries"},
        {"path": "goals.0.examples", "message": "more than 200 entries"},
    ]


async def test_a_bad_bootstrap_entry_is_reported_and_the_others_load(
    registry: DomainRegistry, tmp_path: Path
) -> None:
    good = manifest("good", [{"goal": "GOOD", "description": "good things"}])
    async with serving(raw_app(DEEP)) as deep_url, serving(raw_app(good)) as good_url:
        path = tmp_path / "domains.bootstrap.json"
        path.write_text(
            json.dumps(
                {
                    "domains": [
                        {"name": "deep", "base_url": deep_url},
                        {"name": "good", "base_url": good_url},
                        {"name": "creds", "base_url": "http://user:pass@127.0.0.1:1"},
                    ]
                }
            )
        )
        listed = {d.name: d for d in await registry.load_bootstrap(path)}
    assert registry.catalog.domains == ["good"] and listed["good"].healthy
    assert "$: nested deeper than 32 levels" in (listed["deep"].last_error or "")
    assert (
        listed["creds"].last_error
        == "base_url must be a plain http(s) URL: no credentials, query or fragment"
    )
