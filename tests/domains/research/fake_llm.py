"""A protocol-faithful OpenAI-compatible test server (a third-party service, so it may be faked).

``POST /v1/chat/completions`` answers with the real chat-completions body (``id``, ``object``,
``created``, ``model``, ``choices[0].message``, ``finish_reason``, ``usage``). Which agent is
asking is read from the system prompt (the agents' YAML prompts), and the scripted replies
follow the documented scenarios. ``FakeLLM.broken`` makes chosen agents get a non-JSON reply.
"""

from __future__ import annotations

import json
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse


@dataclass
class FakeLLM:
    #: agents ("orchestrator", "structurer", "methodologist") that get an invalid (non-JSON) reply
    broken: set[str] = field(default_factory=set)
    requests: list[dict[str, Any]] = field(default_factory=list)
    authorizations: list[str | None] = field(default_factory=list)

    @staticmethod
    def agent_of(system: str) -> str:
        if "Estruturador" in system:
            return "structurer"
        if "metodologista" in system:
            return "methodologist"
        if "Orquestrador" in system:
            return "orchestrator"
        return "unknown"

    def reply_for(self, agent: str, user: str) -> dict[str, Any]:
        if agent == "orchestrator":
            return {"maturity": "semi_formed" if "%" in user else "vague"}
        if agent == "structurer":
            marker = "DETALHES NOVOS PARA O REFINAMENTO:\n"
            if marker in user:
                details = user.split(marker, 1)[1].split("\n\n", 1)[0].strip()
                question = f"LLM: {details}"
            else:
                question = "LLM: Como o método incremental afeta o tempo de entrega de software?"
            return {
                "context": "Desenvolvimento de software em equipes",
                "problem": "Não se sabe quanto o método incremental acelera as entregas",
                "contribution": "Evidência para escolher o processo de desenvolvimento",
                "structured_question": question,
            }
        if agent == "methodologist":
            if "equipes de" in user:
                return {
                    "status": "approved",
                    "justification": "LLM: população, métrica e efeito definidos.",
                    "improvements": [],
                    "clarifications": {},
                }
            return {
                "status": "needs_refinement",
                "justification": "LLM: falta população e métricas.",
                "improvements": [
                    {"aspect": "população", "gap": "LLM: quem?", "suggestion": "LLM: equipes de 2-5 devs"},
                    {"aspect": "métricas", "gap": "LLM: medir como?", "suggestion": "LLM: sprints"},
                ],
                "clarifications": {"população": "Quem você quer estudar?"},
            }
        return {}

    def app(self) -> FastAPI:
        app = FastAPI(title="fake OpenAI-compatible LLM")

        @app.post("/v1/chat/completions")
        async def chat(request: Request) -> JSONResponse:
            body = await request.json()
            self.requests.append(body)
            self.authorizations.append(request.headers.get("authorization"))
            messages = body.get("messages") or []
            if not messages or "model" not in body:
                return JSONResponse(
                    {
                        "error": {
                            "message": "model and messages are required",
                            "type": "invalid_request_error",
                            "param": None,
                            "code": None,
                        }
                    },
                    status_code=400,
                )
            system = next((m["content"] for m in messages if m["role"] == "system"), "")
            user = next((m["content"] for m in messages if m["role"] == "user"), "")
            agent = self.agent_of(system)
            content = (
                "Claro! Aqui está a minha análise, sem JSON."
                if agent in self.broken
                else json.dumps(self.reply_for(agent, user), ensure_ascii=False)
            )
            prompt_tokens = sum(len(str(m["content"]).split()) for m in messages)
            completion_tokens = len(content.split())
            return JSONResponse(
                {
                    "id": f"chatcmpl-{uuid.uuid4().hex[:24]}",
                    "object": "chat.completion",
                    "created": int(time.time()),
                    "model": body["model"],
                    "choices": [
                        {
                            "index": 0,
                            "message": {"role": "assistant", "content": content},
                            "finish_reason": "stop",
                        }
                    ],
                    "usage": {
                        "prompt_tokens": prompt_tokens,
                        "completion_tokens": completion_tokens,
                        "total_tokens": prompt_tokens + completion_tokens,
                    },
                }
            )

        return app
