"""The SDK's ``POST /execute``: one pydantic pass each way, the same status codes and error
bodies as before for a body that is not JSON, an intent that does not validate, and replays."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest

from shared.domain_sdk import DomainService
from shared.models import DomainOutput, ExecutionIntent


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
