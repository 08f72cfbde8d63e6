"""The A2A channel: the platform as one A2A agent.

* ``GET /.well-known/agent-card.json``: the platform's card, built per request from the live
  catalog (every registered goal is a skill, so a domain registered at runtime shows at once).
* ``POST /a2a``: A2A JSON-RPC, served by the official ``a2a-sdk`` (its JSON-RPC dispatcher and
  default request handler): ``SendMessage`` / ``SendStreamingMessage`` (A2A 1.0) and
  ``message/send`` / ``message/stream`` (A2A 0.3), plain and SSE. Same API keys as ``/v1/*``.

Each message is one turn of :class:`gateway.turns.turn.TurnService`, the path every channel takes, on
the session named by the message's ``contextId``. The turn's outcome is the task's state: a
question for the person (a domain's clarification, the confidence gate) is ``input-required``
with the question as the agent's message, an answer ``completed`` with the answer as a text
artifact (and the domain's structured result as a data part), anything else ``failed``.
A2A tasks live in this process's memory; the conversation itself is the session, stored as on
every other channel, so a follow-up in the same ``contextId`` continues it after a restart too.

The routes, and the start of this server after the gateway's own (it imports the SDK), are
:mod:`gateway.channels.a2a_endpoint`'s.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import OrderedDict
from collections.abc import Iterable
from typing import Any

from a2a.auth.user import User
from a2a.helpers.proto_helpers import new_data_part, new_task_from_user_message, new_text_part
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.context import ServerCallContext
from a2a.server.events import EventQueue
from a2a.server.request_handlers import DefaultRequestHandler
from a2a.server.routes.common import DefaultServerCallContextBuilder
from a2a.server.routes.jsonrpc_dispatcher import JsonRpcDispatcher
from a2a.server.tasks import InMemoryTaskStore, TaskUpdater
from a2a.types import AgentCard, Part, Task
from fastapi import Request, Response
from starlette.requests import Request as StarletteRequest

from gateway.channels.a2a_endpoint import DESCRIPTION, RPC_PATH
from gateway.channels.progress import progress_text
from gateway.deps import MAX_SESSION_ID
from gateway.turns.turn import TurnService, new_run_id
from shared.agent_card import card_json, platform_card
from shared.errors import PlatformError
from shared.events import StepEvent
from shared.i18n import detect, t
from shared.manifest import DomainManifest
from shared.models import EntryRequest, RunResult
from shared.status import RunStatus

log = logging.getLogger(__name__)

#: A2A tasks this process remembers at most (the oldest are forgotten first).
MAX_TASKS = 10_000
#: Seconds a task waiting for the person's reply keeps its worker.
IDLE_TASK_S = 300.0


def _card(request: Request, name: str, manifests: Iterable[DomainManifest], *, bearer: bool) -> AgentCard:
    return platform_card(
        manifests,
        name=name,
        description=DESCRIPTION,
        version=request.app.version,
        rpc_url=str(request.base_url).rstrip("/") + RPC_PATH,
        bearer=bearer,
    )


class PlatformA2a:
    """The platform as an A2A agent: its card, and ``/a2a`` served by the SDK's dispatcher."""

    def __init__(self, turns: TurnService) -> None:
        self.dispatcher = dispatcher(turns)

    def card(self, request: Request, name: str, manifests: Iterable[DomainManifest]) -> dict[str, Any]:
        """The card of the platform offering ``manifests``, as A2A clients read it."""
        return card_json(_card(request, name, manifests, bearer=True))

    async def handle(self, request: Request) -> Response:
        """One JSON-RPC request (its texts already checked by the route)."""
        return await self.dispatcher.handle_requests(request)


def dispatcher(turns: TurnService) -> JsonRpcDispatcher:
    """The SDK's dispatcher over ``turns``, built once per gateway (:class:`PlatformA2a`)."""
    handler = DefaultRequestHandler(
        agent_executor=PlatformExecutor(turns),
        task_store=BoundedTaskStore(),
        # a task waiting for the person holds no worker past this; a reply brings it back
        interrupted_task_timeout=IDLE_TASK_S,
        # the handler reads only the capabilities (streaming) off its card
        agent_card=platform_card([], name="", description="", version="", rpc_url=RPC_PATH, bearer=False),
    )
    return JsonRpcDispatcher(
        request_handler=handler, context_builder=TenantContextBuilder(), enable_v0_3_compat=True
    )


class BoundedTaskStore(InMemoryTaskStore):
    """The SDK's in-memory task store, forgetting the oldest tasks past :data:`MAX_TASKS` (the
    conversation itself is the session, stored; a forgotten task only ends its own thread)."""

    def __init__(self, max_tasks: int = MAX_TASKS) -> None:
        super().__init__()
        self.max_tasks = max_tasks
        self._order: OrderedDict[tuple[str, str], None] = OrderedDict()

    async def save(self, task: Task, context: ServerCallContext) -> None:
        await super().save(task, context)
        self._order[(context.user.user_name, task.id)] = None
        self._order.move_to_end((context.user.user_name, task.id))
        while len(self._order) > self.max_tasks:
            (tenant, task_id), _ = self._order.popitem(last=False)
            await self.delete(task_id, ServerCallContext(user=TenantUser(tenant)))


class TenantUser(User):
    """The caller as the SDK sees it: tasks are kept per tenant (the SDK scopes them by name)."""

    def __init__(self, tenant: str):
        self.tenant = tenant

    @property
    def is_authenticated(self) -> bool:
        return True

    @property
    def user_name(self) -> str:
        return self.tenant


class TenantContextBuilder(DefaultServerCallContextBuilder):
    def build_user(self, request: StarletteRequest) -> User:
        return TenantUser(str(request.state.a2a_tenant))


class PlatformExecutor(AgentExecutor):
    """Runs an A2A message as one turn and reports the outcome as the task's state."""

    def __init__(self, turns: TurnService):
        self.turns = turns

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        message = context.message
        assert message is not None and context.task_id and context.context_id  # the SDK sets them
        if context.current_task is None:
            await event_queue.enqueue_event(new_task_from_user_message(message))
        updater = TaskUpdater(event_queue, context.task_id, context.context_id)
        text = context.get_user_input().strip()
        language = detect(text)
        problem = _refusal(text, context.context_id, language)
        if problem is not None:
            await updater.failed(updater.new_agent_message([new_text_part(problem)]))
            return
        await updater.start_work()
        tenant = context.call_context.user.user_name
        entry = EntryRequest(
            session_id=context.context_id, input_text=text, channel="a2a", metadata={"protocol": "a2a"}
        )
        try:
            run = await self._run(entry, tenant, updater, language)
        except PlatformError as exc:  # a busy session, a session of another tenant, storage down
            await updater.failed(updater.new_agent_message([new_text_part(exc.message)]))
            return
        except Exception:  # the trace goes to the log, never to the caller (no SQL, no internals)
            log.exception("A2A turn on context %s failed", entry.session_id)
            await updater.failed(updater.new_agent_message([new_text_part(t("a2a.failed", language))]))
            return
        await _report(run, updater)

    async def _run(self, entry: EntryRequest, tenant: str, updater: TaskUpdater, language: str) -> RunResult:
        """The turn, with one ``working`` update per kind of step as it starts (what a streaming
        client shows while it waits)."""
        run_id = new_run_id()
        self.turns.events.open(run_id)
        turn = asyncio.create_task(self.turns.handle(entry, run_id, tenant=tenant))
        shown: set[str] = set()
        catalog = self.turns.registry.catalog
        async for event in self.turns.events.follow(run_id):
            if not isinstance(event, StepEvent) or event.status is not RunStatus.EXECUTING:
                continue
            line = progress_text(catalog, event.domain, event.capability, language)
            if line not in shown:
                shown.add(line)
                await updater.start_work(updater.new_agent_message([new_text_part(line)]))
        return await turn

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        # a turn is short and holds its session's lock: it is not interrupted halfway
        if context.task_id and context.context_id:
            await TaskUpdater(event_queue, context.task_id, context.context_id).cancel()


def _refusal(text: str, context_id: str, language: str) -> str | None:
    if not text:
        return t("a2a.no_text", language)
    if len(context_id) > MAX_SESSION_ID or not context_id.isprintable():
        return t("a2a.bad_context", language, limit=MAX_SESSION_ID)
    return None


async def _report(run: RunResult, updater: TaskUpdater) -> None:
    answer = [new_text_part(run.answer)]
    if run.status is RunStatus.WAITING_INPUT:
        await updater.requires_input(updater.new_agent_message(answer))
    elif run.status is RunStatus.COMPLETED:
        await updater.add_artifact(answer + _result_parts(run), name="answer")
        await updater.complete()
    else:
        await updater.failed(updater.new_agent_message(answer))


def _result_parts(run: RunResult) -> list[Part]:
    """The domain's structured result, for agents that read data rather than text."""
    if run.output is None or not run.output.result:
        return []
    return [new_data_part(json.loads(json.dumps(run.output.result, default=str)), "application/json")]
