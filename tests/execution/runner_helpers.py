"""A scripted domain (stands in for remote services) and a catalog for the run-loop tests."""

from __future__ import annotations

import asyncio
from typing import Any, Literal

from shared.catalog import Catalog
from shared.manifest import validate_manifest
from shared.models import (
    CallContext,
    DomainOutput,
    ExecutionIntent,
    ExecutionPlan,
    ExecutionStep,
    Failure,
    IntentOutput,
)

QUOTE_SCHEMA = {
    "type": "object",
    "properties": {"symbol": {"type": "string"}, "price": {"type": "number"}},
    "required": ["symbol", "price"],
}


def catalog(**policies: dict[str, Any]) -> Catalog:
    def cap(name: str, **extra: Any) -> dict[str, Any]:
        meta = {"policy": {"attempts": 3, "backoff_s": 0.0, "timeout_s": 1.0, **policies.get(name, {})}}
        return {"name": name, "description": name, "metadata": meta, **extra}

    market = validate_manifest(
        {
            "domain": "market",
            "version": "1",
            "description": "quotes",
            "capabilities": [
                cap(
                    "quote",
                    output_schema=QUOTE_SCHEMA,
                    metadata={
                        "policy": {
                            "attempts": 3,
                            "backoff_s": 0.0,
                            "timeout_s": 1.0,
                            **policies.get("quote", {}),
                        },
                        "decomposition": {
                            "array_params": [
                                {"param_name": "symbol_text", "single_param_name": "symbol_text"}
                            ]
                        },
                    },
                ),
                cap("slow"),
                cap("news"),
            ],
            "goals": [{"goal": "QUOTE", "description": "price", "capabilities": ["quote"]}],
        }
    )
    notifier = validate_manifest(
        {
            "domain": "notifier",
            "version": "1",
            "description": "sends",
            "capabilities": [
                {
                    "name": "send",
                    "description": "send a message",
                    "role": "notifier",
                    "metadata": {
                        "policy": {
                            "attempts": 3,
                            "backoff_s": 0.0,
                            "timeout_s": 1.0,
                            "idempotent": False,
                            **policies.get("send", {}),
                        }
                    },
                }
            ],
        }
    )
    return Catalog([market, notifier])


class Scripted:
    """capability -> list of outputs/exceptions, used in order (the last one repeats)."""

    def __init__(
        self, script: dict[str, list[DomainOutput | BaseException]] | None = None, delay: float = 0.0
    ):
        self.script = script or {}
        self.delay = delay
        self.calls: list[ExecutionIntent] = []
        #: the CallContext of each call, in the same order
        self.call_contexts: list[CallContext] = []

    def count(self, capability: str) -> int:
        return sum(1 for c in self.calls if c.capability == capability)

    async def __call__(self, intent: ExecutionIntent, step: ExecutionStep, call: CallContext) -> DomainOutput:
        self.calls.append(intent)
        self.call_contexts.append(call)
        n = self.count(intent.capability) - 1
        if self.delay:
            await asyncio.sleep(self.delay)
        answers = self.script.get(intent.capability)
        if not answers:
            symbol = intent.parameters.get("symbol") or intent.parameters.get("symbol_text") or "X"
            return DomainOutput(
                status="success", result={"symbol": symbol, "price": 10.0}, explanation=f"{symbol}: 10.0"
            )
        answer = answers[min(n, len(answers) - 1)]
        if isinstance(answer, BaseException):
            raise answer
        return answer


def ok(text: str = "ok", **result: Any) -> DomainOutput:
    return DomainOutput(status="success", result=result or {"symbol": "A", "price": 1.0}, explanation=text)


def not_found(query: str, suggestions: list[dict[str, Any]] | None = None) -> DomainOutput:
    """A recoverable failure, with "did you mean" parameter patches when given."""
    return DomainOutput(
        status="failure",
        explanation=f"I could not find '{query}'.",
        failure=Failure(reason="symbol_not_found", recoverable=True, suggestions=suggestions or []),
    )


def s(
    id: int,
    capability: str = "quote",
    deps: list[int] | None = None,
    required: bool = True,
    domain: str = "market",
    **params: Any,
) -> ExecutionStep:
    return ExecutionStep(
        id=id, domain=domain, capability=capability, params=params, depends_on=deps or [], required=required
    )


def plan(
    *steps: ExecutionStep,
    mode: Literal["sequential", "parallel", "dag"] = "dag",
    combine: Literal["last", "report", "merge"] = "last",
) -> ExecutionPlan:
    return ExecutionPlan(steps=list(steps), execution_mode=mode, combine_mode=combine)


def intent(text: str = "qual o preço da Apple?", language: str = "pt") -> IntentOutput:
    return IntentOutput(
        primary_domain="market", goal="QUOTE", original_query=text, language=language, confidence=0.99
    )
