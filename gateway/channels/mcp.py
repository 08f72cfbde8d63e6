"""The platform as an MCP server: ``/mcp`` on the gateway (streamable HTTP, stateless, JSON
answers), behind the same API key check as ``/v1/*``. The route, and the start of this server
after the gateway's own (it imports the ``mcp`` SDK), are :mod:`gateway.channels.mcp_endpoint`'s.

Tools, read from the registry's catalog on every ``tools/list`` (a domain registered at runtime
is listed at once, one that is removed is gone):

* ``ask`` — ``message`` and an optional ``session_id``: one turn, exactly as a chat message
  (:meth:`gateway.turns.turn.TurnService.handle`);
* one tool per goal, named after the goal (``GET_QUOTE`` -> ``get_quote``), described by the
  goal's description, its entities as the input schema: the goal runs with those entities
  (an ``EntryRequest`` whose ``intent`` the tool names), no text parsing involved. ``session_id`` and
  ``language`` are optional on every goal tool.

Every result has the answer as text and ``structuredContent`` ``{answer, session_id, run_id,
status}``. A turn that asks something (a domain's clarification, the confidence gate) answers
the question as the text with ``status: "waiting_input"``; ``ask`` with the same ``session_id``
answers it. Bad arguments and refused turns are tool errors (``isError``) with a one-line reason.
"""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import jsonschema
from mcp.server import Server, ServerRequestContext
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.types import (
    CallToolRequestParams,
    CallToolResult,
    ListToolsResult,
    PaginatedRequestParams,
    TextContent,
    Tool,
    ToolAnnotations,
)
from starlette.types import Receive, Scope, Send

from gateway.channels.mcp_endpoint import SLOT_STATE, TENANT_STATE
from gateway.coordination.quotas import RunSlot
from gateway.deps import new_session_id
from gateway.turns.turn import TurnService
from gateway.validation import MAX_SESSION_ID, check_json, check_session_id
from orchestrator.registry import DomainRegistry
from shared.catalog import Catalog, GoalRef
from shared.errors import PlatformError
from shared.i18n import DEFAULT_LANGUAGE, LANGUAGES, Language
from shared.i18n.bilingual import text_in
from shared.manifest import EntitySpec
from shared.models import EntryRequest, GoalCandidate, IntentOutput, RunResult

log = logging.getLogger(__name__)

ASK = "ask"
#: The language of tool descriptions: MCP clients (and the models behind them) read English best;
#: a description without English falls back to Portuguese (``text_in``).
TOOL_LANGUAGE: Language = "en"
#: The longest message ``ask`` takes (a chat message, not a document).
MAX_MESSAGE_CHARS = 8000

_SESSION_ID = {
    "type": "string",
    "minLength": 1,
    "maxLength": MAX_SESSION_ID,
    "description": "Continue this conversation (the session_id of an earlier result); a new one if absent.",
}
_LANGUAGE = {"type": "string", "enum": list(LANGUAGES), "description": "The language of the answer."}
#: Every tool's structured result.
OUTPUT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "answer": {"type": "string"},
        "session_id": {"type": "string"},
        "run_id": {"type": "string"},
        "status": {"type": "string", "description": "completed, waiting_input (answer with ask), failed..."},
    },
    "required": ["answer", "session_id", "run_id", "status"],
}
ASK_TOOL = Tool(
    name=ASK,
    title="Ask the orchestrator",
    description=(
        "Send one message to the agent orchestrator, as in a chat: it understands the request, runs "
        "the domains it needs and answers. Pass the session_id of an earlier result to continue that "
        "conversation (to answer a question it asked, or to follow up)."
    ),
    input_schema={
        "type": "object",
        "properties": {
            "message": {"type": "string", "minLength": 1, "maxLength": MAX_MESSAGE_CHARS},
            "session_id": _SESSION_ID,
        },
        "required": ["message"],
        "additionalProperties": False,
    },
    output_schema=OUTPUT_SCHEMA,
    annotations=ToolAnnotations(read_only_hint=False, open_world_hint=True),
)


@dataclass(frozen=True)
class GoalTool:
    """A registered goal offered as a tool."""

    ref: GoalRef
    tool: Tool


def tool_name(ref: GoalRef) -> str:
    """The goal's name in lower case (``GET_QUOTE`` -> ``get_quote``); a goal that would take the
    name ``ask`` gets its domain's in front."""
    name = ref.goal.goal.lower()
    return f"{ref.domain}_{name}" if name == ASK else name


def entity_schema(spec: EntitySpec) -> dict[str, Any]:
    """An entity as a JSON Schema property."""
    description = text_in(spec.description, TOOL_LANGUAGE)
    schema: dict[str, Any] = {"description": description} if description else {}
    if spec.type == "enum":
        schema.update(type="string", enum=list(spec.values or []))
    elif spec.type == "boolean":
        schema["type"] = "boolean"
    elif spec.multiple:
        schema["anyOf"] = [
            {"type": "string", "minLength": 1},
            {"type": "array", "items": {"type": "string", "minLength": 1}, "minItems": 1},
        ]
    else:
        schema.update(type="string", minLength=1)
    if spec.default is not None:
        schema["default"] = spec.default
    return schema


def goal_input_schema(ref: GoalRef) -> dict[str, Any]:
    entities = ref.goal.entities_schema
    properties: dict[str, Any] = {name: entity_schema(spec) for name, spec in entities.items()}
    # the conversation controls, unless the goal has entities of those names (theirs win)
    properties.setdefault("session_id", _SESSION_ID)
    properties.setdefault("language", _LANGUAGE)
    return {
        "type": "object",
        "properties": properties,
        "required": [name for name, spec in entities.items() if spec.required],
        "additionalProperties": False,
    }


def goal_tools(catalog: Catalog) -> dict[str, GoalTool]:
    tools: dict[str, GoalTool] = {}
    for ref in catalog.goals():
        name = tool_name(ref)
        tool = Tool(
            name=name,
            title=ref.goal.goal,
            description=f"{text_in(ref.goal.description, TOOL_LANGUAGE)} (domain: {ref.domain})",
            input_schema=goal_input_schema(ref),
            output_schema=OUTPUT_SCHEMA,
        )
        tools.setdefault(name, GoalTool(ref, tool))
    return tools


def invalid_arguments(schema: dict[str, Any], arguments: dict[str, Any]) -> str | None:
    """The first problem of ``arguments`` against ``schema``, naming the argument, or None."""
    error = jsonschema.exceptions.best_match(jsonschema.Draft202012Validator(schema).iter_errors(arguments))
    if error is None:
        return None
    where = ".".join(str(p) for p in error.absolute_path)
    return f"invalid argument {where}: {error.message}" if where else f"invalid arguments: {error.message}"


def tool_result(run: RunResult) -> CallToolResult:
    structured = {
        "answer": run.answer,
        "session_id": run.session_id,
        "run_id": run.run_id,
        "status": run.status.value,
    }
    # the answer to read, then the same as JSON (for clients that show only text content)
    return CallToolResult(
        content=[TextContent(text=run.answer), TextContent(text=json.dumps(structured, ensure_ascii=False))],
        structured_content=structured,
    )


def tool_error(message: str) -> CallToolResult:
    return CallToolResult(content=[TextContent(text=message)], is_error=True)


class PlatformMcp:
    """The ``/mcp`` server: the tools above over the registry's catalog and the turn service."""

    def __init__(self, turns: TurnService, registry: DomainRegistry, *, version: str = "0.1.0"):
        self.turns = turns
        self.registry = registry
        self._tools: tuple[str, dict[str, GoalTool]] = ("", {})
        self.server: Server[Any] = Server(
            "agent-orchestrator",
            version=version,
            instructions=(
                "One front door to every registered business domain: call a goal's tool with its "
                "entities, or 'ask' in plain words. A result with status waiting_input asks a "
                "question: answer it with 'ask' and the same session_id."
            ),
            on_list_tools=self._list_tools,
            on_call_tool=self._call_tool,
        )
        # stateless, JSON answers: any gateway behind a load balancer serves any request
        self.sessions = StreamableHTTPSessionManager(app=self.server, stateless=True, json_response=True)

    @asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        """The session manager's task group; entered once, in the gateway's lifespan."""
        async with self.sessions.run():
            yield

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.sessions.handle_request(scope, receive, send)

    def goal_tools(self) -> dict[str, GoalTool]:
        catalog = self.registry.catalog
        if self._tools[0] != catalog.fingerprint:  # rebuilt only when the catalog changed
            self._tools = (catalog.fingerprint, goal_tools(catalog))
        return self._tools[1]

    async def _list_tools(
        self, _ctx: ServerRequestContext[Any], _params: PaginatedRequestParams | None
    ) -> ListToolsResult:
        return ListToolsResult(tools=[ASK_TOOL, *(g.tool for g in self.goal_tools().values())])

    async def _call_tool(
        self, ctx: ServerRequestContext[Any], params: CallToolRequestParams
    ) -> CallToolResult:
        arguments = dict(params.arguments or {})
        goal = self.goal_tools().get(params.name)
        schema = ASK_TOOL.input_schema if params.name == ASK else goal.tool.input_schema if goal else None
        if schema is None:
            return tool_error(f"unknown tool '{params.name}'")
        problem = invalid_arguments(schema, arguments)
        if problem is None and goal is None and not str(arguments["message"]).strip():
            problem = "invalid argument message: must not be blank"
        if problem is not None:
            return tool_error(problem)
        state = getattr(ctx.request, "state", None)
        # set by the /mcp route from the caller's principal; none (no route ran): the turn is refused
        tenant: str = getattr(state, TENANT_STATE, "")
        take_slot: Callable[[], Awaitable[RunSlot]] | None = getattr(state, SLOT_STATE, None)
        try:
            # the boundary checks every /v1 body gets: texts a database can store, usable session ids
            check_json(arguments)
            if arguments.get("session_id"):
                check_session_id(str(arguments["session_id"]))
            # a tool call is a turn: it holds a place in the key's concurrent-run quota, as a chat does
            slot = await take_slot() if take_slot is not None else RunSlot()
            try:
                if goal is None:
                    return tool_result(await self._ask(arguments, tenant))
                return tool_result(await self._run_goal(goal.ref, arguments, tenant))
            finally:
                await slot.release()
        except PlatformError as exc:  # a busy session, another tenant's session, the run quota: one line
            return tool_error(exc.message)
        except Exception:  # the trace goes to the log, never to the client
            log.exception("MCP tool %s failed", params.name)
            return tool_error("internal error")

    async def _ask(self, arguments: dict[str, Any], tenant: str) -> RunResult:
        entry = EntryRequest(
            session_id=arguments.get("session_id") or new_session_id(),
            input_text=str(arguments["message"]).strip(),
            channel="mcp",
        )
        return await self.turns.handle(entry, tenant=tenant)

    async def _run_goal(self, ref: GoalRef, arguments: dict[str, Any], tenant: str) -> RunResult:
        entities = {k: v for k, v in arguments.items() if k in ref.goal.entities_schema}
        session_id = str(arguments.get("session_id") or new_session_id())
        asked_in = None if "language" in ref.goal.entities_schema else arguments.get("language")
        language = str(asked_in or DEFAULT_LANGUAGE)
        # what the session's history shows for this message: the goal and what it was given
        text = f"{ref.goal.goal} {json.dumps(entities, ensure_ascii=False)}"
        intent = IntentOutput(
            primary_domain=ref.domain,
            goal=ref.goal.goal,
            entities=entities,
            confidence=1.0,  # named by the caller, not guessed
            original_query=text,
            alternatives=[GoalCandidate(domain=ref.domain, goal=ref.goal.goal, confidence=1.0)],
            adapter="mcp",
            language=language,
        )
        # the intent stands in for the parse of the text; the rest is a typed message's turn
        entry = EntryRequest(session_id=session_id, input_text=text, channel="mcp", intent=intent)
        return await self.turns.handle(entry, tenant=tenant)
