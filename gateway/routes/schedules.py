"""``/v1/schedules``: a tenant's standing requests (schedules and watches) and their firings.

Every route is scoped to the caller's tenant: another tenant's request is a 404, word for word
the answer for one that does not exist. The same requests are made and managed in conversation
(:mod:`dialogue.standing`); ``docs/standing-requests.md`` has examples.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from contextlib import AsyncExitStack
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Path, Query, Request
from pydantic import BaseModel, Field, field_validator

from dialogue.standing import Action, StandingConversation
from gateway.deps import PrincipalDep, Services, new_session_id
from gateway.storage.standing import (
    Firing,
    NewStanding,
    StandingKind,
    StandingRequest,
    StandingSettings,
    StandingStore,
)
from gateway.turns.standing import StandingRunner, StandingService
from gateway.validation import check_session_id
from shared.errors import InvalidRequest, NotFound
from shared.recurrence import describe_rule

router = APIRouter()

StandingId = Annotated[str, Path(max_length=64, pattern=r"^[A-Za-z0-9_\-]+$")]


class StandingBody(BaseModel):
    """A schedule (``recurrence``: an RFC 5545 RRULE in ``timezone``) or a watch (``condition``:
    JMESPath over the polled run, e.g. ``value > `40```, every ``interval_seconds``)."""

    kind: StandingKind = "schedule"
    #: What runs at each tick, as a message of the session ("maiores altas do Brasil").
    request: str = Field(min_length=1, max_length=2000)
    #: The session the runs belong to (a new one when absent).
    session_id: str | None = None
    label: str | None = Field(default=None, max_length=256)
    recurrence: str | None = Field(default=None, max_length=512)
    interval_seconds: int | None = Field(default=None, ge=1)
    condition: str | None = Field(default=None, max_length=1000)
    timezone: str | None = Field(default=None, max_length=64)
    language: Literal["pt", "en"] = "pt"
    #: Watches: the capability the request reaches ("finance.get_stock_price"), when the caller
    #: knows it: its manifest's ``metadata.watch`` is checked now, not only at the first poll.
    capability: str | None = Field(
        default=None, max_length=200, pattern=r"^[A-Za-z0-9_\-]+\.[A-Za-z0-9_\-]+$"
    )

    @field_validator("session_id")
    @classmethod
    def _session(cls, value: str | None) -> str | None:
        return None if value is None else check_session_id(value)


class StandingOut(StandingRequest):
    """A standing request with its recurrence in words."""

    description: str

    @classmethod
    def of_request(cls, request: StandingRequest) -> StandingOut:
        lang = "en" if request.language == "en" else "pt"
        if request.recurrence:
            words = f"{describe_rule(request.recurrence, lang)} ({request.timezone})"
        else:
            words = f"every {request.interval_seconds} s: {request.condition}"
        return cls(**request.model_dump(), description=words)


def _service(request: Request) -> StandingService:
    found: StandingService = request.state.standing
    return found


ServiceDep = Annotated[StandingService, Depends(_service)]


@router.get("/v1/schedules")
async def list_standing(
    principal: PrincipalDep,
    service: ServiceDep,
    kind: StandingKind | None = None,
    include_cancelled: bool = False,
) -> dict[str, Any]:
    found = await service.store.all(principal.tenant, include_cancelled=include_cancelled)
    data = [StandingOut.of_request(r).model_dump(mode="json") for r in found if kind in (None, r.kind)]
    return {"object": "list", "data": data}


@router.post("/v1/schedules", status_code=201)
async def create_standing(body: StandingBody, principal: PrincipalDep, service: ServiceDep) -> StandingOut:
    session_id = body.session_id or new_session_id()
    # the session is the caller's from now on (another tenant's is a 404, as everywhere)
    if not (await service.runs.claim_session(session_id, principal.tenant)).owned:
        raise NotFound(f"No session '{session_id}'", param="session_id")
    if body.kind == "watch" and body.capability is not None:
        _check_watchable(body, service)
    new = NewStanding(
        kind=body.kind,
        session_id=session_id,
        label=body.label or body.request[:256],
        request_text=body.request,
        recurrence=body.recurrence,
        interval_seconds=body.interval_seconds,
        condition=body.condition,
        timezone=body.timezone or service.default_time_zone,
        language=body.language,
        next_fire_at=service.clock(),
    )
    return StandingOut.of_request(await service.create(principal.tenant, new))


def _check_watchable(body: StandingBody, service: StandingService) -> None:
    """Refuse, naming the field, a watch the capability's manifest does not allow."""
    if service.runner is None or body.capability is None:
        return
    domain, name = body.capability.split(".", 1)
    found = service.runner.catalog().find_capability(name, domain)
    if found is None or found.domain != domain:
        raise InvalidRequest(f"no capability {body.capability!r}", param="capability")
    policy = found.capability.metadata.watch
    if policy is None:
        return
    if not policy.watchable:
        raise InvalidRequest(f"{body.capability} cannot be watched (its manifest)", param="capability")
    interval = body.interval_seconds or service.settings.min_interval_s
    if policy.min_interval_s is not None and interval < policy.min_interval_s:
        raise InvalidRequest(
            f"{body.capability} may be polled at most every {policy.min_interval_s} seconds",
            param="interval_seconds",
        )


@router.get("/v1/schedules/{standing_id}")
async def get_standing(standing_id: StandingId, principal: PrincipalDep, service: ServiceDep) -> StandingOut:
    found = await service.store.get(principal.tenant, standing_id)
    if found is None:
        raise NotFound(f"no standing request {standing_id!r}", param="standing_id")
    return StandingOut.of_request(found)


def _change_route(action: Action) -> Callable[..., Awaitable[StandingOut]]:
    """The route that pauses, resumes or cancels a standing request (``<action>_standing``)."""

    async def change(standing_id: StandingId, principal: PrincipalDep, service: ServiceDep) -> StandingOut:
        return StandingOut.of_request(await service.change(principal.tenant, standing_id, action))

    change.__name__ = change.__qualname__ = f"{action}_standing"
    return change


cancel_standing = router.delete("/v1/schedules/{standing_id}")(_change_route("cancel"))
pause_standing = router.post("/v1/schedules/{standing_id}/pause")(_change_route("pause"))
resume_standing = router.post("/v1/schedules/{standing_id}/resume")(_change_route("resume"))


@router.get("/v1/schedules/{standing_id}/firings")
async def list_firings(
    standing_id: StandingId,
    principal: PrincipalDep,
    service: ServiceDep,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
) -> dict[str, Any]:
    if await service.store.get(principal.tenant, standing_id) is None:
        raise NotFound(f"no standing request {standing_id!r}", param="standing_id")
    found: list[Firing] = await service.store.firings(principal.tenant, standing_id, limit=limit)
    return {"object": "list", "data": [f.model_dump(mode="json") for f in found]}


async def start_standing(
    stack: AsyncExitStack, services: Services, settings: StandingSettings | None = None
) -> StandingService:
    """The standing-request service of a gateway: its conversation joins the turn's dialogue and
    its runner looks for due ticks until the gateway stops."""
    settings = settings or StandingSettings()
    service = StandingService(
        StandingStore(services.engine),
        services.store,
        settings,
        default_time_zone=getattr(services.turns.graph.adapter, "time_zone", "UTC"),
    )
    services.turns.graph.standing = StandingConversation(
        service.book(), watch_interval_s=settings.min_interval_s
    )
    runner = StandingRunner(service, services.turns, services.quotas, lambda: services.registry.catalog)
    service.runner = runner
    await runner.start()
    return service
