"""The gateway application: engines and clients built in ``lifespan`` and disposed on shutdown."""

from __future__ import annotations

import gc
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
from fastapi import Depends, FastAPI
from redis.asyncio import Redis

from execution.dag import StepRunner
from execution.graph import CachingCheckpointer, SqlCheckpointer
from execution.policy import ContextPolicy
from execution.runner import RunController
from execution.synthesis import synthesis_from_env
from gateway.auth import require_api_key
from gateway.errors import install_error_handlers
from gateway.events import RunEventHub
from gateway.locks import LocalSessionLocks, RedisSessionLocks
from gateway.middleware import BodySizeLimit
from gateway.migrate import upgrade
from gateway.registry_sync import RegistrySync
from gateway.routes import domains, health, openai, runs, sessions, telegram
from gateway.runs import RunStore
from gateway.settings import GatewaySettings
from gateway.turn import TurnService
from intent import build_adapter
from intent.lint import goal_overlaps
from intent.settings import IntentSettings
from orchestrator.breaker import DomainBreakers
from orchestrator.client import DomainClient, domain_http_client
from orchestrator.orchestrator import Orchestrator
from orchestrator.registry import DomainRegistry
from shared.catalog import Catalog
from shared.db import create_engine

log = logging.getLogger(__name__)


def goal_overlap_warnings(catalog: Catalog, domain: str) -> list[dict[str, Any]]:
    """Registration lint: goals of the new domain that read like goals already registered."""
    return [
        {
            "type": "goal_overlap",
            "message": (
                f"{o.domain_a}.{o.goal_a} overlaps {o.domain_b}.{o.goal_b} ({o.similarity:.0%} similar)"
            ),
            **o.model_dump(),
        }
        for o in goal_overlaps(catalog, domain=domain)
    ]


def create_app(settings: GatewaySettings | None = None) -> FastAPI:
    settings = settings or GatewaySettings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        engine = create_engine(settings.database_url)
        if settings.migrate_on_start:
            await upgrade(engine)
        # httpx's API on aiohttp's transport: several times less CPU per domain call
        http = domain_http_client(
            timeout=httpx.Timeout(settings.domain_timeout_s, connect=2.0),
            limits=httpx.Limits(max_connections=200, max_keepalive_connections=50),
        )
        client = DomainClient(http)
        registry = DomainRegistry(client, lint=goal_overlap_warnings)
        if settings.bootstrap_file.exists():
            await registry.load_bootstrap(settings.bootstrap_file)
        else:
            log.warning("bootstrap file %s not found: starting with no domains", settings.bootstrap_file)
        adapter = build_adapter(IntentSettings())
        adapter.update_catalog(registry.catalog)
        registry.subscribe(adapter.update_catalog)
        orchestrator = Orchestrator(
            registry,
            client,
            threshold=settings.confidence_threshold,
            breakers=DomainBreakers(threshold=settings.breaker_threshold, ttl_s=settings.breaker_ttl_s),
        )
        policy = ContextPolicy(
            max_steps=settings.policy_max_steps or None,
            max_domain_calls=settings.policy_max_domain_calls or None,
            max_plan_duration_s=settings.run_deadline_s,
            max_payload_bytes=settings.policy_max_payload_bytes or None,
        )
        synthesis = synthesis_from_env()

        def controller(run_step: StepRunner) -> RunController:
            return RunController(
                lambda: registry.catalog,
                run_step,
                policy=policy,
                synthesis=synthesis,
                max_replans=settings.max_replans,
                deadline_s=settings.run_deadline_s,
                availability=orchestrator.unavailable_reason,
            )

        store = RunStore(engine)
        redis = Redis.from_url(settings.redis_url) if settings.redis_url else None
        locks = (
            RedisSessionLocks(redis, wait_s=settings.session_lock_wait_s)
            if redis is not None
            else LocalSessionLocks(wait_s=settings.session_lock_wait_s)
        )
        registry_sync = RegistrySync(registry, redis)
        await registry_sync.sync()
        app.state.engine = engine
        app.state.registry = registry
        app.state.registry_sync = registry_sync
        app.state.store = store
        app.state.turns = TurnService(
            adapter=adapter,
            registry=registry,
            orchestrator=orchestrator,
            store=store,
            # a full snapshot every 16 versions (a turn is 5): a cold resume folds at most 16
            # small deltas, and a warm one none (the engine keeps the state); the cache turns a
            # resume's read into one small row (still checked, for other gateways)
            checkpointer=CachingCheckpointer(SqlCheckpointer(engine, snapshot_every=16)),
            locks=locks,
            before_turn=registry_sync.sync,
            controller=controller,
            events=RunEventHub(),
        )
        app.state.background = set()
        # What start-up built (catalog, intent model, engines, ~170k objects) lives as long as the
        # process: keep it out of the collector's passes, which otherwise walk all of it (about
        # 0.2 ms per turn on average on the bench machine).
        gc.freeze()
        try:
            yield
        finally:
            for task in list(app.state.background):
                task.cancel()
            await http.aclose()
            if redis is not None:
                await redis.aclose()
            await engine.dispose()

    app = FastAPI(title="Agent orchestrator gateway", version="0.1.0", lifespan=lifespan)
    app.state.settings = settings
    install_error_handlers(app)
    app.add_middleware(BodySizeLimit, max_bytes=settings.max_body_bytes)
    app.include_router(health.router)
    v1 = [Depends(require_api_key)]
    app.include_router(openai.router, dependencies=v1)
    app.include_router(runs.router, dependencies=v1)
    app.include_router(sessions.router, dependencies=v1)
    app.include_router(domains.router, dependencies=v1)
    app.include_router(telegram.router)
    return app


def main() -> None:
    import uvicorn

    settings = GatewaySettings()
    logging.basicConfig(
        level=settings.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    # one INFO line per domain call is noise at this volume (and URLs are no place for secrets)
    logging.getLogger("httpx").setLevel(logging.WARNING)
    # uvicorn logs at WARNING, so its access lines never show: do not build them either
    uvicorn.run(
        create_app(settings),
        host=settings.gateway_host,
        port=settings.gateway_port,
        log_level="warning",
        access_log=False,
    )


if __name__ == "__main__":
    main()
