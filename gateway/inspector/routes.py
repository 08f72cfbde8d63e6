"""The run inspector: its static page at ``/ui`` and the read-only JSON it needs beyond the API.

The page itself carries no secret and is served without a key (a browser cannot send a header
when it navigates); it asks for the key and sends it on every ``fetch``, so the JSON routes here
sit behind the same ``require_api_key`` as the rest of ``/v1``. The sessions list shows the
caller's tenant's sessions only.
"""

from __future__ import annotations

import asyncio
from datetime import datetime
from importlib import resources
from typing import Annotated, Any, cast

from fastapi import APIRouter, Query, Request
from fastapi.responses import RedirectResponse, Response
from pydantic import BaseModel
from sqlalchemy import ColumnElement, ScalarSelect, Table, func, or_, select
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from gateway.deps import PrincipalDep, RegistryDep, services
from gateway.storage.tables import RunRow, SessionRow
from intent.lint import goal_overlaps
from orchestrator.domain_transport import DomainKind
from shared.clock import as_utc
from shared.errors import NotFound
from shared.i18n.bilingual import text_in

#: The page and its assets, served without a key: they hold no data.
ui_router = APIRouter(include_in_schema=False)
#: JSON for the page, mounted with the API's key check.
api_router = APIRouter()

_sessions = cast(Table, SessionRow.__table__)
_runs = cast(Table, RunRow.__table__)

UI_PACKAGE = "gateway.inspector.ui"
_MEDIA_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".svg": "image/svg+xml",
}
#: Only the page's own files may run or style it: no inline script, nothing from elsewhere.
_SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    # a new gateway version must not be shown with the previous version's script
    "Cache-Control": "no-cache",
}


def ui_asset(name: str) -> tuple[bytes, str]:
    """The bytes and media type of ``gateway/inspector/ui/<name>``; only plain file names of known types.

    >>> ui_asset("index.html")[1]
    'text/html; charset=utf-8'
    >>> ui_asset("../app.py")
    Traceback (most recent call last):
    ...
    shared.errors.NotFound: No inspector asset '../app.py'
    """
    suffix = name[name.rfind(".") :] if "." in name else ""
    media_type = _MEDIA_TYPES.get(suffix)
    asset = resources.files(UI_PACKAGE).joinpath(name)
    if media_type is None or "/" in name or "\\" in name or name.startswith(".") or not asset.is_file():
        raise NotFound(f"No inspector asset '{name}'", param="path")
    return asset.read_bytes(), media_type


@ui_router.get("/ui")
async def inspector_page() -> Response:
    body, media_type = ui_asset("index.html")
    return Response(body, media_type=media_type, headers=_SECURITY_HEADERS)


@ui_router.get("/ui/")
async def inspector_page_slash() -> RedirectResponse:
    # the page's relative asset paths resolve against /ui/assets/, whichever URL it was opened at
    return RedirectResponse("/ui", status_code=307)


@ui_router.get("/ui/assets/{name}")
async def inspector_asset(name: str) -> Response:
    body, media_type = ui_asset(name)
    return Response(body, media_type=media_type, headers=_SECURITY_HEADERS)


# ---------------------------------------------------------------------------- sessions list


class SessionSummary(BaseModel):
    """A line of the sessions list (``GET /v1/sessions/{id}`` has the turns and versions)."""

    session_id: str
    status: str
    channel: str
    turn_count: int
    created_at: datetime | None
    updated_at: datetime | None
    #: The session's first request, in the person's own words (and so in their language): its
    #: title, to tell sessions apart at a glance.
    title: str | None
    #: The person's last message in the session.
    last_input: str | None
    #: What the session waits for the person to answer (its last turn's question), if anything.
    pending_question: str | None = None


class SessionPage(BaseModel):
    """``GET /v1/sessions``: newest activity first."""

    object: str = "list"
    data: list[SessionSummary]
    #: Sessions matching the search, over all pages.
    total: int
    limit: int
    offset: int


def _session_input(*order: ColumnElement[Any]) -> ScalarSelect[Any]:
    """The session's first message in ``order`` (a subquery of the sessions list)."""
    return (
        select(_runs.c.input_text)
        .where(_runs.c.session_id == _sessions.c.id)
        .order_by(*order)
        .limit(1)
        .scalar_subquery()
    )


def _session_matches(tenant: str, query: str) -> list[ColumnElement[bool]]:
    """``tenant``'s sessions, and with a ``query`` those whose id or any message contains it."""
    matches: list[ColumnElement[bool]] = [_sessions.c.tenant == tenant]
    if query:
        said_it = select(_runs.c.id).where(
            _runs.c.session_id == _sessions.c.id, _runs.c.input_text.icontains(query, autoescape=True)
        )
        matches.append(or_(_sessions.c.id.icontains(query, autoescape=True), said_it.exists()))
    return matches


async def list_sessions(
    engine: AsyncEngine, *, tenant: str, query: str, limit: int, offset: int
) -> SessionPage:
    """``tenant``'s sessions whose id, or any message, contains ``query`` (case-blind), newest first."""
    last_input = _session_input(_runs.c.created_at.desc())
    first_input = _session_input(_runs.c.created_at, _runs.c.id)
    matches = _session_matches(tenant, query)
    rows = (
        select(
            _sessions.c.id,
            _sessions.c.status,
            _sessions.c.channel,
            _sessions.c.turn_count,
            _sessions.c.created_at,
            _sessions.c.updated_at,
            last_input.label("last_input"),
            first_input.label("first_input"),
        )
        .where(*matches)
        .order_by(_sessions.c.updated_at.desc(), _sessions.c.id)
        .limit(limit)
        .offset(offset)
    )
    count = select(func.count()).select_from(_sessions).where(*matches)
    async with engine.connect() as conn:
        found = (await conn.execute(rows)).all()
        total = int((await conn.execute(count)).scalar_one())
        waiting = [r.id for r in found if r.status == WAITING]
        questions = await pending_questions(conn, waiting) if waiting else {}
    return SessionPage(
        data=[
            SessionSummary(
                session_id=r.id,
                status=r.status,
                channel=r.channel,
                turn_count=r.turn_count,
                created_at=as_utc(r.created_at),
                updated_at=as_utc(r.updated_at),
                title=_title(r.first_input),
                last_input=r.last_input,
                pending_question=questions.get(r.id),
            )
            for r in found
        ],
        total=total,
        limit=limit,
        offset=offset,
    )


#: A session's status while its last turn waits for the person's answer.
WAITING = "waiting_input"
#: A title longer than this is cut (at a word) and ends with an ellipsis.
TITLE_CHARS = 80


def _title(first_input: str | None) -> str | None:
    """The first request on one line, cut at a word past :data:`TITLE_CHARS`.

    >>> _title("qual a cotação da\\nPetrobras?"), _title(None)
    ('qual a cotação da Petrobras?', None)
    >>> _title("palavra " * 20)[-9:]
    'palavra …'
    """
    if not first_input:
        return None
    line = " ".join(first_input.split())
    if len(line) <= TITLE_CHARS:
        return line
    return line[:TITLE_CHARS].rsplit(" ", 1)[0] + " …"


async def pending_questions(conn: AsyncConnection, session_ids: list[str]) -> dict[str, str]:
    """The question each session's last run asked (its first line), for the sessions that wait."""
    other = _runs.alias("other")
    last_run = (
        select(other.c.id)
        .where(other.c.session_id == _runs.c.session_id)
        .order_by(other.c.created_at.desc(), other.c.id.desc())
        .limit(1)
        .scalar_subquery()
    )
    latest = select(_runs.c.session_id, _runs.c.trace).where(
        _runs.c.session_id.in_(session_ids), _runs.c.id == last_run
    )
    found: dict[str, str] = {}
    for row in await conn.execute(latest):
        question = row.trace.get("question") if isinstance(row.trace, dict) else None
        text = question.get("text") if isinstance(question, dict) else None
        if text:
            found[row.session_id] = str(text).split("\n", 1)[0]
    return found


@api_router.get("/v1/sessions")
async def sessions_list(
    request: Request,
    principal: PrincipalDep,
    q: Annotated[
        str, Query(max_length=200, description="Part of a session id or of a message (its title included)")
    ] = "",
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    offset: Annotated[int, Query(ge=0)] = 0,
) -> SessionPage:
    engine = services(request).engine
    return await list_sessions(engine, tenant=principal.tenant, query=q.strip(), limit=limit, offset=offset)


# ---------------------------------------------------------------------------- breakers


class BreakerView(BaseModel):
    domain: str
    #: ``closed``, ``opened`` or ``half-opened`` (``closed`` for a domain never called).
    state: str
    #: Calls to the domain fail at once, without the network.
    open: bool


class BreakerList(BaseModel):
    object: str = "list"
    #: Consecutive transport failures that open a circuit, and how long it stays open.
    threshold: int
    ttl_s: float
    data: list[BreakerView]


@api_router.get("/v1/breakers")
async def breakers_list(request: Request, registry: RegistryDep) -> BreakerList:
    """The circuit breaker of every registered domain."""
    breakers = services(request).breakers
    return BreakerList(
        threshold=breakers.threshold,
        ttl_s=breakers.ttl_s,
        data=[
            BreakerView(domain=d.name, state=breakers.state(d.name), open=breakers.is_open(d.name))
            for d in registry.list()
        ],
    )


# ---------------------------------------------------------------------------- catalog

#: Goal pairs of different domains at least this similar are shown (with their score); the
#: registration lint warns from ``intent.lint.goal_overlaps``'s own default up.
OVERLAP_SHOWN = 0.2


class CapabilityView(BaseModel):
    name: str
    #: What it does, in the language asked for (else another the manifest has).
    description: str


class DomainCard(BaseModel):
    name: str
    kind: DomainKind
    capabilities: list[CapabilityView]


class OverlapView(BaseModel):
    """Two goals of different domains that read alike: people may reach the wrong one."""

    domain_a: str
    goal_a: str
    domain_b: str
    goal_b: str
    #: TF-IDF cosine of the two goals' descriptions and examples (0..1).
    similarity: float


class RegistryNotice(BaseModel):
    """Something the registry changed or noticed about a domain's manifest that is not a goal
    overlap (a policy clamped to the operator's limits, a capability name clash...)."""

    domain: str
    type: str
    message: str


class CatalogView(BaseModel):
    language: str
    domains: list[DomainCard]
    overlap_shown_from: float
    overlaps: list[OverlapView]
    notices: list[RegistryNotice]


@api_router.get("/v1/inspector/catalog")
async def catalog_view(
    registry: RegistryDep,
    lang: Annotated[str, Query(max_length=16, description="Language of the descriptions")] = "en",
) -> CatalogView:
    """What the inspector shows beside the domains list: each domain's kind and capability
    descriptions, the goal overlaps between domains (with their score), and the registry's other
    notices, kept apart from the overlaps."""
    catalog = registry.catalog
    listed = {d.name: d for d in registry.list()}
    cards = [
        DomainCard(
            name=manifest.domain,
            kind=listed[manifest.domain].kind if manifest.domain in listed else DomainKind.HTTP,
            capabilities=[
                CapabilityView(name=c.name, description=text_in(c.description, lang))
                for c in manifest.capabilities
            ],
        )
        for manifest in catalog.manifests()
    ]
    # cut against the cached n-gram counts: a few ms, off the event loop all the same
    overlaps = await asyncio.to_thread(goal_overlaps, catalog, OVERLAP_SHOWN)
    notices = [
        RegistryNotice(domain=d.name, type=str(w.get("type", "")), message=str(w.get("message", "")))
        for d in listed.values()
        for w in d.warnings
        if w.get("type") != "goal_overlap"
    ]
    return CatalogView(
        language=lang,
        domains=cards,
        overlap_shown_from=OVERLAP_SHOWN,
        overlaps=[OverlapView(**o.model_dump()) for o in overlaps],
        notices=notices,
    )
