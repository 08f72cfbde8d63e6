"""A protocol-faithful stand-in for an OpenAI-compatible server (an outside service).

``POST /v1/chat/completions`` answers with the real response shape (``id``, ``object``,
``created``, ``model``, ``choices[{index, message{role, content}, finish_reason}]``, ``usage``)
and OpenAI's error shape (``{"error": {"message", "type", "param", "code"}}``). Behaviour is set
per test on ``FakeOpenAI``:

* ``reply``: callable(request body) -> message content (the "model");
* ``reject``: response_format types answered with a 400 like servers that lack them;
* ``delay_s``: sleep before answering (to provoke client timeouts);
* ``raw_content``: a fixed content string (e.g. invalid JSON) instead of ``reply``.

Every request body is recorded in ``requests``.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

Reply = Callable[[dict[str, Any]], str]


@dataclass
class FakeOpenAI:
    reply: Reply = lambda body: "{}"
    reject: set[str] = field(default_factory=set)
    delay_s: float = 0.0
    raw_content: str | None = None
    api_key: str | None = None
    requests: list[dict[str, Any]] = field(default_factory=list)

    def app(self) -> FastAPI:
        app = FastAPI()

        @app.post("/v1/chat/completions")
        async def chat(request: Request) -> JSONResponse:
            if self.api_key and request.headers.get("authorization") != f"Bearer {self.api_key}":
                return _error(
                    401, "Incorrect API key provided.", "invalid_request_error", None, "invalid_api_key"
                )
            body = await request.json()
            self.requests.append(body)
            if not isinstance(body.get("messages"), list) or not body.get("model"):
                return _error(
                    400, "'messages' and 'model' are required.", "invalid_request_error", "messages", None
                )
            kind = (body.get("response_format") or {}).get("type")
            if kind in self.reject:
                return _error(
                    400,
                    f"Invalid parameter: 'response_format' of type '{kind}' is not supported"
                    " with this model.",
                    "invalid_request_error",
                    "response_format",
                    None,
                )
            if self.delay_s:
                await asyncio.sleep(self.delay_s)
            content = self.raw_content if self.raw_content is not None else self.reply(body)
            return JSONResponse(
                {
                    "id": f"chatcmpl-{uuid.uuid4().hex[:24]}",
                    "object": "chat.completion",
                    "created": int(time.time()),
                    "model": body["model"],
                    "choices": [
                        {
                            "index": 0,
                            "message": {"role": "assistant", "content": content, "refusal": None},
                            "logprobs": None,
                            "finish_reason": "stop",
                        }
                    ],
                    "usage": {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120},
                    "system_fingerprint": "fp_fake",
                }
            )

        return app


def _error(status: int, message: str, type_: str, param: str | None, code: str | None) -> JSONResponse:
    return JSONResponse(
        {"error": {"message": message, "type": type_, "param": param, "code": code}}, status_code=status
    )
