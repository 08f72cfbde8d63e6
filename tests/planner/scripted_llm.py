"""A scripted OpenAI-compatible ``/v1/chat/completions`` server on loopback, standing in for a
third-party LLM API (vLLM, Ollama, a hosted one): a real HTTP server in its own thread, so both
in-process clients and a gateway process reach it.

Every request body is checked against the openai SDK's own request types (and answers are built
with its response types), so the wire the planner speaks is the one real servers expect.
Answers are scripted: a queue, or per request text (the last user message contains a key).
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web
from openai.types.chat import ChatCompletion
from openai.types.chat.completion_create_params import CompletionCreateParamsNonStreaming
from pydantic import TypeAdapter

from tests.conftest import free_port

_REQUEST = TypeAdapter(CompletionCreateParamsNonStreaming)


@dataclass(frozen=True)
class ToolCall:
    """The model calls the tool with these arguments (a dict, or raw text as a model may send)."""

    arguments: dict[str, Any] | str


@dataclass(frozen=True)
class Content:
    """The model answers with this message content (no tool call)."""

    text: str


@dataclass(frozen=True)
class Status:
    """The server answers with this HTTP status (and an OpenAI error body)."""

    code: int
    message: str = "server error"


@dataclass(frozen=True)
class Slow:
    """The server takes this long before answering ``then``."""

    seconds: float
    then: ToolCall | Content | Status


Answer = ToolCall | Content | Status | Slow


def check_wire(body: dict[str, Any]) -> None:
    """Raise when ``body`` is not a chat completion request the openai SDK would send."""
    params = _REQUEST.validate_python(body)
    # the SDK's types validate iterables lazily: walking them checks every message and tool
    messages = list(params["messages"])
    tools = list(params.get("tools") or [])
    assert messages, "a chat completion request needs messages"
    for message in messages:
        calls: Any = message.get("tool_calls") or []
        list(calls)
    for tool in tools:
        assert tool["type"] == "function" and tool["function"]["name"]


def completion(answer: ToolCall | Content, model: str) -> dict[str, Any]:
    if isinstance(answer, ToolCall):
        arguments = answer.arguments if isinstance(answer.arguments, str) else json.dumps(answer.arguments)
        message: dict[str, Any] = {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {"name": "propose_plan", "arguments": arguments},
                }
            ],
        }
        finish = "tool_calls"
    else:
        message, finish = {"role": "assistant", "content": answer.text}, "stop"
    reply = ChatCompletion.model_validate(
        {
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": model,
            "choices": [{"index": 0, "message": message, "finish_reason": finish}],
        }
    )
    return reply.model_dump(mode="json", exclude_none=True)


@dataclass
class ScriptedLlm:
    #: Answers in order, for any request.
    queue: list[Answer] = field(default_factory=list)
    #: Answers per request: the first key the last user message contains picks its list.
    by_text: dict[str, list[Answer]] = field(default_factory=dict)
    #: Reject requests that ask for tools with a 400 (a server without tool calling).
    no_tools: bool = False
    requests: list[dict[str, Any]] = field(default_factory=list)
    wire_errors: list[str] = field(default_factory=list)
    base_url: str = ""

    def _next(self, body: dict[str, Any]) -> Answer:
        users = [m for m in body.get("messages", []) if m.get("role") == "user"]
        text = str(users[0].get("content", "")) if users else ""
        for key, answers in self.by_text.items():
            if key in text and answers:
                return answers.pop(0) if len(answers) > 1 else answers[0]
        if self.queue:
            return self.queue.pop(0)
        return Status(500, f"no scripted answer for {text!r}")

    async def handle(self, request: web.Request) -> web.Response:
        body = await request.json()
        self.requests.append(body)
        try:
            check_wire(body)
        except Exception as exc:  # the test fails on it: the planner spoke an invalid wire
            self.wire_errors.append(str(exc))
            return web.json_response({"error": {"message": f"invalid request: {exc}"}}, status=422)
        if self.no_tools and "tools" in body:
            return web.json_response(
                {"error": {"message": "tools are not supported", "type": "invalid_request_error"}}, status=400
            )
        answer = self._next(body)
        if isinstance(answer, Slow):
            await asyncio.sleep(answer.seconds)
            answer = answer.then
        if isinstance(answer, Status):
            return web.json_response({"error": {"message": answer.message}}, status=answer.code)
        return web.json_response(completion(answer, str(body.get("model"))))


@contextmanager
def serve(llm: ScriptedLlm) -> Iterator[ScriptedLlm]:
    """Run ``llm`` on 127.0.0.1 in a thread of its own until the block ends."""
    port = free_port()
    loop = asyncio.new_event_loop()
    app = web.Application()
    app.router.add_post("/v1/chat/completions", llm.handle)
    runner = web.AppRunner(app, shutdown_timeout=0.5)
    ready = threading.Event()

    def run() -> None:
        asyncio.set_event_loop(loop)
        loop.run_until_complete(runner.setup())
        loop.run_until_complete(web.TCPSite(runner, "127.0.0.1", port).start())
        ready.set()
        loop.run_forever()

    thread = threading.Thread(target=run, name="scripted-llm", daemon=True)
    thread.start()
    if not ready.wait(10):
        raise RuntimeError("the scripted LLM server did not start")
    llm.base_url = f"http://127.0.0.1:{port}/v1"
    try:
        yield llm
    finally:
        asyncio.run_coroutine_threadsafe(runner.cleanup(), loop).result(10)
        asyncio.run_coroutine_threadsafe(_cancel_the_rest(), loop).result(10)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        loop.close()


async def _cancel_the_rest() -> None:
    """Handlers still sleeping (a slow answer nobody waits for) end with the server."""
    rest = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
    for task in rest:
        task.cancel()
    await asyncio.gather(*rest, return_exceptions=True)
