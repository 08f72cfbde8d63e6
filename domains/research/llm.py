"""A minimal OpenAI-compatible chat client (``POST {base}/chat/completions``) for the agents.

Only what the agents need: one system prompt, one user message, the agent's model/temperature/
top_p, a JSON reply and the server's ``usage``. Every failure (transport, HTTP status, timeout,
a body that is not the chat-completions shape) is one :class:`LLMError`, so the caller has a
single place to fall back to the offline logic.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantic import SecretStr

from domains.research.config import AgentConfig

if TYPE_CHECKING:
    import httpx


class LLMError(RuntimeError):
    """The LLM could not give a usable answer (the message never contains the API key)."""


@dataclass(frozen=True)
class LLMReply:
    content: str
    prompt_tokens: int
    completion_tokens: int
    model: str


class ChatClient:
    def __init__(
        self,
        http: httpx.AsyncClient,
        base_url: str,
        *,
        api_key: SecretStr | None = None,
        model_override: str | None = None,
        timeout_s: float = 20.0,
    ):
        self._http = http
        self._url = base_url.rstrip("/") + "/chat/completions"
        self._api_key = api_key
        self._model_override = model_override
        self._timeout = timeout_s

    async def complete(self, agent: AgentConfig, user: str, *, system_extra: str = "") -> LLMReply:
        model = self._model_override or agent.model
        body: dict[str, Any] = {
            "model": model,
            "messages": [
                {"role": "system", "content": agent.prompt + (f"\n\n{system_extra}" if system_extra else "")},
                {"role": "user", "content": user},
            ],
            "temperature": agent.temperature,
            "top_p": agent.top_p,
            "response_format": {"type": "json_object"},
        }
        headers = {}
        if self._api_key is not None and self._api_key.get_secret_value():
            headers["Authorization"] = f"Bearer {self._api_key.get_secret_value()}"
        import httpx  # already loaded by whoever made self._http; kept off the domain's start

        try:
            response = await self._http.post(self._url, json=body, headers=headers, timeout=self._timeout)
        except httpx.TimeoutException:
            raise LLMError(f"timeout after {self._timeout:g}s") from None
        except httpx.HTTPError as exc:
            raise LLMError(f"transport error: {type(exc).__name__}") from None
        if response.status_code != 200:
            raise LLMError(f"HTTP {response.status_code} from the LLM server")
        try:
            data = response.json()
            content = data["choices"][0]["message"]["content"]
            usage = data.get("usage") or {}
        except (ValueError, KeyError, IndexError, TypeError):
            raise LLMError("the reply is not an OpenAI chat-completions body") from None
        if not isinstance(content, str):
            raise LLMError("the reply has no text content")
        return LLMReply(
            content=content,
            prompt_tokens=int(usage.get("prompt_tokens") or 0),
            completion_tokens=int(usage.get("completion_tokens") or 0),
            model=str(data.get("model") or model),
        )


_FENCE = re.compile(r"^```(?:json)?\s*|\s*```$", re.IGNORECASE)


def parse_json_object(content: str) -> dict[str, Any]:
    """The JSON object in a reply (code fences tolerated); :class:`LLMError` otherwise.

    >>> parse_json_object('```json\\n{"a": 1}\\n```')
    {'a': 1}
    """
    text = _FENCE.sub("", content.strip())
    try:
        value = json.loads(text)
    except ValueError:
        raise LLMError("the reply is not valid JSON") from None
    if not isinstance(value, dict):
        raise LLMError("the reply is JSON but not an object")
    return value
