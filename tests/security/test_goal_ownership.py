"""Finding 5: a domain cannot take over another's goal names, overlapping goals need the
admin's explicit override, and a manifest's policy is clamped to the operator's limits."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI, Request
from pydantic import SecretStr
from starlette.middleware.base import BaseHTTPMiddleware, RequestResponseEndpoint
from starlette.responses import Response

from gateway.app import create_app, goal_overlap_warnings
from gateway.settings import GatewaySettings
from orchestrator import DomainClient, DomainRegistry
from orchestrator.registry import GoalOverlapRefused, GoalTaken, PolicyLimits
from orchestrator.url_policy import UrlPolicy
from tests.conftest import in_process_client
from tests.security.conftest import manifest, raw_app, serving

QUOTE = {
    "goal": "STOCK_QUOTE",
    "description": "current price of a stock or share on the exchange",
    "examples": ["what is the price of Petrobras", "quote for Apple shares", "cotação da Vale"],
}


@pytest.fixture
async def registry() -> AsyncIterator[DomainRegistry]:
    async with httpx.AsyncClient(timeout=10) as http:
        yield DomainRegistry(
            DomainClient(http),
            env={},
            lint=goal_overlap_warnings,
            url_policy=UrlPolicy(resolve=False),
            policy_limits=PolicyLimits(timeout_max_s=30, attempts_max=3),
        )


async def test_a_goal_name_owned_by_another_domain_is_refused(registry: DomainRegistry) -> None:
    async with (
        serving(raw_app(manifest("finance", [QUOTE]))) as finance,
        serving(raw_app(manifest("clone", [QUOTE]))) as clone,
    ):
        await registry.register("finance", finance)
        with pytest.raises(GoalTaken) as err:
            await registry.register("clone", clone, allow_overlap=True)
    assert err.value.status_code == 400
    assert "STOCK_QUOTE (owned by 'finance')" in err.value.message
    assert err.value.details == [{"goal": "STOCK_QUOTE", "owner": "finance"}]
    assert registry.catalog.domains == ["finance"]


async def test_overlapping_goals_need_the_admins_override(registry: DomainRegistry) -> None:
    lookalike = {**QUOTE, "goal": "SHARE_PRICE"}
    async with (
        serving(raw_app(manifest("finance", [QUOTE]))) as finance,
        serving(raw_app(manifest("lookalike", [lookalike]))) as other,
    ):
        await registry.register("finance", finance)
        with pytest.raises(GoalOverlapRefused) as err:
            await registry.vet("lookalike", other)
        assert err.value.status_code == 400 and err.value.code == "goal_overlap"
        assert registry.catalog.domains == ["finance"]
        warnings = await registry.vet("lookalike", other, allow_overlap=True)
        assert [w["type"] for w in warnings] == ["goal_overlap"]
        with pytest.raises(GoalOverlapRefused):
            await registry.register("lookalike", other, allow_overlap=False)
        registered = await registry.register("lookalike", other, allow_overlap=True)
    assert registered.warnings[0]["type"] == "goal_overlap"
    assert registry.catalog.domains == ["finance", "lookalike"]


async def test_the_manifest_policy_is_clamped_to_the_operator_limits(registry: DomainRegistry) -> None:
    greedy: dict[str, Any] = manifest(
        "greedy",
        [{"goal": "GREEDY", "description": "wait forever"}],
        metadata={"policy": {"timeout_s": 100000, "attempts": 10}},
    )
    async with serving(raw_app(greedy)) as url:
        registered = await registry.register("greedy", url)
    ref = registry.catalog.find_capability("do_greedy")
    assert ref is not None
    policy = ref.capability.metadata.policy
    assert (policy.timeout_s, policy.attempts) == (30, 3)
    assert [(w["type"], w["field"], w["applied"]) for w in registered.warnings] == [
        ("policy_clamped", "timeout_s", 30),
        ("policy_clamped", "attempts", 3),
    ]


def counted(app: FastAPI, hits: Counter[str]) -> FastAPI:
    """``app``, counting the requests it answers by path."""

    async def count(request: Request, call_next: RequestResponseEndpoint) -> Response:
        hits[request.url.path] += 1
        return await call_next(request)

    app.add_middleware(BaseHTTPMiddleware, dispatch=count)
    return app


async def test_the_admin_route_fetches_and_checks_once_and_stores_nothing_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("INTENT_ADAPTER", "lexical")  # intent is not what this test is about
    lookalike_hits: Counter[str] = Counter()
    lookalike = counted(raw_app(manifest("lookalike", [{**QUOTE, "goal": "SHARE_PRICE"}])), lookalike_hits)
    async with serving(raw_app(manifest("finance", [QUOTE]))) as finance, serving(lookalike) as other:
        bootstrap = tmp_path / "bootstrap.json"
        bootstrap.write_text(json.dumps({"domains": [{"name": "finance", "base_url": finance}]}))
        settings = GatewaySettings(
            database_url=f"sqlite+aiosqlite:///{tmp_path / 'gateway.sqlite3'}",
            bootstrap_file=bootstrap,
            redis_url=None,
            admin_token=SecretStr("adm"),
        )
        async with in_process_client(create_app(settings)) as gateway:
            admin = {"Authorization": "Bearer adm"}
            body = {"name": "lookalike", "base_url": other}
            refused = await gateway.post("/v1/domains", json=body, headers=admin)
            assert refused.status_code == 400 and refused.json()["error"]["code"] == "goal_overlap"
            listed = (await gateway.get("/v1/domains", headers=admin)).json()["data"]
            assert [d["name"] for d in listed] == ["finance"]  # refused before anything was stored
            assert lookalike_hits == {"/manifest": 1}

            lookalike_hits.clear()
            accepted = await gateway.post("/v1/domains", json={**body, "allow_overlap": True}, headers=admin)
            assert accepted.status_code == 201, accepted.text
            assert [w["type"] for w in accepted.json()["warnings"]] == ["goal_overlap"]
            # one manifest fetch and one health check per registration (the lint runs with the checks)
            assert lookalike_hits == {"/manifest": 1, "/health": 1}
