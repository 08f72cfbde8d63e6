"""The LLM planner's calls to an OpenAI-compatible ``/chat/completions`` endpoint (vLLM, Ollama,
llama.cpp's server, a hosted API).

The plan is asked for as a forced tool call (``tools`` + ``tool_choice``); a server that rejects
tools with a 400 is asked for structured output (``response_format`` ``json_schema``, then
``json_object`` with the schema in the prompt). The first mode the server accepts is remembered.
Every failure to get an answer (timeout, connection refused, HTTP error, a reply that is not a
chat completion) is :class:`PlannerLlmUnavailable`, so the caller decides what the person gets.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from typing import Any

import httpx

from planner.llm.settings import OutputMode, PlannerLlmSettings

log = logging.getLogger(__name__)

Mode = OutputMode
_FALLBACK_ORDER: tuple[Mode, ...] = ("tools", "json_schema", "json_object")
Message = dict[str, Any]


class PlannerLlmUnavailable(Exception):
    """No usable answer from the endpoint; ``str()`` says why, without secrets."""


class _Rejected(Exception):
    """A 400 about the way the answer was asked for: try the next mode."""


@dataclass(frozen=True)
class LlmReply:
    #: The model's answer as it came: the tool call's arguments, or the message content.
    raw: str
    #: ``raw`` parsed as JSON (None when it is not JSON).
    arguments: Any
    mode: Mode
    #: The tool call's id (tools mode), which a correction answers.
    tool_call_id: str | None = None

    def as_message(self) -> Message:
        """The assistant turn this reply was, to continue the conversation with."""
        if self.mode == "tools":
            call = {
                "id": self.tool_call_id or "call_0",
                "type": "function",
                "function": {"name": "propose_plan", "arguments": self.raw},
            }
            return {"role": "assistant", "content": None, "tool_calls": [call]}
        return {"role": "assistant", "content": self.raw}

    def answer_with(self, text: str) -> Message:
        """The message that answers this reply (the tool's result, or the next user turn)."""
        if self.mode == "tools":
            return {"role": "tool", "tool_call_id": self.tool_call_id or "call_0", "content": text}
        return {"role": "user", "content": text}


class PlannerLlmClient:
    def __init__(self, settings: PlannerLlmSettings, *, transport: httpx.AsyncBaseTransport | None = None):
        if not settings.base_url or not settings.model:
            raise ValueError("the LLM planner needs PLANNER_LLM_BASE_URL (or LLM_BASE_URL) and a model")
        self.settings = settings
        self.model = settings.model
        self._base_url = settings.base_url.rstrip("/")
        self._transport = transport
        configured = settings.planner_llm_output
        self._modes: tuple[Mode, ...] = _FALLBACK_ORDER if configured == "auto" else (configured,)

    @property
    def mode(self) -> Mode:
        return self._modes[0]

    def _headers(self) -> dict[str, str]:
        key = self.settings.api_key
        return {"Authorization": f"Bearer {key.get_secret_value()}"} if key is not None else {}

    async def complete(self, messages: list[Message], tool: dict[str, Any], *, timeout_s: float) -> LlmReply:
        """The model's answer to ``messages``, asked for as a call of ``tool``."""
        if timeout_s <= 0:
            raise PlannerLlmUnavailable("no time left for the LLM planner")
        try:
            async with httpx.AsyncClient(
                base_url=self._base_url, headers=self._headers(), timeout=timeout_s, transport=self._transport
            ) as http:
                while True:
                    mode = self._modes[0]
                    try:
                        return await self._ask(http, messages, tool, mode)
                    except _Rejected:
                        if len(self._modes) == 1:
                            raise PlannerLlmUnavailable(f"the endpoint rejected {mode} requests") from None
                        log.info("LLM planner: the endpoint rejected %s; trying %s", mode, self._modes[1])
                        self._modes = self._modes[1:]
        except httpx.TimeoutException:
            raise PlannerLlmUnavailable(f"the LLM did not answer within {round(timeout_s, 2):g} s") from None
        except httpx.HTTPStatusError as exc:
            raise PlannerLlmUnavailable(
                f"the LLM endpoint answered HTTP {exc.response.status_code}"
            ) from None
        except httpx.HTTPError as exc:
            raise PlannerLlmUnavailable(f"the LLM endpoint is unreachable ({type(exc).__name__})") from None

    async def _ask(
        self, http: httpx.AsyncClient, messages: list[Message], tool: dict[str, Any], mode: Mode
    ) -> LlmReply:
        body: dict[str, Any] = {
            "model": self.model,
            "temperature": self.settings.planner_llm_temperature,
            "messages": messages,
        }
        if mode == "tools":
            body["tools"] = [{"type": "function", "function": tool}]
            body["tool_choice"] = {"type": "function", "function": {"name": tool["name"]}}
        elif mode == "json_schema":
            body["response_format"] = {
                "type": "json_schema",
                # params are free-form objects, which strict mode cannot express
                "json_schema": {"name": tool["name"], "strict": False, "schema": tool["parameters"]},
            }
        else:
            body["response_format"] = {"type": "json_object"}
            schema = json.dumps(tool["parameters"], ensure_ascii=False)
            body["messages"] = [
                *messages,
                {"role": "system", "content": f"JSON schema of the reply:\n{schema}"},
            ]
        response = await http.post("/chat/completions", json=body)
        if response.status_code == 400 and _names_mode(response, mode):
            raise _Rejected()
        response.raise_for_status()
        return _read_reply(response, mode)


def _read_reply(response: httpx.Response, mode: Mode) -> LlmReply:
    try:
        message = response.json()["choices"][0]["message"]
    except (ValueError, KeyError, IndexError, TypeError):
        raise PlannerLlmUnavailable("the LLM endpoint's answer is not a chat completion") from None
    calls = message.get("tool_calls") or []
    if calls:
        function = calls[0].get("function") or {}
        raw = str(function.get("arguments") or "")
        return LlmReply(raw, _json(raw), "tools", str(calls[0].get("id") or "call_0"))
    content = message.get("content")
    raw = content if isinstance(content, str) else ""
    # a server that ignores tool_choice may still answer with the JSON as text
    return LlmReply(raw, _json(raw), "json_object" if mode == "tools" else mode)


def _json(raw: str) -> Any:
    text = raw.strip()
    if text.startswith("```"):  # replies asked for JSON in the prompt sometimes come fenced
        text = text.strip("`").removeprefix("json").strip()
    try:
        return json.loads(text)
    except ValueError:
        return None


def _names_mode(response: httpx.Response, mode: Mode) -> bool:
    words = {
        "tools": ("tool",),
        "json_schema": ("response_format", "json_schema"),
        "json_object": ("json_object",),
    }
    text = response.text.lower()
    return any(word in text for word in words[mode])
