"""Standing requests run: which ticks are due (:func:`fire_due`, pure), the runner that starts
their turns (:class:`StandingRunner`), and the service the API and the conversation make and
manage them through (:class:`StandingService`, :class:`SessionBook`).

Exactly once per tick, across gateways, from the durable engine: the ticker is a DBOS schedule
and each tick a workflow whose id is the tick's firing id, so every gateway that sees the tick
starts the same one workflow (:class:`StandingRunner`). The firing row, unique per request and
tick (:meth:`StandingStore.claim`), records it once; the run id is derived from the firing id, so
a resumed tick answers with its run instead of running again.

Missed ticks (every gateway was down): a schedule runs its latest missed tick once, when a gateway
is back, and skips the older ones; a missed tick later than ``SCHEDULES_MAX_LATE_S`` is recorded
as ``skipped`` instead (a 09:00 report is not sent at 17:00). A watch polls once, then goes on at
its interval.

A watch fires once per crossing: each poll runs its request in a session of its own
(``watch-<id>``, so the person's conversation is not filled with polls) and evaluates the
condition; only when it turns from false (or unknown) to true is the request run in the person's
session, where they see the answer (and where a delivery they asked for is made).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, get_args

from dbos import DBOS, WorkflowHandleAsync

from dialogue.standing import FIRING_RUN_PREFIX, Action, StandingDraft, StandingRefused, StandingView
from execution.expressions import truthy
from gateway.coordination.quotas import Quotas
from gateway.durable import EngineUnavailable, current_engine
from gateway.errors import RetryLater
from gateway.storage.principals import Principal
from gateway.storage.runs import RunStore
from gateway.storage.standing import (
    Firing,
    FiringStatus,
    LimitReached,
    NewStanding,
    StandingKind,
    StandingRequest,
    StandingSettings,
    StandingStatus,
    StandingStore,
    firing_id,
)
from gateway.turns.turn import TurnService
from shared.catalog import Catalog
from shared.clock import utcnow
from shared.errors import InvalidRequest, NotFound, PlatformError
from shared.expressions import ExpressionError, compile_expression
from shared.models import Channel, EntryRequest, RunResult, RunStatus
from shared.recurrence import Recurrence, RecurrenceError, interval_tick, shortest_gap

log = logging.getLogger(__name__)

#: a stored channel name -> the channel (an unknown one runs as "rest")
_CHANNELS: dict[str, Channel] = {name: name for name in get_args(Channel)}


# ---------------------------------------------------------------------------------------- due ticks


@dataclass(frozen=True)
class DueTick:
    """A tick to run now: the latest one due (older missed ones are skipped) and the next after."""

    request: StandingRequest
    tick: datetime
    next_fire_at: datetime | None
    #: The tick is later than the allowed lateness: recorded as skipped, not run.
    too_late: bool


#: The status each change leaves a standing request in.
_STATUS_AFTER: dict[Action, StandingStatus] = {"pause": "paused", "resume": "active", "cancel": "cancelled"}


def next_tick(request: StandingRequest, after: datetime) -> datetime | None:
    """The request's first tick strictly after ``after``."""
    if request.kind == "schedule" and request.recurrence is not None:
        return Recurrence(request.recurrence, request.timezone).next_after(after)
    if request.interval_seconds:
        return after + timedelta(seconds=request.interval_seconds)
    return None


def fire_due(now: datetime, requests: list[StandingRequest], *, max_late: timedelta) -> list[DueTick]:
    """The ticks of ``requests`` due at ``now``, one per request: pure, the same on every gateway
    that reads the same rows (so they agree on the tick, hence on its firing id)."""
    due: list[DueTick] = []
    for request in requests:
        first = request.next_fire_at
        if request.status != "active" or first is None or first > now:
            continue
        if request.kind == "schedule" and request.recurrence is not None:
            recurrence = Recurrence(request.recurrence, request.timezone)
            tick = recurrence.latest_at_or_before(now, not_before=first) or first
            following = recurrence.next_after(now)
        elif request.interval_seconds:
            interval = timedelta(seconds=request.interval_seconds)
            tick = interval_tick(first, interval, now)
            following = tick + interval
        else:
            continue
        late = request.kind == "schedule" and now - tick > max_late
        due.append(DueTick(request=request, tick=tick, next_fire_at=following, too_late=late))
    return due


def run_id_of(firing_id: str, purpose: str = "") -> str:
    """A firing's run id, the same wherever it is computed."""
    return FIRING_RUN_PREFIX + hashlib.sha256(f"{firing_id}{purpose}".encode()).hexdigest()[:32]


def watch_session(standing_id: str) -> str:
    return f"watch-{standing_id}"


# ---------------------------------------------------------------------------------------- watches


def observed_value(run: RunResult, catalog: Catalog) -> float | None:
    """The number a watch compares: the first required number the capability's output schema
    declares (a quote's price), else the first number at the top of the result."""
    for step in run.steps:
        output = step.output
        if output is None or output.status != "success":
            continue
        ref = catalog.find_capability(step.capability, step.domain)
        schema = ref.capability.output_schema if ref is not None else None
        if schema:
            properties: Mapping[str, Any] = schema.get("properties", {})
            for name in schema.get("required", []):
                if properties.get(name, {}).get("type") in ("number", "integer"):
                    value = output.result.get(name)
                    if isinstance(value, int | float) and not isinstance(value, bool):
                        return float(value)
        for value in output.result.values():
            if isinstance(value, int | float) and not isinstance(value, bool):
                return float(value)
    return None


def condition_document(run: RunResult, value: float | None) -> dict[str, Any]:
    """What a watch's condition reads: ``value`` (the observed number), ``status`` (the run's),
    ``output`` (its combined output) and ``stepN`` (each step's output, as plan conditions read)."""
    doc: dict[str, Any] = {"value": value, "status": run.status.value}
    if run.output is not None:
        doc["output"] = run.output.model_dump(mode="json", include={"status", "result", "explanation"})
    for step in run.steps:
        if step.output is not None:
            doc[f"step{step.id}"] = step.output.model_dump(mode="json", include={"status", "result"})
    return doc


def condition_holds(condition: str, run: RunResult, value: float | None) -> bool | None:
    """The condition over the run; None when it cannot be told (the run failed, no value)."""
    if run.status != RunStatus.COMPLETED:
        return None
    try:
        found = compile_expression(condition).search(condition_document(run, value))
    except (ExpressionError, TypeError, ValueError) as exc:
        log.info("watch condition %r not evaluated: %s", condition, exc)
        return None
    except Exception as exc:  # a JMESPath runtime error (comparing text with a number...)
        log.info("watch condition %r failed: %s", condition, type(exc).__name__)
        return None
    return truthy(found)


# ---------------------------------------------------------------------------------------- service


class StandingService:
    """Makes, checks and manages standing requests, tenant-scoped, within the tenant's limits."""

    def __init__(
        self,
        store: StandingStore,
        runs: RunStore,
        settings: StandingSettings,
        *,
        default_time_zone: str = "UTC",
        clock: Callable[[], datetime] = utcnow,
    ):
        self.store = store
        self.runs = runs
        self.settings = settings
        self.default_time_zone = default_time_zone
        self.clock = clock
        #: This gateway's runner, once started (:func:`gateway.routes.schedules.start_standing`).
        self.runner: StandingRunner | None = None

    def check(self, new: NewStanding) -> NewStanding:
        """``new`` with its first tick, or ``InvalidRequest`` saying what is wrong with it."""
        now = self.clock()
        minimum = timedelta(seconds=self.settings.min_interval_s)
        if new.kind == "schedule":
            if not new.recurrence:
                raise InvalidRequest("a schedule needs a recurrence (an RRULE)", param="recurrence")
            try:
                recurrence = Recurrence(new.recurrence, new.timezone)
            except RecurrenceError as exc:
                raise InvalidRequest(str(exc), param="recurrence") from None
            first = recurrence.next_after(now)
            if first is None:
                raise InvalidRequest("the recurrence never fires", param="recurrence")
            gap = shortest_gap(recurrence, now)
            if gap is not None and gap < minimum:
                raise InvalidRequest(
                    f"ticks are at least {self.settings.min_interval_s} seconds apart", param="recurrence"
                )
            return new.model_copy(update={"next_fire_at": first, "interval_seconds": None, "condition": None})
        if not new.condition:
            raise InvalidRequest("a watch needs a condition (a JMESPath expression)", param="condition")
        try:
            compile_expression(new.condition)
        except ExpressionError as exc:
            raise InvalidRequest(exc.message, param="condition") from None
        interval = new.interval_seconds or self.settings.min_interval_s
        if interval < self.settings.min_interval_s:
            raise InvalidRequest(
                f"a watch polls at most every {self.settings.min_interval_s} seconds",
                param="interval_seconds",
            )
        return new.model_copy(update={"next_fire_at": now, "interval_seconds": interval, "recurrence": None})

    async def create(self, tenant: str, new: NewStanding) -> StandingRequest:
        checked = self.check(new)
        try:
            return await self.store.create(tenant, checked, max_per_tenant=self.settings.max_per_tenant)
        except LimitReached:
            raise TooMany(self.settings.max_per_tenant) from None

    async def change(self, tenant: str, standing_id: str, action: Action) -> StandingRequest:
        """Pause, resume or cancel; ``NotFound`` for another tenant's, a missing or a cancelled one."""
        if action == "list":
            raise InvalidRequest("not a change", param="action")
        found = await self.store.get(tenant, standing_id)
        if found is None or found.status == "cancelled":
            raise NotFound(f"no standing request {standing_id!r}", param="standing_id")
        next_fire = None
        if action == "resume":
            next_fire = self.clock() if found.kind == "watch" else next_tick(found, self.clock())
        changed = await self.store.set_status(
            tenant, standing_id, _STATUS_AFTER[action], next_fire_at=next_fire
        )
        if changed is None:
            raise NotFound(f"no standing request {standing_id!r}", param="standing_id")
        return changed

    def book(self) -> SessionBook:
        return SessionBook(self)


class TooMany(PlatformError):
    status_code = 409
    code = "standing_request_limit"
    error_type = "conflict_error"

    def __init__(self, limit: int):
        super().__init__(f"at most {limit} active or paused standing requests per tenant", param="tenant")
        self.limit = limit


def view_of(request: StandingRequest) -> StandingView:
    return StandingView.model_validate(request.model_dump())


def draft_of(request: StandingRequest) -> StandingDraft:
    language = "en" if request.language == "en" else "pt"
    return StandingDraft.model_validate({**request.model_dump(), "language": language})


class SessionBook:
    """:class:`dialogue.standing.StandingBook` over the database, for the tenant that owns the
    session of the turn (the turn has claimed it before the dialogue runs)."""

    def __init__(self, service: StandingService):
        self.service = service
        self.store = service.store

    async def _tenant(self, session_id: str) -> str:
        owner = await self.service.runs.session_owner(session_id)
        if owner is None:
            raise NotFound("no session", param="session_id")
        return owner

    async def proposed(self, session_id: str) -> StandingDraft | None:
        found = await self.store.proposed(await self._tenant(session_id), session_id)
        return None if found is None else draft_of(found)

    async def propose(self, session_id: str, draft: StandingDraft | None) -> None:
        tenant = await self._tenant(session_id)
        if draft is None:
            await self.store.propose(tenant, session_id, None)
            return
        limit = self.service.settings.max_per_tenant
        if await self.store.held(tenant) >= limit:
            raise StandingRefused("limit", count=limit)
        fields = {"session_id": session_id, "label": draft.label[:256], "next_fire_at": self.service.clock()}
        new = NewStanding.model_validate({**draft.model_dump(), **fields})
        try:
            checked = self.service.check(new)
        except InvalidRequest:
            raise StandingRefused(
                "too_often", minutes=max(1, self.service.settings.min_interval_s // 60)
            ) from None
        await self.store.propose(tenant, session_id, checked)

    async def confirm(self, session_id: str) -> StandingView | None:
        tenant = await self._tenant(session_id)
        found = await self.store.proposed(tenant, session_id)
        if found is None:
            return None
        checked = self.service.check(NewStanding.model_validate(found.model_dump()))
        try:
            made = await self.store.activate(
                tenant, found.id, checked.next_fire_at, max_per_tenant=self.service.settings.max_per_tenant
            )
        except LimitReached:
            raise StandingRefused("limit", count=self.service.settings.max_per_tenant) from None
        return None if made is None else view_of(made)

    async def listing(self, session_id: str) -> list[StandingView]:
        return [view_of(r) for r in await self.store.all(await self._tenant(session_id))]

    async def change(self, session_id: str, standing_id: str, action: Action) -> StandingView | None:
        try:
            return view_of(await self.service.change(await self._tenant(session_id), standing_id, action))
        except NotFound:
            return None


# ---------------------------------------------------------------------------------------- runner


class StandingRunner:
    """Fires due ticks as durable workflows of the engine (:mod:`gateway.durable`, DBOS).

    * The ticker is a DBOS schedule (``standing.ticker``, every ``SCHEDULES_TICK_S`` seconds):
      the engine starts one workflow per scheduled time across every gateway, which reads the due
      ticks (:func:`fire_due`) and starts one ``standing.fire`` workflow per tick.
    * A tick's workflow id is its firing id: started twice (two gateways, a retried ticker) it is
      one workflow; a gateway that dies while it runs has it resumed by another (its plan steps
      are checkpointed, its run id is the same, so a finished turn is not run again).
    * The firing row is unique per (request, tick) as well: what the tick did is recorded once,
      and a tick is never run again once recorded as finished.

    :meth:`run_due` is one look with the clock the caller gives (tests drive it)."""

    def __init__(
        self,
        service: StandingService,
        turns: TurnService,
        quotas: Quotas,
        catalog: Callable[[], Catalog],
        *,
        gateway_id: str | None = None,
    ):
        self.service = service
        self.store = service.store
        self.turns = turns
        self.quotas = quotas
        self.catalog = catalog
        self.gateway_id = gateway_id or f"gw-{uuid.uuid4().hex[:12]}"

    async def start(self) -> None:
        """Make this runner the durable workflows' and, unless turned off, start the ticker."""
        engine = current_engine()
        engine.provide(StandingRunner, self)
        if self.service.settings.runner_enabled:
            await DBOS.apply_schedules_async(
                [
                    {
                        "schedule_name": TICKER,
                        "workflow_fn": standing_ticker,
                        "schedule": f"*/{self.service.settings.tick_s} * * * * *",
                    }
                ]
            )

    async def due_ticks(self, now: datetime) -> list[DueTick]:
        requests = await self.store.due(now)
        return fire_due(now, requests, max_late=timedelta(seconds=self.service.settings.max_late_s))

    async def start_due(self, now: datetime) -> list[WorkflowHandleAsync[Firing | None]]:
        """Start the workflow of every tick due at ``now`` (a tick already started is the same
        workflow: its id is the firing id)."""
        handles = []
        for due in await self.due_ticks(now):
            fid = firing_id(due.request.id, due.tick)
            handles.append(await current_engine().start(fire_tick, f"standing:{fid}", due))
        return handles

    async def run_due(self, now: datetime) -> list[Firing]:
        """Start every tick due at ``now`` and wait for them; the firings they recorded."""
        fired = [await handle.get_result() for handle in await self.start_due(now)]
        return [f for f in fired if f is not None]

    async def execute(self, due: DueTick) -> Firing | None:
        """The body of a tick's workflow."""
        firing = await DBOS.run_step_async({"name": "standing.claim"}, self._claim, due)
        if firing is None or firing.status != "started":
            return firing  # a tick recorded as finished is never run again
        request = due.request
        if due.too_late:
            return await self.store.finish(firing, "skipped", result="missed while no gateway ran")
        try:
            slot = await self.quotas.run_slot(Principal(request.tenant))
        except RetryLater as exc:
            return await self.store.finish(firing, "skipped", result=f"quota: {exc.message}")
        try:
            if request.kind == "watch":
                return await self._poll(firing, request)
            run = await self._run(request, request.session_id, run_id_of(firing.id))
            return await self.store.finish(firing, _ended(run), run_id=run.run_id, result=run.answer)
        except PlatformError as exc:
            return await self.store.finish(firing, "failed", result=exc.message)
        except Exception as exc:
            log.exception("standing request %s: tick failed", request.id)
            return await self.store.finish(firing, "failed", result=type(exc).__name__)
        finally:
            await slot.release()

    async def _claim(self, due: DueTick) -> Firing | None:
        firing = await self.store.claim(due.request, due.tick, due.next_fire_at, self.gateway_id)
        if firing is None:  # recorded before: this workflow resumed after its claim committed
            return await self.store.firing(firing_id(due.request.id, due.tick))
        return firing

    async def _poll(self, firing: Firing, request: StandingRequest) -> Firing:
        polled = await self._run(request, watch_session(request.id), run_id_of(firing.id, "poll"))
        refused = await self._watch_policy(firing, request, polled)
        if refused is not None:
            return refused
        value = observed_value(polled, self.catalog())
        holds = condition_holds(request.condition or "", polled, value)
        if holds is None:
            note = f"condition not evaluated (run {polled.status.value}, value {value})"
            return await self.store.finish(firing, "failed", run_id=polled.run_id, result=note)
        if not holds or request.last_condition:
            result = f"value {value}: condition {'still ' if holds else ''}{'true' if holds else 'false'}"
            return await self.store.finish(
                firing, "quiet", run_id=polled.run_id, result=result, condition_met=holds
            )
        # crossed: the person is told in their own session
        told = await self._run(request, request.session_id, run_id_of(firing.id, "tell"))
        return await self.store.finish(
            firing,
            _ended(told),
            run_id=told.run_id,
            result=f"value {value}: {told.answer}",
            condition_met=True,
        )

    async def _watch_policy(
        self, firing: Firing, request: StandingRequest, polled: RunResult
    ) -> Firing | None:
        """What the polled capabilities' manifests declare (``metadata.watch``): one that may not
        be watched pauses the watch (the firing says why); a longer minimum interval is applied
        from this poll on. Known only now: which capability answers a request is decided when it runs."""
        catalog = self.catalog()
        longest = request.interval_seconds or 0
        for step in polled.steps:
            ref = catalog.find_capability(step.capability, step.domain)
            policy = ref.capability.metadata.watch if ref is not None else None
            if policy is None:
                continue  # declares nothing: watchable at the operator's minimum
            if not policy.watchable:
                await self.store.set_status(request.tenant, request.id, "paused")
                note = f"{step.domain}.{step.capability} cannot be watched (its manifest); paused"
                return await self.store.finish(firing, "failed", run_id=polled.run_id, result=note)
            longest = max(longest, policy.min_interval_s or 0)
        if longest > (request.interval_seconds or 0):
            await self.store.slow_down(request.id, longest, firing.tick + timedelta(seconds=longest))
        return None

    async def _run(self, request: StandingRequest, session_id: str, run_id: str) -> RunResult:
        channel = _CHANNELS.get(request.channel, "rest")
        entry = EntryRequest(
            session_id=session_id,
            input_text=request.request_text,
            channel=channel,
            metadata={"time_zone": request.timezone, "standing_id": request.id},
        )
        return await self.turns.handle(entry, run_id, tenant=request.tenant, replay_stored=True)


#: The DBOS schedule that looks for due ticks.
TICKER = "standing.ticker"
#: How long a resumed workflow waits for its gateway to finish starting (the runner is provided
#: after the engine is ready).
_RUNNER_WAIT_S = 120.0


async def _runner() -> StandingRunner:
    engine = current_engine()
    deadline = asyncio.get_running_loop().time() + _RUNNER_WAIT_S
    while True:
        try:
            return await engine.get(StandingRunner)
        except EngineUnavailable:
            if asyncio.get_running_loop().time() > deadline:
                raise
            await asyncio.sleep(0.2)


@DBOS.workflow(name="standing.fire")
async def fire_tick(due: DueTick) -> Firing | None:
    """One tick of one standing request, on whichever gateway started it first."""
    return await (await _runner()).execute(due)


@DBOS.workflow(name="standing.ticker")
async def standing_ticker(scheduled: datetime, context: object) -> None:
    """The engine's ticker: start the ticks due at the scheduled time."""
    runner = await _runner()
    if runner.service.settings.runner_enabled:
        due = await DBOS.run_step_async({"name": "standing.due"}, runner.due_ticks, scheduled)
        for tick in due:
            fid = firing_id(tick.request.id, tick.tick)
            await current_engine().start(fire_tick, f"standing:{fid}", tick)


def _ended(run: RunResult) -> FiringStatus:
    return "succeeded" if run.status == RunStatus.COMPLETED else "failed"


__all__ = [
    "DueTick",
    "SessionBook",
    "StandingKind",
    "StandingRunner",
    "StandingService",
    "TooMany",
    "fire_due",
    "next_tick",
]
