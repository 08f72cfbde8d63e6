"""The SDK's ``POST /execute``: one pydantic pass each way, the same status codes and error
bodies as before for a body that is not JSON, an intent that does not validate, and replays; and
the answers built with ``clarify``/``fail`` arriving as the typed fields."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from sdk.service import DomainService, clarify, fail, option
from shared.manifest import ManifestInvalid
from shared.models import (
    Clarification,
    ClarificationOption,
    ContinueWith,
    DomainOutput,
    ExecutionIntent,
    Failure,
)
from tests.conftest import ROOT, reserve_port, wait_http


def service() -> DomainService:
    svc = DomainService("echo", "1", "Repeats")

    @svc.capability("echo", "Repeat the text")
    def echo(intent: ExecutionIntent) -> DomainOutput:
        return DomainOutput(status="success", explanation=intent.parameters.get("text", ""))

    return svc


@pytest.fixture
async def http() -> AsyncIterator[tuple[DomainService, httpx.AsyncClient]]:
    svc = service()
    transport = httpx.ASGITransport(app=svc.app())
    async with httpx.AsyncClient(transport=transport, base_url="http://echo.test") as client:
        yield svc, client


async def test_execute_answers_the_domain_output_as_json(
    http: tuple[DomainService, httpx.AsyncClient],
) -> None:
    svc, client = http
    intent = {"domain": "echo", "capability": "echo", "parameters": {"text": "olá"}}
    answer = await client.post("/execute", json=intent, headers={"Idempotency-Key": "r:1"})
    assert answer.status_code == 200 and answer.headers["content-type"] == "application/json"
    assert DomainOutput.model_validate_json(answer.content).explanation == "olá"
    again = await client.post("/execute", json=intent, headers={"Idempotency-Key": "r:1"})
    assert again.json()["metadata"] == {"idempotent_replay": True}
    assert svc.executions == {"echo": 1}


@pytest.mark.parametrize("body", [b"<html>", b"", b'{"domain": "echo",'])
async def test_a_body_that_is_not_json_is_400(
    http: tuple[DomainService, httpx.AsyncClient], body: bytes
) -> None:
    _, client = http
    answer = await client.post("/execute", content=body)
    assert answer.status_code == 400
    assert answer.json()["error"] == {
        "message": "body is not valid JSON",
        "type": "invalid_request_error",
        "param": None,
        "code": "invalid_json",
    }


@pytest.mark.parametrize(
    ("body", "param"),
    [
        ({"capability": "echo"}, "domain"),
        ({"domain": "echo", "capability": "echo", "confidence": 2}, "confidence"),
        ({"domain": "echo", "capability": "echo", "parameters": []}, "parameters"),
    ],
)
async def test_an_intent_that_does_not_validate_is_422_naming_the_field(
    http: tuple[DomainService, httpx.AsyncClient], body: dict, param: str
) -> None:
    svc, client = http
    answer = await client.post("/execute", json=body)
    assert answer.status_code == 422
    error = answer.json()["error"]
    assert error["code"] == "invalid_request" and error["param"] == param
    assert error["message"].startswith(f"{param}: ")
    assert svc.executions == {}


# ---------------------------------------------------------------- the typed answers over HTTP


def asking_service() -> DomainService:
    svc = DomainService("shop", "1", "Sells things")

    @svc.capability("buy", "Buy a product")
    def buy(intent: ExecutionIntent) -> DomainOutput:
        product = intent.parameters.get("product")
        if product is None:
            return clarify(
                "Which size?",
                [option("S", "Small", aliases=["pequeno"], stock=3), option("L", "Large", stock=0)],
                param="product",
                metadata={"resolution": "ambiguous"},
            )
        if product == "L":
            return fail("Out of stock.", "out_of_stock", recoverable=True, suggestions=[{"product": "S"}])
        return DomainOutput(status="success", result={"bought": product})

    return svc


async def post(svc: DomainService, capability: str, parameters: dict, key: str | None = None) -> DomainOutput:
    transport = httpx.ASGITransport(app=svc.app())
    async with httpx.AsyncClient(transport=transport, base_url="http://shop.test") as client:
        body = {"domain": svc.domain, "capability": capability, "parameters": parameters}
        answer = await client.post("/execute", json=body, headers={"Idempotency-Key": key} if key else {})
    assert answer.status_code == 200, answer.text
    return DomainOutput.model_validate_json(answer.content)


async def test_a_clarification_arrives_typed() -> None:
    out = await post(asking_service(), "buy", {})
    assert out.status == "clarification" and out.explanation == "Which size?"
    assert out.clarification == Clarification(
        question="Which size?",
        options=[
            ClarificationOption(value="S", label="Small", aliases=["pequeno"], data={"stock": 3}),
            ClarificationOption(value="L", label="Large", data={"stock": 0}),
        ],
        param="product",
    )
    assert out.metadata == {"resolution": "ambiguous"} and out.failure is None


async def test_a_failure_arrives_typed_and_survives_a_replay() -> None:
    svc = asking_service()
    first = await post(svc, "buy", {"product": "L"}, key="r:1")
    again = await post(svc, "buy", {"product": "L"}, key="r:1")
    expected = Failure(reason="out_of_stock", recoverable=True, suggestions=[{"product": "S"}])
    assert first.failure == again.failure == expected
    assert first.recoverable and again.metadata == {"idempotent_replay": True}
    assert svc.executions == {"buy": 1}


async def test_an_unknown_capability_is_a_typed_failure() -> None:
    out = await post(asking_service(), "sell", {})
    assert out.status == "failure" and "no capability 'sell'" in out.explanation
    assert out.failure == Failure(reason="unknown_capability")
    assert not out.recoverable and out.metadata == {}


def test_a_continue_with_may_name_its_own_param() -> None:
    out = clarify("Go on?", continue_with=ContinueWith(capability="chat", param="message"))
    assert out.clarification is not None
    assert out.clarification.continue_with == ContinueWith(capability="chat", param="message")
    assert out.clarification.options == [] and out.clarification.param is None


def test_an_old_style_output_still_validates_into_the_typed_fields() -> None:
    """Domains written before the typed protocol are read for one more release."""
    asked = DomainOutput.model_validate(
        {
            "status": "clarification",
            "explanation": "Qual Nordea?",
            "result": {
                "candidates": [
                    {"symbol": "NDA-SE.ST", "label": "Stockholm", "aliases": ["sueca"], "currency": "SEK"},
                    {"symbol": "NDA-FI.HE", "label": "Helsinki", "currency": "EUR"},
                ]
            },
            "metadata": {"choice_param": "symbol"},
        }
    )
    assert (
        asked.clarification
        == clarify(
            "Qual Nordea?",
            [
                option("NDA-SE.ST", "Stockholm", aliases=["sueca"], symbol="NDA-SE.ST", currency="SEK"),
                option("NDA-FI.HE", "Helsinki", symbol="NDA-FI.HE", currency="EUR"),
            ],
            param="symbol",
        ).clarification
    )
    failed = DomainOutput.model_validate(
        {
            "status": "failure",
            "metadata": {"error": "symbol_not_found", "suggestions": ["AAPL"], "suggestion_param": "symbol"},
        }
    )
    assert failed.failure == Failure(reason="symbol_not_found", suggestions=[{"symbol": "AAPL"}])
    assert failed.recoverable
    talking = DomainOutput.model_validate(
        {
            "status": "clarification",
            "explanation": "E agora?",
            "metadata": {"continue_with": {"capability": "research_reply", "param": "reply"}},
        }
    )
    assert talking.clarification == clarify("E agora?", continue_with="research_reply").clarification


@pytest.mark.integration
def test_a_domain_process_listens_where_its_settings_say(tmp_path: Path) -> None:
    reserved = reserve_port()  # held until it answers: uvicorn binds after its start-up
    port = reserved.port
    # an empty working directory, so no developer's .env can change what is read
    script = ROOT / "tests" / "fixtures" / "weather_domain.py"
    env = {**os.environ, "DOMAIN_HOST": "127.0.0.1", "DOMAIN_PORT": str(port), "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, str(script)], cwd=tmp_path, env=env)
    try:
        wait_http(f"http://127.0.0.1:{port}/health", proc=proc)
        reserved.release()
        assert httpx.get(f"http://127.0.0.1:{port}/health", timeout=5).json()["domain"] == "weather"
    finally:
        reserved.release()
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


async def test_a_read_only_capability_runs_on_every_keyed_call_and_keeps_no_key() -> None:
    """A capability whose policy says it only reads: a resend with the same key runs it again
    (nothing to protect) and no key is recorded; a capability that acts is still run once."""
    svc = DomainService("shop", "1", "A shop")
    stock = {"S": 3}

    @svc.capability("count", "How many are left", metadata={"policy": {"read_only": True}})
    def count(intent: ExecutionIntent) -> DomainOutput:
        return DomainOutput(status="success", explanation=str(stock["S"]))

    @svc.capability("buy", "Buy one")
    def buy(intent: ExecutionIntent) -> DomainOutput:
        stock["S"] -= 1
        return DomainOutput(status="success", explanation="Bought.")

    first = await post(svc, "count", {}, key="r:1")
    await post(svc, "buy", {}, key="r:2")
    await post(svc, "buy", {}, key="r:2")
    again = await post(svc, "count", {}, key="r:1")
    assert (first.explanation, again.explanation) == ("3", "2")
    assert again.metadata == {} and svc.executions == {"count": 2, "buy": 1}
    assert (
        svc.manifest().model_dump(mode="json")["capabilities"][1]["metadata"]["policy"].get("read_only")
        is None
    )  # left out when false: older gateways still accept the manifest


def test_a_read_only_capability_that_waits_for_approval_is_refused() -> None:
    svc = DomainService("shop", "1", "A shop")

    @svc.capability("count", "How many", metadata={"policy": {"read_only": True, "confirm": True}})
    def count(intent: ExecutionIntent) -> DomainOutput:
        return DomainOutput(status="success", explanation="3")

    with pytest.raises(ManifestInvalid) as refused:
        svc.manifest()
    assert "read_only" in str(refused.value)
