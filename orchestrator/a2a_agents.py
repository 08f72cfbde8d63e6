"""A remote A2A agent presented as a domain: the registry and the orchestrator talk to it through
:class:`~orchestrator.client.DomainClient` exactly as they talk to an SDK domain. This is the part
that speaks A2A with the official ``a2a-sdk``; :class:`orchestrator.a2a_domain.A2ADomains` loads
it on the first call to an agent (the SDK stays off the gateway's start-up path).

A registered A2A agent's base URL is its agent card's URL (``https://host/.well-known/agent-card.json``),
so the one stored string says how to call it: the bootstrap file, stored registrations and other
gateways need nothing more. What the domain protocol asks of a domain maps onto A2A like this:

============================  ==================================================================
``GET /manifest``             the agent card: one goal and one capability per skill
                              (:func:`manifest_from_card`), the skill's examples as the goal's
``GET /health``               the agent card answers
``POST /execute``             ``SendMessage`` (``message/send`` for A2A 0.3 agents): the person's
                              words as a text part, the step's parameters as a data part
============================  ==================================================================

The answer: a ``completed`` task is a success (its artifacts' text the explanation, their data
parts the result), ``input-required`` a clarification whose reply goes back to the same task
(:class:`~shared.models.ContinueWith`), anything else a failure. The platform's session is the
agent's ``contextId`` (hashed: the agent never sees the platform's own id). Calls go through the
official ``a2a-sdk`` transports on the gateway's domain HTTP client; transport errors are raised as
httpx's, for :func:`orchestrator.client.map_httpx_exceptions` to word like any domain's.
"""

from __future__ import annotations

import hashlib
import json
import re
import uuid
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any
from urllib.parse import urlsplit

import httpx
from a2a.client import A2AClientError, ClientCallContext
from a2a.client.card_resolver import parse_agent_card
from a2a.client.transports.base import ClientTransport
from a2a.client.transports.jsonrpc import JsonRpcTransport
from a2a.client.transports.rest import RestTransport
from a2a.compat.v0_3.jsonrpc_transport import CompatJsonRpcTransport
from a2a.compat.v0_3.rest_transport import CompatRestTransport
from a2a.helpers.proto_helpers import get_data_parts, get_text_parts, new_data_part, new_text_part
from a2a.types import AgentCard, AgentInterface, Message, Part, Role, SendMessageRequest, Task, TaskState
from a2a.utils.constants import PROTOCOL_VERSION_1_0, VERSION_HEADER
from a2a.utils.errors import A2AError
from google.protobuf.json_format import ParseError

from orchestrator.a2a_domain import DEFAULT_TIMEOUT_S, REMOTE_FAILED, REMOTE_NOT_FINISHED, REPLY_PARAM
from shared.errors import DomainProtocolError
from shared.manifest import GOAL_NAME, DomainManifest, ManifestInvalid, ManifestLimits, parse_manifest
from shared.models import Clarification, ContinueWith, DomainOutput, ExecutionIntent, Failure
from shared.telemetry.tracing import inject_trace_context

#: Tasks waiting for the person's reply, remembered at most (oldest forgotten first).
_PENDING_MAX = 10_000
#: binding -> (the A2A 1.0 transport, the 0.3 one), each built as ``(http, card, url, is_shared_httpx=)``
_TRANSPORTS: dict[str, tuple[Callable[..., ClientTransport], Callable[..., ClientTransport]]] = {
    "JSONRPC": (JsonRpcTransport, CompatJsonRpcTransport),
    "HTTP+JSON": (RestTransport, CompatRestTransport),
}


def capability_name(skill_id: str) -> str:
    """A capability identifier for a skill id (``Currency Convert`` -> ``currency_convert``).

    >>> capability_name("Currency Convert"), capability_name("2fa")
    ('currency_convert', 's_2fa')
    """
    name = re.sub(r"[^a-z0-9_\-]", "_", skill_id.lower())
    return name if re.match(r"^[a-z]", name) else f"s_{name}"


def goal_name(domain: str, skill_id: str) -> str:
    """The goal of a skill: domain and skill, upper case, so two agents with the same skill id
    never claim the same goal.

    >>> goal_name("fx", "convert-currency")
    'FX_CONVERT_CURRENCY'
    """
    name = re.sub(r"_+", "_", re.sub(r"[^A-Z0-9_]", "_", f"{domain}_{skill_id}".upper()))
    return name if re.match(GOAL_NAME, name) else f"G_{name}"


def manifest_from_card(card: AgentCard, domain: str, limits: ManifestLimits | None = None) -> DomainManifest:
    """The manifest of a remote agent registered as ``domain``: one capability and one goal per
    skill (a card without skills is one skill, the agent itself). Goals have no entities: the
    agent reads the person's own words."""
    skills = [(s.id or s.name, s.name, s.description, list(s.examples), list(s.tags)) for s in card.skills]
    if not skills:
        skills = [(domain, card.name, card.description, [], [])]
    capabilities: list[dict[str, Any]] = []
    goals: list[dict[str, Any]] = []
    for skill_id, name, description, examples, tags in skills:
        capability = capability_name(skill_id)
        if any(c["name"] == capability for c in capabilities):
            continue  # two skill ids that read the same: the first one wins
        described = (description or name or skill_id).strip()
        capabilities.append(
            {
                "name": capability,
                "description": described,
                "parameters": {"type": "object"},
                "metadata": {
                    "intent_hints": {"keywords": tags, "examples": examples},
                    # a message is not known to be safe to send twice
                    "policy": {"attempts": 1, "idempotent": False, "timeout_s": DEFAULT_TIMEOUT_S},
                },
            }
        )
        goals.append(
            {
                "goal": goal_name(domain, skill_id),
                "description": described[:500],
                "capabilities": [capability],
                "examples": _unique(examples or [name, described]),
            }
        )
    raw = {
        "domain": domain,
        "version": card.version or "0",
        "description": (card.description or card.name or domain).strip(),
        "capabilities": capabilities,
        "goals": goals,
    }
    return parse_manifest(json.dumps(raw).encode(), limits)


def output_from_task(task: Task, capability: str) -> DomainOutput:
    """A task's outcome as a domain answer."""
    state = task.status.state
    said = _text(task.status.message.parts) if task.status.HasField("message") else ""
    if state == TaskState.TASK_STATE_COMPLETED:
        parts = [p for artifact in task.artifacts for p in artifact.parts]
        return DomainOutput(
            status="success", explanation=_text(parts) or said, result=_data(parts), metadata=_ids(task)
        )
    if state == TaskState.TASK_STATE_INPUT_REQUIRED:
        question = said or _text([p for a in task.artifacts for p in a.parts])
        return DomainOutput(
            status="clarification",
            explanation=question,
            clarification=Clarification(
                question=question, continue_with=ContinueWith(capability=capability, param=REPLY_PARAM)
            ),
            metadata=_ids(task),
        )
    finished = state in (
        TaskState.TASK_STATE_FAILED,
        TaskState.TASK_STATE_REJECTED,
        TaskState.TASK_STATE_CANCELED,
    )
    return DomainOutput(
        status="failure",
        explanation=said or TaskState.Name(state),
        failure=Failure(reason=REMOTE_FAILED if finished else REMOTE_NOT_FINISHED),
        metadata={**_ids(task), "state": TaskState.Name(state)},
    )


def output_from_message(message: Message) -> DomainOutput:
    """An agent that answers with a message (no task) has answered."""
    return DomainOutput(
        status="success", explanation=_text(message.parts), result=_data(message.parts), metadata={}
    )


class A2AAgents:
    """Speaks A2A to the registered agents, for :class:`~orchestrator.a2a_domain.A2ADomains`.

    The card is read at registration and on every health check (the registry's refresh), and kept
    to pick the agent's interface; tasks waiting for the person's reply are remembered by
    context, so the reply continues the same task."""

    def __init__(self) -> None:
        self._cards: dict[str, AgentCard] = {}
        #: remote context id -> the task that asked the person something
        self._pending: OrderedDict[str, str] = OrderedDict()

    async def manifest(
        self, http: httpx.AsyncClient, base_url: str, domain: str, limits: ManifestLimits | None = None
    ) -> DomainManifest:
        card = await self._card(http, base_url, limits)
        _transport(http, card, base_url)  # an agent we cannot call is refused at registration
        return manifest_from_card(card, domain, limits)

    async def health(self, http: httpx.AsyncClient, base_url: str) -> dict[str, object]:
        card = await self._card(http, base_url)
        return {"status": "ok", "agent": card.name, "version": card.version}

    async def execute(
        self,
        http: httpx.AsyncClient,
        base_url: str,
        intent: ExecutionIntent,
        timeout: float | None = None,  # noqa: ASYNC109 (the DomainClient contract's per-call timeout)
        idempotency_key: str = "",
    ) -> DomainOutput:
        """Send the step as a message. A repeated call with the same ``idempotency_key`` sends the
        same ``messageId``, which an agent may use to recognise the repeat."""
        card = self._cards.get(base_url) or await self._card(http, base_url)
        transport, version = _transport(http, card, base_url)
        context_id = remote_context(base_url, str(intent.context.get("session_id") or ""))
        reply = intent.parameters.get(REPLY_PARAM)
        text = str(reply) if reply is not None else intent.original_query
        parameters = {k: v for k, v in intent.parameters.items() if k != REPLY_PARAM}
        parts = [new_text_part(text or intent.capability)]
        if parameters:
            parts.append(new_data_part(json.loads(json.dumps(parameters, default=str)), "application/json"))
        message = Message(
            role=Role.ROLE_USER,
            message_id=_message_id(idempotency_key) if idempotency_key else uuid.uuid4().hex,
            context_id=context_id,
            task_id=self._pending.pop(context_id, "") if reply is not None else "",
            parts=parts,
        )
        headers = {VERSION_HEADER: version}
        inject_trace_context(headers)
        call = ClientCallContext(service_parameters=headers, timeout=timeout or DEFAULT_TIMEOUT_S)
        try:
            response = await transport.send_message(SendMessageRequest(message=message), context=call)
        except A2AError as exc:
            raise _platform_error(base_url, exc) from None
        if response.HasField("message"):
            return output_from_message(response.message)
        output = output_from_task(response.task, intent.capability)
        if output.status == "clarification":
            self._remember(context_id, response.task.id)
        return output

    async def _card(
        self, http: httpx.AsyncClient, base_url: str, limits: ManifestLimits | None = None
    ) -> AgentCard:
        """Fetch and parse the card (transport errors raised as httpx's)."""
        response = await http.get(base_url)
        response.raise_for_status()
        cap = (limits or ManifestLimits()).max_bytes
        if len(response.content) > cap:
            raise ManifestInvalid([{"path": "$", "message": f"agent card larger than {cap} bytes"}])
        try:
            card = parse_agent_card(response.json())
        except (ValueError, ParseError) as exc:
            raise DomainProtocolError(f"{base_url} is not an A2A agent card: {str(exc)[:200]}") from None
        self._cards[base_url] = card
        return card

    def _remember(self, context_id: str, task_id: str) -> None:
        self._pending[context_id] = task_id
        self._pending.move_to_end(context_id)
        while len(self._pending) > _PENDING_MAX:
            self._pending.popitem(last=False)


def remote_context(base_url: str, session_id: str) -> str:
    """The agent's ``contextId`` for a platform session: stable, and not the session's own id."""
    return hashlib.sha256(f"{base_url}\n{session_id}".encode()).hexdigest()[:32]


def _transport(http: httpx.AsyncClient, card: AgentCard, base_url: str) -> tuple[ClientTransport, str]:
    """The SDK transport for the card's best interface we speak (A2A 1.0 first, then 0.3), and
    the protocol version it speaks."""
    interface = _best_interface(list(card.supported_interfaces))
    if interface is None:
        raise DomainProtocolError(f"the agent card at {base_url} lists no JSON-RPC or HTTP+JSON interface")
    if _origin(interface.url) != _origin(base_url):
        # the card was vetted by the outbound URL policy; an endpoint elsewhere was not
        raise DomainProtocolError(
            f"the agent card at {base_url} names an endpoint on another host ({_origin(interface.url)})"
        )
    current, legacy = _TRANSPORTS[interface.protocol_binding]
    version = interface.protocol_version or "0.3"
    if version.startswith("0."):
        return legacy(http, card, interface.url, is_shared_httpx=True), version
    return current(http, card, interface.url, is_shared_httpx=True), PROTOCOL_VERSION_1_0


def _best_interface(interfaces: list[AgentInterface]) -> AgentInterface | None:
    usable = [i for i in interfaces if i.protocol_binding in _TRANSPORTS and i.url]
    # 1.x before 0.x; among equals, the card's own order (its preference)
    return min(
        usable, key=lambda i: 0 if not (i.protocol_version or "0.").startswith("0.") else 1, default=None
    )


def _message_id(idempotency_key: str) -> str:
    return hashlib.sha256(idempotency_key.encode()).hexdigest()[:32]


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower()


def _platform_error(base_url: str, exc: A2AError) -> Exception:
    """A transport failure as httpx's own exception (mapped with every domain's), an agent's
    protocol error as a ``DomainProtocolError``."""
    cause = exc.__cause__
    if isinstance(exc, A2AClientError) and isinstance(cause, httpx.HTTPError):
        return cause
    return DomainProtocolError(f"{base_url}: the agent answered with an error: {str(exc)[:300]}")


def _text(parts: Sequence[Part]) -> str:
    return "\n".join(t for t in get_text_parts(list(parts)) if t).strip()


def _data(parts: Sequence[Part]) -> dict[str, object]:
    result: dict[str, object] = {}
    for value in get_data_parts(list(parts)):
        if isinstance(value, dict):
            result.update(value)
    return result


def _ids(task: Task) -> dict[str, str]:
    return {"a2a_task_id": task.id, "a2a_context_id": task.context_id}


def _unique(texts: list[str]) -> list[str]:
    seen: list[str] = []
    for text in texts:
        text = (text or "").strip()
        if text and text not in seen:
            seen.append(text)
    return seen
