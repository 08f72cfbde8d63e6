"""The research domain service: the multi-agent hypothesis assistant behind ``/execute``.

Conversation contract (docs/research-domain.md): ``research_start`` and ``research_reply`` use
``intent.context["session_id"]`` as the conversation id. While the graph waits for the person the
answer is a clarification whose ``continue_with`` is ``research_reply`` (param ``reply``), so the
next message comes back here; when the person finishes it is ``status="success"`` with the final
hypothesis.

Extra routes: ``GET /sessions/{id}/snapshot`` (per-agent memory), ``GET /sessions/{id}/events``
(the emitted history) and ``DELETE /sessions/{id}`` (reset: active state and agent memory cleared,
events kept).
"""

from __future__ import annotations

import asyncio
import re
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI
from fastapi.responses import JSONResponse

from domains.research import declarations as d
from domains.research.agents import Agents
from domains.research.config import load_agents
from domains.research.graph import build_graph, initial_state
from domains.research.llm import ChatClient
from domains.research.replies import interpret
from domains.research.settings import ResearchSettings
from domains.research.store import ResearchStore, SessionInfo
from domains.research.text import Lang, words
from domains.research.versions import (
    VersionNotFound,
    compare,
    default_pair,
    render_compare,
    render_default_compare,
    render_list,
)
from domains.research.wording import MESSAGES
from graph import GraphEngine, GraphResult, SessionNotFoundError, checkpointer_for
from sdk.service import DomainService, clarify, error_body, fail
from shared.db import create_engine
from shared.i18n import as_language, language_of
from shared.models import ContinueWith, DomainOutput, ExecutionIntent
from shared.status import RunStatus

if TYPE_CHECKING:
    import httpx

VERSION = "1.0.0"
DOMAIN = "research"
CONTINUE_WITH = ContinueWith(capability="research_reply", param="reply")
#: "v1 e v2", "versão 1 e versão 2", "versions 2 and 3", "versões 1 e 3"
_NUMBER_PAIR = re.compile(r"(\d+)\D+?(\d+)")
_VERSION_PAIR = re.compile(
    r"v(?:ers(?:[aã]o|[oõ]es|ions?))?\s*(\d+)\D+?(?:v(?:ers(?:[aã]o|[oõ]es|ions?))?)?\s*(\d+)", re.IGNORECASE
)


def graph_session_id(session_id: str, generation: int) -> str:
    """One graph session per conversation generation (a reset or a new conversation bumps it)."""
    return f"research:{session_id}:{generation}"


def _language(intent: ExecutionIntent, text: str) -> Lang:
    """The caller's language tag ("en-US" is English), else the language ``text`` is written in."""
    return language_of(intent.context, text)


def _idea_text(intent: ExecutionIntent) -> str:
    """The person's own words: the original query or the extracted entity, whichever says more."""
    candidates = [intent.original_query or "", str(intent.parameters.get("idea_text") or "")]
    return max(candidates, key=lambda t: (len(words(t)), len(t))).strip()


class ResearchConversations:
    """Runs the graph per session and keeps the domain's database in step with it."""

    def __init__(self, settings: ResearchSettings, agents: Agents):
        self.settings = settings
        self.agents = agents
        self.db = create_engine(settings.research_database_url)
        self.store = ResearchStore(self.db)
        self.engine = GraphEngine(build_graph(agents), checkpointer_for(self.db))
        self._locks: dict[str, asyncio.Lock] = {}
        self._ready = False
        self._ready_lock = asyncio.Lock()

    async def ensure_ready(self) -> None:
        """Create the tables once (startup, or the first call when no lifespan ran)."""
        if self._ready:
            return
        async with self._ready_lock:
            if not self._ready:
                await self.store.create_tables()
                self._ready = True

    async def aclose(self) -> None:
        await self.db.dispose()

    def _lock(self, session_id: str) -> asyncio.Lock:
        return self._locks.setdefault(session_id, asyncio.Lock())

    async def _graph_state(self, gid: str) -> tuple[RunStatus, dict[str, Any]] | None:
        try:
            loaded = await self.engine.get_session(gid)
        except SessionNotFoundError:
            return None
        return loaded.session.status, loaded.state

    # ------------------------------------------------------------------ capabilities

    async def start(self, intent: ExecutionIntent) -> DomainOutput:
        await self.ensure_ready()
        text = _idea_text(intent)
        lang = _language(intent, text)
        session_id = str(intent.context.get("session_id") or f"rs-{uuid.uuid4().hex}")
        if not text:
            return fail(MESSAGES.t("empty", lang), "missing_parameter", metadata={"param": "idea_text"})
        async with self._lock(session_id):
            info = await self.store.session(session_id) or SessionInfo(session_id, 1, 0, lang)
            gid = graph_session_id(session_id, info.generation)
            current = await self._graph_state(gid)
            if current is not None and current[0] == RunStatus.WAITING_INPUT:
                # the conversation is waiting for the person: this text is their answer
                # (a refinement re-classified as a new request must not lose V1 -> V2)
                return await self._answer(intent, session_id, info, current[1], text)
            generation = info.generation + 1 if current is not None else info.generation
            result = await self.engine.run(
                initial_state(session_id, text, lang, info.event_seq),
                session_id=graph_session_id(session_id, generation),
            )
            return await self._finish_turn(session_id, generation, info.event_seq, result, continued=False)

    async def reply(self, intent: ExecutionIntent) -> DomainOutput:
        await self.ensure_ready()
        text = str(intent.parameters.get("reply") or intent.original_query or "").strip()
        session_id = str(intent.context.get("session_id") or "")
        async with self._lock(session_id):
            info = await self.store.session(session_id) if session_id else None
            current = None
            if info is not None:
                current = await self._graph_state(graph_session_id(session_id, info.generation))
            if info is None or current is None or current[0] != RunStatus.WAITING_INPUT:
                lang = _language(intent, text)
                return fail(
                    MESSAGES.t("no_conversation", lang),
                    "no_active_conversation",
                    metadata={"session_id": session_id},
                )
            return await self._answer(intent, session_id, info, current[1], text)

    async def _answer(
        self, intent: ExecutionIntent, session_id: str, info: SessionInfo, state: dict[str, Any], text: str
    ) -> DomainOutput:
        """The person's answer to the waiting conversation (the session's lock is held).

        "reiniciar a pesquisa" is done here, not in the graph: it clears the stored agent memory
        and starts a new generation, which then asks for the idea.
        """
        if interpret(text).action == "restart":
            lang = language_of(intent.context, text, as_language(state.get("language") or info.language))
            return await self._restart(session_id, info, lang)
        result = await self.engine.resume(graph_session_id(session_id, info.generation), {"reply": text})
        return await self._finish_turn(session_id, info.generation, info.event_seq, result, continued=True)

    async def _restart(self, session_id: str, info: SessionInfo, lang: Lang) -> DomainOutput:
        """Reset (state and agent memory cleared, events kept), then a new conversation waiting for
        the idea, so the person's next message is the new idea whatever its words."""
        await self.engine.delete(graph_session_id(session_id, info.generation))
        new = await self.store.reset(session_id)
        result = await self.engine.run(
            initial_state(session_id, "", lang, new.event_seq, restarted=True),
            session_id=graph_session_id(session_id, new.generation),
        )
        out = await self._finish_turn(session_id, new.generation, new.event_seq, result, continued=False)
        out.metadata["restarted"] = True
        out.metadata["generation"] = new.generation
        return out

    async def versions(self, intent: ExecutionIntent) -> DomainOutput:
        await self.ensure_ready()
        session_id = str(intent.context.get("session_id") or "")
        info = await self.store.session(session_id) if session_id else None
        current = await self._graph_state(graph_session_id(session_id, info.generation)) if info else None
        state = current[1] if current else {}
        lang: Lang = state.get("language") or _language(intent, intent.original_query)
        versions = list(state.get("hypothesis_versions") or [])
        pair = self._pair(intent)
        result: dict[str, Any] = {
            "session_id": session_id,
            "versions": versions,
            "versions_count": len(versions),
        }
        if pair is None and self._asks_to_compare(intent):
            # "compare as versões" without numbers: the first with the latest, when there are two
            pair = default_pair(versions)
            if pair is None:
                return DomainOutput(
                    status="success", explanation=render_default_compare(versions, lang), result=result
                )
        if pair is None:
            return DomainOutput(status="success", explanation=render_list(versions, lang), result=result)
        try:
            diff = compare(versions, *pair)
        except VersionNotFound as exc:
            missing = int(exc.args[0])
            text = MESSAGES.t("version.missing", lang, number=missing)
            return fail(text, "version_not_found", result=result, metadata={"version": missing})
        return DomainOutput(
            status="success", explanation=render_compare(diff, lang), result={**result, "diff": diff}
        )

    @staticmethod
    def _pair(intent: ExecutionIntent) -> tuple[int, int] | None:
        a, b = intent.parameters.get("a"), intent.parameters.get("b")
        if isinstance(a, int) and isinstance(b, int):
            return a, b
        # the entity says only which versions ("2 and 3"); the whole message says more
        said = str(intent.parameters.get("versions_text") or "")
        m = _NUMBER_PAIR.search(said) or _VERSION_PAIR.search(intent.original_query or "")
        return (int(m[1]), int(m[2])) if m else None

    @staticmethod
    def _asks_to_compare(intent: ExecutionIntent) -> bool:
        texts = (str(intent.parameters.get("versions_text") or ""), intent.original_query or "")
        return any(interpret(t).action == "compare" for t in texts if t)

    async def reset(self, session_id: str, lang: Lang = "pt") -> DomainOutput:
        await self.ensure_ready()
        async with self._lock(session_id):
            info = await self.store.session(session_id)
            if info is not None:
                await self.engine.delete(graph_session_id(session_id, info.generation))
            new = await self.store.reset(session_id)
        kept = len(await self.store.events(session_id))
        return DomainOutput(
            status="success",
            explanation=MESSAGES.t("reset", lang),
            result={"session_id": session_id, "generation": new.generation, "events_kept": kept},
        )

    # ------------------------------------------------------------------ output

    async def _finish_turn(
        self, session_id: str, generation: int, seq_before: int, result: GraphResult, *, continued: bool
    ) -> DomainOutput:
        state = result.state
        new_events = [e for e in state.get("events", []) if int(e["event_id"].split("-")[1]) > seq_before]
        snapshot = await self.store.save_turn(
            session_id,
            generation=generation,
            event_seq=int(state.get("event_seq") or seq_before),
            language=state["language"],
            events=new_events,
            memory=state.get("agent_memory") or {},
        )
        ids = {e["event_id"] for e in new_events}
        versions = state.get("hypothesis_versions") or []
        latest = versions[-1] if versions else None
        facilitator = state.get("facilitator") or {}
        metadata: dict[str, Any] = {
            "session_id": session_id,
            "event_id": new_events[-1]["event_id"] if new_events else None,
            "events": [e["event_id"] for e in new_events],
            "snapshot_updated_at": snapshot["updated_at"],
            "llm": "configured" if self.agents.llm is not None else "offline",
            "agent_modes": state.get("agent_modes") or {},
            "llm_fallbacks": [f for f in state.get("llm_fallbacks", []) if f["event_id"] in ids],
            "continued": continued,
        }
        result_body: dict[str, Any] = {
            "session_id": session_id,
            "stage": state.get("current_stage"),
            "maturity": state.get("maturity"),
            "latest_version": latest,
            "versions_count": len(versions),
        }
        if result.status == RunStatus.WAITING_INPUT:
            # the facilitator's options are suggestions of what to say, not values to pick: the
            # whole reply goes to research_reply. A request that gave no idea names the value it
            # still needs (the core then knows it was asked for one, not answered)
            asks_idea = facilitator.get("action") == "ask_idea"
            return clarify(
                str(facilitator.get("message", "")),
                param="idea_text" if asks_idea else None,
                continue_with=CONTINUE_WITH,
                result={**result_body, "options": facilitator.get("options", [])},
                metadata=metadata,
            )
        return DomainOutput(
            status="success",
            explanation=str(facilitator.get("message", "")),
            result={**result_body, "final_hypothesis": state.get("final"), "versions": versions},
            metadata=metadata,
        )


@dataclass(frozen=True)
class ResearchDomain:
    service: DomainService
    app: FastAPI
    conversations: ResearchConversations


def _llm_client(
    settings: ResearchSettings, http: httpx.AsyncClient | None
) -> tuple[ChatClient | None, httpx.AsyncClient | None, bool]:
    """The agents' LLM client when one is configured, its HTTP client, and whether this domain
    made that client (and so closes it)."""
    if not settings.llm_enabled:
        return None, http, False
    assert settings.llm_base_url is not None
    owns_http = http is None
    # imported only with an LLM configured: without one the domain never makes an HTTP call
    import httpx

    client = http or httpx.AsyncClient()
    llm = ChatClient(
        client,
        settings.llm_base_url,
        api_key=settings.llm_api_key,
        model_override=settings.llm_model,
        timeout_s=settings.research_llm_timeout_s,
    )
    return llm, client, owns_http


def _service(conversations: ResearchConversations) -> DomainService:
    """The domain's manifest: its capabilities (served by ``conversations``) and goals."""
    svc = DomainService(
        DOMAIN,
        VERSION,
        {
            "pt": "Assistente de pesquisa multiagente: transforma ideias em hipóteses testáveis com um "
            "orquestrador, um estruturador e um metodologista",
            "en": "Multi-agent research assistant: turns ideas into testable hypotheses with an "
            "orchestrator, a structurer and a methodologist",
        },
    )
    svc.capability(
        "research_start",
        {
            "pt": "Começa (ou continua) a conversa sobre uma ideia de pesquisa",
            "en": "Start (or continue) the conversation about a research idea",
        },
        parameters=d.START_PARAMETERS,
        metadata=d.START_METADATA,
    )(conversations.start)
    svc.capability(
        "research_reply",
        {
            "pt": "Continua a conversa com a resposta da pessoa ao facilitador",
            "en": "Continue the conversation with the person's answer to the facilitator",
        },
        parameters=d.REPLY_PARAMETERS,
        metadata=d.REPLY_METADATA,
    )(conversations.reply)
    svc.capability(
        "research_versions",
        {"pt": "Lista ou compara as versões da hipótese", "en": "List or compare the hypothesis versions"},
        parameters=d.VERSIONS_PARAMETERS,
        metadata=d.VERSIONS_METADATA,
    )(conversations.versions)

    async def reset_capability(intent: ExecutionIntent) -> DomainOutput:
        session_id = str(intent.context.get("session_id") or "")
        lang = _language(intent, intent.original_query)
        if not session_id:
            return fail(MESSAGES.t("no_conversation", lang), "missing_session_id")
        return await conversations.reset(session_id, lang)

    svc.capability(
        "research_reset",
        {
            "pt": "Reinicia a sessão de pesquisa: limpa estado ativo e memória dos agentes, mantém "
            "o histórico",
            "en": "Restart the research session: clears its active state and the agents' memory, keeps "
            "the event history",
        },
        parameters=d.RESET_PARAMETERS,
        metadata=d.RESET_METADATA,
    )(reset_capability)
    for goal in d.GOALS:
        svc.add_goal(goal)
    svc.manifest()
    return svc


def _add_session_routes(app: FastAPI, conversations: ResearchConversations) -> None:
    """The routes beside ``/execute`` that read or reset one research session."""

    @app.get("/sessions/{session_id}/snapshot")
    async def get_snapshot(session_id: str) -> Any:
        """Per-agent memory: ``{session_id, updated_at, agents: {role: [...]}}``."""
        await conversations.ensure_ready()
        snap = await conversations.store.snapshot(session_id)
        if snap is None:
            return JSONResponse(
                error_body(f"no research session {session_id!r}", "not_found", "session_id"), 404
            )
        return snap

    @app.get("/sessions/{session_id}/events")
    async def get_events(session_id: str) -> dict[str, Any]:
        """Every event emitted in the session (resets included), oldest first."""
        await conversations.ensure_ready()
        events = await conversations.store.events(session_id)
        return {"session_id": session_id, "events": events, "count": len(events)}

    @app.delete("/sessions/{session_id}")
    async def delete_session(session_id: str) -> dict[str, Any]:
        """Reset: clears the active state and agent memory, keeps the emitted events."""
        out = await conversations.reset(session_id)
        return out.result


def build(settings: ResearchSettings | None = None, http: httpx.AsyncClient | None = None) -> ResearchDomain:
    """The service, its app and its runtime. Invalid agent YAML raises here (never serves).

    ``http`` lets tests point the LLM client at a fake OpenAI-compatible server (a third party).
    """
    settings = settings or ResearchSettings()
    configs = load_agents(settings.research_agents_dir)  # AgentConfigError stops the start
    llm, http, owns_http = _llm_client(settings, http)
    conversations = ResearchConversations(settings, Agents(configs, llm))
    svc = _service(conversations)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        await conversations.ensure_ready()
        try:
            yield
        finally:
            await conversations.aclose()
            if owns_http and http is not None:
                await http.aclose()

    app = svc.app(lifespan=lifespan)
    _add_session_routes(app, conversations)
    return ResearchDomain(svc, app, conversations)
