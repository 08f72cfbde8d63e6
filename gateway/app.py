"""The gateway application: engines and clients built in ``lifespan`` and disposed on shutdown."""

from __future__ import annotations

import gc
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, AsyncExitStack, asynccontextmanager
from typing import TYPE_CHECKING, TypedDict

import httpx
from fastapi import Depends, FastAPI
from redis.asyncio import Redis
from sqlalchemy.ext.asyncio import AsyncEngine

from execution.policy import ContextPolicy, Hooks
from execution.runner import RunController
from execution.synthesis import synthesis_from_settings
from gateway.admin import domains, keys
from gateway.auth import Authenticator
from gateway.channels import a2a_endpoint, mcp_endpoint, openai_chat, openai_responses, rest, telegram
from gateway.coordination.locks import LocalSessionLocks, RedisSessionLocks, SessionLocks
from gateway.coordination.quotas import Quotas
from gateway.coordination.registry_sync import RegistrySync
from gateway.deps import CheckedRequest, RunQuota, Services, require_api_key
from gateway.durable import (
    BackgroundSettings,
    DurableEngine,
    DurableSettings,
    durable_availability,
    durable_steps,
    launch_engine,
)
from gateway.errors import install_error_handlers, shared_store_call
from gateway.hooks import RunHooksSettings, load_hooks
from gateway.inspector import routes as inspector
from gateway.middleware import BodySizeLimit
from gateway.openapi import install_openapi
from gateway.routes import approvals, health, metrics, schedules, sessions
from gateway.settings import GatewaySettings
from gateway.storage.approvals import ApprovalStore
from gateway.storage.history import ConversationPoints
from gateway.storage.migrate import upgrade
from gateway.storage.principals import KeyStore
from gateway.storage.registrations import RegistrationStore
from gateway.storage.runs import RunStore
from gateway.telemetry import GatewayStateCollector, OverheadHeader, is_turn_route
from gateway.turns.approval_timers import ApprovalTimers
from gateway.turns.approvals import ApprovalLedger, ApprovalSettings
from gateway.turns.background import BackgroundRuns
from gateway.turns.events import RunEventHub
from gateway.turns.reservation import ReservedDomains
from gateway.turns.turn import TurnService
from graph import CachingCheckpointer, checkpointer_for
from intent import IntentAdapter, build_adapter
from intent.lint import goal_overlaps
from intent.settings import IntentSettings
from orchestrator.breaker import DomainBreakers
from orchestrator.client import DomainClient, domain_http_client
from orchestrator.mcp_bootstrap import declare_bootstrap_mcp
from orchestrator.mcp_domain import McpDomains
from orchestrator.orchestrator import Orchestrator
from orchestrator.refresh import HealthRefresh
from orchestrator.registry import DomainRegistry, PolicyLimits, RegistryWarning
from orchestrator.url_policy import UrlPolicy
from planner.llm import PlannerLlmSettings, build_run_planner
from shared.catalog import Catalog
from shared.db import WalCheckpoints, create_engine, is_sqlite_file
from shared.manifest import ManifestLimits
from shared.settings import LlmSettings
from shared.telemetry.asgi import NO_FASTAPI_SPANS, RequestTelemetry
from shared.telemetry.logs import setup_logging
from shared.telemetry.metrics import add_live_collector
from shared.telemetry.tracing import flush_tracing, otlp_endpoint_configured, setup_tracing

if TYPE_CHECKING:  # the MCP and A2A servers load their SDKs on first use, not at start
    from gateway.channels.a2a import PlatformA2a
    from gateway.channels.deferred import Deferred
    from gateway.channels.mcp import PlatformMcp
    from gateway.turns.standing import StandingService

log = logging.getLogger(__name__)

#: The collector's young-generation threshold once start-up is frozen (CPython's default 700):
#: see :func:`_start_serving`.
GC_YOUNG_THRESHOLD = 3000


class AppState(TypedDict):
    """What the lifespan hands every request (Starlette's lifespan state, ``request.state``)."""

    services: Services
    mcp: Deferred[PlatformMcp]
    a2a: Deferred[PlatformA2a]
    standing: StandingService


def goal_overlap_warnings(catalog: Catalog, domain: str) -> list[RegistryWarning]:
    """Registration lint: goals of the new domain that read like goals already registered."""
    return [
        RegistryWarning(
            type="goal_overlap",
            message=f"{o.domain_a}.{o.goal_a} overlaps {o.domain_b}.{o.goal_b} ({o.similarity:.0%} similar)",
            domain_a=o.domain_a,
            goal_a=o.goal_a,
            domain_b=o.domain_b,
            goal_b=o.goal_b,
            similarity=o.similarity,
        )
        for o in goal_overlaps(catalog, domain=domain)
    ]


async def build_services(
    stack: AsyncExitStack,
    settings: GatewaySettings,
    intent_settings: IntentSettings,
    llm_settings: LlmSettings,
) -> Services:
    """Every app-scoped service, each closed by ``stack`` (in reverse order of building)."""
    # the operator's business rules (RUN_HOOKS, RUN_TRANSITION_OVERRIDES_FILE): a wrong one stops
    # the start before anything is built
    hooks = load_hooks(RunHooksSettings())
    engine = await _database(stack, settings)
    # background runs (and other durable workflows) on DBOS, beside this database (DURABLE_DATABASE_URL)
    durable_settings = DurableSettings()
    durable = await stack.enter_async_context(launch_engine(engine, settings.database_url, durable_settings))
    client = await _domain_client(stack, settings)
    registry = await _registry(settings, client)
    adapter = _intent_adapter(intent_settings, registry)
    orchestrator = _orchestrator(settings, registry, client)
    # a run's first call waits for its row to be stored
    reserved = ReservedDomains(orchestrator)
    controller = _run_loop(settings, llm_settings, hooks, registry, orchestrator, reserved)
    store = RunStore(engine)
    redis = _redis(stack, settings)
    quotas = _quotas(stack, settings, redis)
    registry_sync = await _registry_sync(registry, redis, engine, client)
    keys = KeyStore(engine)
    approval_store = ApprovalStore(engine)
    turns = TurnService(
        adapter=adapter,
        registry=registry,
        domains=reserved,
        store=store,
        checkpointer=_checkpointer(engine),
        locks=_session_locks(settings, redis),
        before_turn=shared_store_call(registry_sync.sync),
        controller=controller,
        events=RunEventHub(),
        metrics=settings.metrics_enabled,
        approvals=ApprovalLedger(approval_store, ApprovalSettings()),
    )
    background = await _background_runs(
        stack, durable, durable_settings.queue_poll_s, turns, store, _admission_lock(settings, redis)
    )
    # approvals' reminders and deadlines are durable workflows too (started again for pending ones)
    await ApprovalTimers(turns, approval_store, durable).start()
    _start_serving(stack, settings, registry, orchestrator, background, durable)
    return Services(
        settings=settings,
        engine=engine,
        redis=redis,
        registry=registry,
        breakers=orchestrator.breakers,
        registry_sync=registry_sync,
        store=store,
        keys=keys,
        auth=Authenticator(settings, keys),
        points=ConversationPoints(engine),
        turns=turns,
        background=background,
        quotas=quotas,
        mcp_domains=client.mcp,
    )


def _intent_adapter(intent_settings: IntentSettings, registry: DomainRegistry) -> IntentAdapter:
    """The intent adapter, trained on the current catalog and again on every change of it."""
    adapter = build_adapter(intent_settings)
    adapter.update_catalog(registry.catalog)
    # runtime catalog changes retrain in a worker thread: the event loop keeps serving
    registry.subscribe(adapter.update_catalog_async)
    return adapter


def _orchestrator(settings: GatewaySettings, registry: DomainRegistry, client: DomainClient) -> Orchestrator:
    """The domains' side: routing, the confidence gate, the breakers, the step runner."""
    return Orchestrator(
        registry,
        client,
        threshold=settings.confidence_threshold,
        breakers=DomainBreakers(threshold=settings.breaker.threshold, ttl_s=settings.breaker.ttl_s),
    )


async def _registry_sync(
    registry: DomainRegistry, redis: Redis | None, engine: AsyncEngine, client: DomainClient
) -> RegistrySync:
    """Registrations shared with the other gateways, the stored ones restored."""
    registry_sync = RegistrySync(registry, redis, RegistrationStore(engine), mcp=client.mcp)
    await registry_sync.restore()
    # the overlap lint keeps each goal's n-gram counts (intent.lint): counted now, a
    # registration counts only its own goals' (~0.3 s less at 150 goals)
    goal_overlaps(registry.catalog)
    return registry_sync


def _run_loop(
    settings: GatewaySettings,
    llm_settings: LlmSettings,
    hooks: Hooks,
    registry: DomainRegistry,
    orchestrator: Orchestrator,
    reserved: ReservedDomains,
) -> RunController:
    """The one run loop, around the orchestrator's step runner (through ``reserved``); inside a
    durable workflow (a background run) each step is checkpointed."""
    policy = ContextPolicy(
        max_steps=settings.policy.max_steps or None,
        max_domain_calls=settings.policy.max_domain_calls or None,
        max_plan_duration_s=settings.run_deadline_s,
        max_payload_bytes=settings.policy.max_payload_bytes or None,
    )
    synthesis = synthesis_from_settings(llm_settings)
    # deterministic unless PLANNER_LLM and an endpoint are set (planner/llm, docs/planning.md)
    run_planner = build_run_planner(PlannerLlmSettings(), lambda: registry.catalog)
    return RunController(
        lambda: registry.catalog,
        durable_steps(reserved.dispatch),
        policy=policy,
        hooks=hooks,
        synthesis=synthesis,
        max_replans=settings.max_replans,
        deadline_s=settings.run_deadline_s,
        # a background run calls a domain known to be down: its step waits for it instead
        availability=durable_availability(orchestrator.unavailable_reason),
        planner=run_planner,
    )


def _quotas(stack: AsyncExitStack, settings: GatewaySettings, redis: Redis | None) -> Quotas:
    """Per-key quotas, counted in Redis when there is one (every replica sees the same counts)."""
    quotas = Quotas(settings, redis)
    quotas.start()
    stack.push_async_callback(quotas.stop)
    return quotas


def _session_locks(settings: GatewaySettings, redis: Redis | None) -> SessionLocks:
    """One turn at a time per session: across gateways through Redis, else in this process."""
    if redis is not None:
        return RedisSessionLocks(redis, wait_s=settings.lock_wait_s(), lease_s=settings.session_lock.lease_s)
    return LocalSessionLocks(wait_s=settings.lock_wait_s())


def _admission_lock(settings: GatewaySettings, redis: Redis | None) -> SessionLocks:
    """Background runs are admitted one at a time: across gateways through Redis, else in this
    process (a bound on the shared queue needs its count and its enqueue to be one step)."""
    if redis is not None:
        return RedisSessionLocks(
            redis,
            wait_s=settings.lock_wait_s(),
            lease_s=settings.session_lock.lease_s,
            prefix="orch:lock:admission:",
        )
    return LocalSessionLocks(wait_s=settings.lock_wait_s())


def _checkpointer(engine: AsyncEngine) -> CachingCheckpointer:
    """Where conversations are stored: a full snapshot every 16 versions (a version is a turn),
    so a cold resume folds at most 15 small deltas and a warm one none (the engine keeps the
    state); the cache turns a resume's read into one small row (still checked, for other
    gateways)."""
    # a SQLite file's WAL is checkpointed by a thread of its own (_database)
    return CachingCheckpointer(checkpointer_for(engine, snapshot_every=16, wal_checkpointed=True))


def _start_serving(
    stack: AsyncExitStack,
    settings: GatewaySettings,
    registry: DomainRegistry,
    orchestrator: Orchestrator,
    background: BackgroundRuns,
    durable: DurableEngine,
) -> None:
    """The last steps once every service is built: metrics, the health refresh, durable
    workflows resumed."""
    if settings.metrics_enabled:
        add_live_collector(GatewayStateCollector(orchestrator.breakers, registry, background))
    # what start-up built (catalog, intent model, engines) lives as long as the process: keep
    # it out of the collector's passes, which would otherwise walk all of it on every turn
    gc.freeze()
    # a turn leaves ~60 objects of cyclic garbage (the young collections' work) and holds a few
    # thousand live ones while it runs: at the default 700 allocations a young pass ran every
    # ~3 turns and each pass walked the turns in flight, ~0.3 ms of GC per turn in all; at 3000
    # it is ~0.1 ms, each young pass ~2 ms at most, and fewer objects reach the older generations
    gc.set_threshold(GC_YOUNG_THRESHOLD, *gc.get_threshold()[1:])
    # a domain down at start (or later) is routed again once it answers, with no re-registration
    refresh = HealthRefresh(registry, interval_s=settings.registry_refresh_s)
    refresh.start()
    stack.push_async_callback(refresh.stop)
    # every durable workflow's services are built: resumed runs go on, dead gateways' are taken over
    durable.ready()


async def _database(stack: AsyncExitStack, settings: GatewaySettings) -> AsyncEngine:
    """The gateway's database, migrated (unless told not to)."""
    checkpointed = is_sqlite_file(settings.database_url)
    engine = create_engine(settings.database_url, wal_checkpointed=checkpointed)
    stack.push_async_callback(engine.dispose)
    if settings.migrate_on_start:
        await upgrade(engine)
    if checkpointed:
        # the WAL's fsyncs in a thread of their own, not inside some turn's commit
        checkpoints = WalCheckpoints(settings.database_url)
        checkpoints.start()
        stack.callback(checkpoints.stop)
    return engine


async def _domain_client(stack: AsyncExitStack, settings: GatewaySettings) -> DomainClient:
    """How domains are called: over HTTP, MCP or A2A, within the configured limits."""
    # httpx's API on aiohttp's transport: several times less CPU per domain call
    http = domain_http_client(
        timeout=httpx.Timeout(settings.domain.timeout_s, connect=2.0),
        limits=httpx.Limits(max_connections=200, max_keepalive_connections=50),
        max_answer_bytes=settings.domain.max_answer_bytes,
    )
    stack.push_async_callback(http.aclose)
    # MCP servers registered as domains: handshakes and listings within the domain timeout
    mcp_domains = McpDomains(
        timeout_s=settings.domain.timeout_s, max_answer_bytes=settings.domain.max_answer_bytes
    )
    stack.push_async_callback(mcp_domains.aclose)
    return DomainClient(
        http,
        max_answer_bytes=settings.domain.max_answer_bytes,
        manifest_limits=ManifestLimits(max_bytes=settings.domain.manifest_max_bytes),
        signing_secrets=settings.domain.secret_map(),
        mcp=mcp_domains,
    )


async def _registry(settings: GatewaySettings, client: DomainClient) -> DomainRegistry:
    """The domain registry, with the bootstrap file's domains loaded."""
    registry = DomainRegistry(
        client,
        lint=goal_overlap_warnings,
        url_policy=UrlPolicy(settings.domain.allowed_hosts.split(",")),
        policy_limits=PolicyLimits(
            timeout_max_s=settings.domain.timeout_max_s,
            attempts_max=settings.domain.attempts_max,
            confirm=settings.domain.approvals(),
        ),
    )
    if settings.bootstrap_file.exists():
        # MCP entries first: stdio servers started (closed with client.mcp), given goals known
        declare_bootstrap_mcp(settings.bootstrap_file, client.mcp)
        await registry.load_bootstrap(settings.bootstrap_file)
    else:
        log.warning("bootstrap file %s not found: starting with no domains", settings.bootstrap_file)
    return registry


def _redis(stack: AsyncExitStack, settings: GatewaySettings) -> Redis | None:
    """The Redis client every gateway shares state through (``None``: one gateway, state in process)."""
    if not settings.redis.url:
        return None
    redis = Redis.from_url(
        settings.redis.url,
        socket_timeout=settings.redis.timeout_s,
        socket_connect_timeout=settings.redis.timeout_s,
    )
    stack.push_async_callback(redis.aclose)
    return redis


async def _background_runs(
    stack: AsyncExitStack,
    durable: DurableEngine,
    poll_s: float,
    turns: TurnService,
    store: RunStore,
    admission: SessionLocks,
) -> BackgroundRuns:
    """Background runs: workflows on the engine's queue, so any gateway's worker runs them and
    a gateway that dies has its runs resumed by another (gateway/durable/liveness.py)."""
    limits = BackgroundSettings()
    background = BackgroundRuns(
        turns,
        store,
        durable,
        admission,
        workers=limits.workers,
        queue_max=limits.queue_max,
        poll_s=poll_s,
    )
    await background.start()
    stack.push_async_callback(background.stop)
    return background


def create_app(
    settings: GatewaySettings | None = None,
    *,
    intent_settings: IntentSettings | None = None,
    llm_settings: LlmSettings | None = None,
) -> FastAPI:
    """The gateway app. Settings are read here, once (from the environment unless given); the
    lifespan builds the :class:`~gateway.deps.Services` from them."""
    settings = settings or GatewaySettings()
    lifespan = _lifespan(settings, intent_settings or IntentSettings(), llm_settings or LlmSettings())
    # server spans come from RequestTelemetry (on any FastAPI), not also from FastAPI's own
    app = FastAPI(
        title="Agent orchestrator gateway", version="0.1.0", lifespan=lifespan, telemetry=NO_FASTAPI_SPANS
    )
    install_error_handlers(app)
    _add_middleware(app, settings)
    _include_routers(app, settings)
    # /openapi.json: the 400s and other errors the routes really answer, not FastAPI's 422
    install_openapi(app)
    return app


def _lifespan(
    settings: GatewaySettings, intent_settings: IntentSettings, llm_settings: LlmSettings
) -> Callable[[FastAPI], AbstractAsyncContextManager[AppState]]:
    """The app's lifespan: the services built on one exit stack, closed in reverse order."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[AppState]:
        async with AsyncExitStack() as stack:
            setup_tracing(settings.otel.service_name, settings.otel.exporter_otlp_endpoint)
            stack.callback(flush_tracing)
            services = await build_services(stack, settings, intent_settings, llm_settings)
            # /mcp: the platform's goals as MCP tools, started by the first call (the MCP SDK is
            # off the start-up path); MCP servers registered as domains go through client.mcp
            platform_mcp = mcp_endpoint.deferred_server(services.turns, services.registry)
            await stack.enter_async_context(platform_mcp.running())
            # the card and /a2a, started the same way
            platform_a2a = a2a_endpoint.deferred_server(services.turns)
            await stack.enter_async_context(platform_a2a.running())
            # schedules and watches: their conversation joins the turn, their runner fires ticks
            standing = await schedules.start_standing(stack, services)
            # Starlette hands a copy of this to every request (``request.state``)
            yield AppState(services=services, mcp=platform_mcp, a2a=platform_a2a, standing=standing)

    return lifespan


def _add_middleware(app: FastAPI, settings: GatewaySettings) -> None:
    app.add_middleware(BodySizeLimit, max_bytes=settings.max_body_bytes)
    app.add_middleware(OverheadHeader, routes=is_turn_route)
    if settings.metrics_enabled or settings.otel.exporter_otlp_endpoint or otlp_endpoint_configured():
        app.add_middleware(
            RequestTelemetry, service="gateway", metrics=settings.metrics_enabled, only_continued=True
        )


def _include_routers(app: FastAPI, settings: GatewaySettings) -> None:
    """Every route, with the checks it needs before its handler."""
    app.include_router(health.router)
    v1 = [Depends(require_api_key)]
    # boundary checks (gateway/validation.py) after the key check, before any handler acts;
    # the JSON-RPC routers (MCP, A2A) answer bad input in their own protocol's shape
    checked = [*v1, CheckedRequest]
    # routes that run a turn also take a place in the key's concurrent-run quota
    turning = [*checked, RunQuota]
    app.include_router(openai_chat.router, dependencies=turning)
    app.include_router(openai_responses.router, dependencies=turning)
    app.include_router(rest.router, dependencies=turning)
    app.include_router(sessions.router, dependencies=checked)
    app.include_router(schedules.router, dependencies=checked)
    app.include_router(domains.router, dependencies=checked)
    app.include_router(mcp_endpoint.router, dependencies=v1)
    app.include_router(keys.router, dependencies=checked)
    app.include_router(approvals.router, dependencies=checked)
    if settings.metrics_enabled:
        app.include_router(metrics.router, dependencies=v1)
    app.include_router(telegram.router)
    app.include_router(inspector.ui_router)
    app.include_router(inspector.api_router, dependencies=checked)
    # A2A: the card is public discovery; the JSON-RPC endpoint takes the /v1 keys
    app.include_router(a2a_endpoint.card_router)
    app.include_router(a2a_endpoint.rpc_router, dependencies=[*v1, RunQuota])


def main() -> None:
    from gateway.server import serve

    settings = GatewaySettings()
    llm_settings = LlmSettings()
    secrets = settings.secret_values()
    llm_key = llm_settings.llm_api_key
    if llm_key is not None:
        secrets.append(llm_key.get_secret_value())
    planner_key = PlannerLlmSettings().planner_llm_api_key
    if planner_key is not None:
        secrets.append(planner_key.get_secret_value())
    setup_logging(settings.log_level, settings.log_format, secrets)
    # one INFO line per domain call is noise at this volume (and URLs are no place for secrets)
    logging.getLogger("httpx").setLevel(logging.WARNING)
    # uvicorn with header, keep-alive and shutdown timeouts (gateway/server.py)
    serve(create_app(settings, llm_settings=llm_settings), settings)


if __name__ == "__main__":
    main()
