"""An MCP server (streamable HTTP) presented as a domain: the registry and the orchestrator talk to
it through :class:`~orchestrator.client.DomainClient` exactly as they talk to an SDK domain.

A registered MCP server's base URL carries the protocol in its scheme, ``mcp+http://host/mcp``
(``mcp+https://`` too), so the one stored string says how to call it: the bootstrap file, stored
registrations and other gateways need nothing more. A local server the operator declares by
command in the bootstrap file is ``mcp+stdio://<name>``: its session is held by
:mod:`orchestrator.mcp_stdio` and every call below goes through it the same way. What the domain
protocol asks of a domain maps onto MCP like this:

============================  ==================================================================
``GET /manifest``             ``tools/list``: one capability per tool (:func:`manifest_from_tools`)
``GET /health``               the MCP handshake (``server/discover`` or ``initialize``)
``POST /execute``             ``tools/call`` with the step's parameters (:func:`output_from_result`)
============================  ==================================================================

Tool -> capability: ``inputSchema`` is the capability's ``parameters``, ``outputSchema`` its
``output_schema`` (the run loop validates ``structuredContent`` against it),
``annotations.idempotentHint`` (or ``readOnlyHint``) lets the run loop retry it (two attempts,
else one), ``annotations.destructiveHint: true`` is recorded as ``policy.confirm``. Goals are the
ones given at registration (:class:`McpRegistration`), else one per tool generated from its name,
description and input schema. The gateway stores the given ones with the registration
(``gateway.storage.registrations``), so a restarted gateway, and every other one, uses them too.

The ``mcp`` SDK (its protocol models cost a noticeable part of the gateway's start) is imported by
the functions that talk to a server or read its answers, on first use: the URL helpers,
:class:`McpRegistration` and an idle :class:`McpDomains` never load it, so a gateway with no MCP
server registered does not either (``tests/gateway/test_lazy_imports.py`` keeps it so).
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator, Iterable, Iterator
from contextlib import asynccontextmanager, contextmanager
from http.cookiejar import CookieJar, DefaultCookiePolicy
from typing import TYPE_CHECKING, Any

import anyio
import httpx2
from pydantic import BaseModel, Field, ValidationError

from orchestrator.bounded_decoding import BoundedDecodingTransport
from orchestrator.mcp_stdio import STDIO_PREFIX, StdioServer, is_stdio_url, stdio_name
from shared.errors import DomainProtocolError, DomainUnavailable
from shared.i18n import Catalog
from shared.manifest import (
    GOAL_NAME,
    DomainManifest,
    Goal,
    ManifestInvalid,
    ManifestLimits,
    RegistrationText,
    parse_manifest,
)
from shared.models import DomainOutput, ExecutionIntent, Failure

if TYPE_CHECKING:
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters
    from mcp.types import CallToolResult, Tool

#: The scheme prefix of a registered MCP server's base URL.
MCP_SCHEME_PREFIX = "mcp+"
#: How many ``tools/list`` pages are read at most (a server that pages forever is cut off).
MAX_TOOL_PAGES = 20
#: Failure reason of a tool that answered ``isError``.
TOOL_ERROR = "tool_error"
#: Default seconds for one handshake, listing or call when the caller gives no timeout.
DEFAULT_TIMEOUT_S = 10.0
#: What a person reads when a tool says nothing itself.
MESSAGES = Catalog(
    {
        "tool_failed": {
            "pt": "A ferramenta '{tool}' falhou sem dizer o motivo.",
            "en": "The '{tool}' tool failed without saying why.",
        }
    }
)


def is_mcp_url(url: str) -> bool:
    """An MCP server's base URL: streamable HTTP, or a stdio server the bootstrap file declares."""
    return url.startswith((f"{MCP_SCHEME_PREFIX}http://", f"{MCP_SCHEME_PREFIX}https://", STDIO_PREFIX))


def mcp_base_url(endpoint: str) -> str:
    """The registry's base URL for the MCP endpoint ``http(s)://host/mcp``."""
    return endpoint if is_mcp_url(endpoint) else MCP_SCHEME_PREFIX + endpoint


def endpoint_url(base_url: str) -> str:
    """The HTTP URL behind a base URL (the outbound URL policy checks this one)."""
    return base_url.removeprefix(MCP_SCHEME_PREFIX) if is_mcp_url(base_url) else base_url


class McpRegistration(BaseModel):
    """What an admin may add to an MCP server's tools when registering it."""

    #: The domain's description (by language or one string); default: the server's instructions,
    #: else its name.
    description: RegistrationText | None = None
    #: The goals people ask for, mapping to tool capabilities; default: one generated per tool.
    goals: list[Goal] = Field(default_factory=list)


# ---------------------------------------------------------------- tools -> manifest


def capability_name(tool_name: str) -> str:
    """A capability identifier for an MCP tool name (``Stock.Report`` -> ``stock_report``).

    >>> capability_name("Stock.Report"), capability_name("get-weather"), capability_name("2fa")
    ('stock_report', 'get-weather', 't_2fa')
    """
    name = re.sub(r"[^a-z0-9_\-]", "_", tool_name.lower())
    return name if re.match(r"^[a-z]", name) else f"t_{name}"


def goal_name(domain: str, tool_name: str) -> str:
    """A generated goal's name: domain and tool, upper case (``warehouse``, ``stock_level`` ->
    ``WAREHOUSE_STOCK_LEVEL``), so two servers with the same tool never claim the same goal.

    >>> goal_name("warehouse", "Stock.Report")
    'WAREHOUSE_STOCK_REPORT'
    """
    name = re.sub(r"[^A-Z0-9_]", "_", f"{domain}_{tool_name}".upper())
    name = name if re.match(GOAL_NAME, name) else f"G_{name}"
    return re.sub(r"_+", "_", name)


def tool_policy(tool: Tool) -> dict[str, Any]:
    """The capability's execution policy from the tool's annotations (hints, absent = unknown)."""
    hints = tool.annotations
    read_only = bool(hints and hints.read_only_hint)
    idempotent = bool(hints and (hints.idempotent_hint or read_only))
    # only an explicit hint asks for approval: most servers annotate nothing at all
    destructive = bool(hints and hints.destructive_hint is True and not read_only)
    return {"attempts": 2 if idempotent else 1, "idempotent": idempotent, "confirm": destructive}


def entities_from_schema(parameters: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Goal entities for the tool parameters a person can name in words (strings, numbers,
    enums, booleans, lists of strings); other parameters are left to the tool's defaults."""
    properties = parameters.get("properties")
    if not isinstance(properties, dict):
        return {}
    required = set(parameters.get("required") or [])
    entities: dict[str, dict[str, Any]] = {}
    for name, schema in properties.items():
        if not isinstance(schema, dict):
            continue
        spec = _entity(schema)
        if spec is None:
            continue
        description = schema.get("description") or schema.get("title") or ""
        entities[name] = {**spec, "description": str(description)[:300], "required": name in required}
    return entities


def _entity(schema: dict[str, Any]) -> dict[str, Any] | None:
    kind = schema.get("type")
    values = schema.get("enum")
    if isinstance(values, list) and values and all(isinstance(v, str) for v in values):
        return {"type": "enum", "values": values}
    if kind == "boolean":
        return {"type": "boolean"}
    if kind in ("string", "integer", "number"):
        return {"type": "string"}
    items = schema.get("items")
    if kind == "array" and isinstance(items, dict) and items.get("type") == "string":
        return {"type": "string", "multiple": True}
    return None


def generated_goal(domain: str, tool: Tool, capability: str) -> dict[str, Any]:
    """One goal per tool: its description as what it is for, its title and words as examples."""
    description = (tool.description or tool.title or tool.name).strip()
    first_sentence = description.split("\n")[0].strip()
    examples = _unique([first_sentence, tool.title or "", tool.name.replace("_", " ").replace(".", " ")])
    return {
        "goal": goal_name(domain, tool.name),
        "description": first_sentence[:500],
        "entities_schema": entities_from_schema(tool.input_schema),
        "capabilities": [capability],
        "examples": examples,
    }


def _unique(texts: Iterable[str]) -> list[str]:
    seen: dict[str, str] = {}
    for text in texts:
        key = text.strip().lower()
        if key and key not in seen:
            seen[key] = text.strip()
    return list(seen.values())


def manifest_from_tools(
    domain: str,
    tools: list[Tool],
    *,
    version: str,
    description: str,
    registration: McpRegistration | None = None,
    limits: ManifestLimits | None = None,
) -> DomainManifest:
    """The manifest of an MCP server, validated like any fetched one (same schema, same limits;
    a given goal naming an unknown capability is a :class:`ManifestInvalid` with its path)."""
    capabilities = []
    goals: list[dict[str, Any]] = []
    for tool in tools:
        name = capability_name(tool.name)
        capability: dict[str, Any] = {
            "name": name,
            "description": (tool.description or tool.title or tool.name).strip()[:2000],
            "parameters": tool.input_schema or {"type": "object"},
            "metadata": {"policy": tool_policy(tool)},
        }
        if tool.output_schema:
            capability["output_schema"] = tool.output_schema
        capabilities.append(capability)
        goals.append(generated_goal(domain, tool, name))
    if registration is not None and registration.goals:
        goals = [g.model_dump(mode="json", exclude_defaults=True) for g in registration.goals]
    data = {
        "domain": domain,
        "version": version or "0",
        "description": (registration.description if registration else None) or description or domain,
        "capabilities": capabilities,
        "goals": goals,
    }
    return parse_manifest(json.dumps(data).encode(), limits)


# ---------------------------------------------------------------- tools/call -> DomainOutput


def output_from_result(result: CallToolResult, tool: str = "", language: str = "pt") -> DomainOutput:
    """A ``tools/call`` result as a domain output: ``isError`` is a non-recoverable failure whose
    explanation is the tool's text; otherwise ``structuredContent`` is the result (the text, when
    there is none) and the text is the explanation."""
    from mcp.types import TextContent

    text = "\n".join(block.text for block in result.content if isinstance(block, TextContent)).strip()
    structured = result.structured_content
    if result.is_error:
        return DomainOutput(
            status="failure",
            explanation=text or MESSAGES.t("tool_failed", language, tool=tool),
            failure=Failure(reason=TOOL_ERROR, recoverable=False),
            metadata={"mcp": {"is_error": True}},
        )
    if isinstance(structured, dict):
        payload: dict[str, Any] = structured
    elif structured is not None:
        payload = {"value": structured}
    else:
        payload = {"text": text}
    return DomainOutput(status="success", result=payload, explanation=_readable(text, structured))


def _readable(text: str, structured: Any) -> str:
    """The tool's text, unless it is only the JSON of its structured content: then that content
    as ``key: value`` pairs, which reads better in a chat than a JSON document."""
    if not isinstance(structured, dict) or not text:
        return text
    try:
        same = json.loads(text) == structured
    except ValueError:
        same = False
    if not same:
        return text
    return ", ".join(f"{key}: {_scalar(value)}" for key, value in structured.items())


def _scalar(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def coerce_arguments(parameters: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    """Entities read from text are strings; a tool parameter declared ``integer``, ``number`` or
    ``boolean`` gets the value it means ("3" -> 3). Anything that does not convert is passed as
    it is, for the tool to refuse with its own message."""
    properties = schema.get("properties")
    if not isinstance(properties, dict):
        return dict(parameters)
    coerced: dict[str, Any] = {}
    for name, value in parameters.items():
        declared = properties.get(name)
        kind = declared.get("type") if isinstance(declared, dict) else None
        coerced[name] = _coerce(value, kind) if isinstance(value, str) else value
    return coerced


def _coerce(value: str, kind: Any) -> Any:
    text = value.strip()
    try:
        if kind == "integer":
            return int(text)
        if kind == "number":
            return float(text.replace(",", ".")) if "," in text and "." not in text else float(text)
    except ValueError:
        return value
    if kind == "boolean" and text.lower() in ("true", "false"):
        return text.lower() == "true"
    return value


# ---------------------------------------------------------------- the client


class McpDomains:
    """Speaks MCP to the registered MCP servers, for :class:`~orchestrator.client.DomainClient`.

    One MCP connection per call (handshake, then the request) over one shared HTTP client: no
    MCP session is held between calls, so a restarted server is simply reached again, while TCP
    connections are kept alive and the client (whose set-up costs more than a call) is built
    once. ``registrations`` are what the admin gave at registration, by domain name. Stdio
    servers (:meth:`add_stdio`) are the exception: one session each, held until :meth:`aclose`."""

    def __init__(self, *, timeout_s: float = DEFAULT_TIMEOUT_S, max_answer_bytes: int | None = None) -> None:
        self.timeout_s = timeout_s
        #: no answer is read past this many decoded bytes (a default cap when ``None``)
        self.max_answer_bytes = max_answer_bytes
        self._http: httpx2.AsyncClient | None = None
        self._registrations: dict[str, McpRegistration] = {}
        #: base URL -> capability -> the tool it was listed from (its real name, its input schema)
        self._tools: dict[str, dict[str, Tool]] = {}
        #: stdio servers the operator declared, by domain name (``mcp+stdio://<name>``)
        self._stdio: dict[str, StdioServer] = {}

    def add_stdio(self, domain: str, parameters: StdioServerParameters) -> None:
        """Start the stdio MCP server ``domain`` (its session held until :meth:`aclose`); only
        the operator's bootstrap file declares these (:mod:`orchestrator.mcp_bootstrap`)."""
        if domain in self._stdio:
            return
        server = StdioServer(domain, parameters)
        self._stdio[domain] = server
        server.start()

    def configure(self, domain: str, registration: McpRegistration) -> None:
        """Use ``registration`` (description, goals) for ``domain``'s manifest from now on."""
        self._registrations[domain] = registration

    def forget(self, domain: str) -> None:
        self._registrations.pop(domain, None)

    def registration(self, domain: str) -> McpRegistration | None:
        """What ``domain``'s manifest is built with (the proposed one while a registration is
        attempted); None when nothing was given."""
        return self._registrations.get(domain)

    @contextmanager
    def proposed(self, domain: str, registration: McpRegistration | None) -> Iterator[None]:
        """``registration`` for ``domain`` while a registration is attempted, kept if the block
        succeeds; a refused one leaves what was there before. ``None`` changes nothing."""
        if registration is None:
            yield
            return
        previous = self._registrations.get(domain)
        self._registrations[domain] = registration
        try:
            yield
        except BaseException:
            if previous is None:
                self._registrations.pop(domain, None)
            else:
                self._registrations[domain] = previous
            raise

    async def manifest(
        self, base_url: str, domain: str, limits: ManifestLimits | None = None
    ) -> DomainManifest:
        """List the server's tools and build ``domain``'s manifest from them."""
        endpoint = endpoint_url(base_url)
        with _mapped(endpoint), anyio.fail_after(self.timeout_s):
            async with self._connect(base_url) as client:
                tools = await _all_tools(client)
                info = client.server_info
                instructions = client.instructions
        self._tools[base_url] = {capability_name(t.name): t for t in tools}
        description = instructions or (info.title or info.name if info else "") or domain
        return manifest_from_tools(
            domain,
            tools,
            version=(info.version if info else "") or "0",
            description=description,
            registration=self._registrations.get(domain),
            limits=limits,
        )

    async def health(self, base_url: str) -> dict[str, object]:
        """Up when the MCP handshake succeeds."""
        endpoint = endpoint_url(base_url)
        with _mapped(endpoint), anyio.fail_after(self.timeout_s):
            async with self._connect(base_url) as client:
                version = client.protocol_version
        return {"status": "ok", "protocol_version": version}

    async def execute(
        self,
        base_url: str,
        intent: ExecutionIntent,
        timeout: float | None = None,  # noqa: ASYNC109 (the DomainClient contract's per-call timeout)
    ) -> DomainOutput:
        """``tools/call`` for the intent's capability with its parameters. MCP has no idempotency
        key: the capability's policy (from ``idempotentHint``) is what keeps retries safe."""
        endpoint = endpoint_url(base_url)
        tool = self._tools.get(base_url, {}).get(intent.capability)
        name = tool.name if tool is not None else intent.capability
        arguments = coerce_arguments(intent.parameters, tool.input_schema if tool is not None else {})
        with _mapped(endpoint), anyio.fail_after(timeout or self.timeout_s):
            async with self._connect(base_url) as client:
                result = await client.call_tool(name, arguments)
        return output_from_result(result, name, str(intent.context.get("language", "pt")))

    async def aclose(self) -> None:
        """Close the HTTP client and stop every stdio server (no child process outlives this)."""
        servers, self._stdio = list(self._stdio.values()), {}
        await asyncio.gather(*(server.stop() for server in servers))
        if self._http is not None:
            await self._http.aclose()
            self._http = None

    @asynccontextmanager
    async def _connect(self, base_url: str) -> AsyncIterator[Client]:
        if is_stdio_url(base_url):  # the held session, left open for the next call
            server = self._stdio.get(stdio_name(base_url))
            if server is None:
                raise DomainUnavailable(
                    f"no stdio MCP server {stdio_name(base_url)} is declared in the bootstrap file",
                    details={"delivered": False},
                )
            yield await server.client()
            return
        from mcp import Client
        from mcp.client.streamable_http import streamable_http_client

        endpoint = endpoint_url(base_url)
        if self._http is None:  # no await between the test and the assignment: built once
            # as domains are called: no proxies from the environment, and no cookies kept (one
            # client serves every person's calls)
            self._http = httpx2.AsyncClient(
                timeout=self.timeout_s,
                trust_env=False,
                cookies=CookieJar(DefaultCookiePolicy(allowed_domains=[])),
                # answers capped on their decoded size, as every domain answer is
                transport=BoundedDecodingTransport(httpx2.AsyncHTTPTransport(), self.max_answer_bytes),
            )
        transport = streamable_http_client(endpoint, http_client=self._http)
        async with Client(transport, cache=None) as client:
            yield client


async def _all_tools(client: Client) -> list[Tool]:
    tools: list[Tool] = []
    cursor: str | None = None
    for _ in range(MAX_TOOL_PAGES):
        page = await client.list_tools(cursor=cursor, cache_mode="refresh")
        tools.extend(page.tools)
        cursor = page.next_cursor
        if cursor is None:
            break
    return tools


@contextmanager
def _mapped(endpoint: str) -> Iterator[None]:
    """MCP and transport errors as the platform's (``DomainUnavailable``: not reachable, not in
    time; ``DomainProtocolError``: it answered, but not as an MCP server), one line each. The
    SDK runs its transport in a task group, so errors may arrive grouped."""
    try:
        yield
    except (ManifestInvalid, DomainUnavailable):
        raise
    except TimeoutError:
        raise DomainUnavailable(f"{endpoint} did not answer in time") from None
    except BaseExceptionGroup as group:
        leaves = list(_leaves(group))
        if not leaves or any(not isinstance(leaf, Exception) for leaf in leaves):
            raise  # a cancellation or an interpreter exit is not the server's doing
        raise _platform_error(endpoint, leaves[0]) from None
    except Exception as exc:
        raise _platform_error(endpoint, exc) from None


def _leaves(error: BaseException) -> Iterator[BaseException]:
    if isinstance(error, BaseExceptionGroup):
        for inner in error.exceptions:
            yield from _leaves(inner)
    else:
        yield error


def _platform_error(endpoint: str, exc: BaseException) -> DomainUnavailable | DomainProtocolError:
    from mcp import MCPError
    from mcp.types import CONNECTION_CLOSED

    if isinstance(exc, httpx2.ConnectError | httpx2.ConnectTimeout):
        return DomainUnavailable(f"could not connect to {endpoint}", details={"delivered": False})
    if isinstance(exc, httpx2.TimeoutException | TimeoutError):
        return DomainUnavailable(f"{endpoint} did not answer in time")
    if isinstance(exc, httpx2.HTTPStatusError):
        status = exc.response.status_code
        message = f"{endpoint} answered HTTP {status}"
        return DomainUnavailable(message) if status in (502, 503, 504) else DomainProtocolError(message)
    if isinstance(exc, httpx2.TransportError):
        return DomainUnavailable(f"connection to {endpoint} failed ({type(exc).__name__})")
    if isinstance(exc, MCPError) and exc.error.code == CONNECTION_CLOSED:
        # the server went away (a stdio child that died): unavailable, restarted for the next call
        return DomainUnavailable(f"connection to {endpoint} closed")
    if isinstance(exc, MCPError):
        return DomainProtocolError(f"{endpoint} answered with an MCP error: {exc.error.message[:300]}")
    if isinstance(exc, ValidationError):
        return DomainProtocolError(f"{endpoint} answered with an invalid MCP message")
    return DomainProtocolError(f"{endpoint} did not answer as an MCP server ({type(exc).__name__})")
