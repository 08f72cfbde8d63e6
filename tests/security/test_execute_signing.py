"""HMAC signing of /execute: a domain started with ``DOMAIN_SIGNING_SECRET`` (a real process)
refuses unsigned, wrongly signed, tampered and expired calls with 401 and runs signed ones; the
gateway's client signs with the per-domain secret (``DOMAIN_SECRETS``)."""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Iterator

import httpx
import pytest

from gateway.settings import GatewaySettings
from orchestrator import DomainClient
from orchestrator.client import domain_http_client
from shared.errors import DomainProtocolError
from shared.models import ExecutionIntent
from shared.signing import MAX_SKEW_S, SIGNATURE_HEADER, sign
from tests.conftest import ROOT, Process, reserve_port, start_and_wait

SECRET = "weather-gateway-secret"


@pytest.fixture(scope="module")
def signed_weather() -> Iterator[Process]:
    script = str(ROOT / "tests" / "fixtures" / "weather_domain.py")
    env = {**os.environ, "DOMAIN_SIGNING_SECRET": SECRET}
    with reserve_port() as reserved:  # held until it answers: uvicorn binds after its start-up
        url = reserved.url
        proc = start_and_wait([sys.executable, script, "--port", str(reserved.port)], url, env)
    domain = Process("weather", url, proc, {"DOMAIN_SIGNING_SECRET": SECRET})
    try:
        yield domain
    finally:
        domain.stop()


def _body() -> bytes:
    intent = ExecutionIntent(
        domain="weather", capability="get_forecast", parameters={"city_text": "Oslo"}, original_query="tempo"
    )
    return intent.model_dump_json().encode()


def _post(domain: Process, body: bytes, signature: str | None) -> httpx.Response:
    headers = {"Content-Type": "application/json"}
    if signature is not None:
        headers[SIGNATURE_HEADER] = signature
    return httpx.post(f"{domain.url}/execute", content=body, headers=headers, timeout=10)


def _signature(kind: str) -> str | None:
    """The signature header for one refusal case, made when the test runs: made at collection
    time, a "valid" timestamp would already be stale on a slow run."""
    now = time.time()
    cases: dict[str, str | None] = {
        "missing": None,
        "malformed": "t=abc,v1=00",
        "other secret": sign(b"another secret", _body()),
        "too old": sign(SECRET.encode(), _body(), now=now - MAX_SKEW_S - 60),
        "from the future": sign(SECRET.encode(), _body(), now=now + MAX_SKEW_S + 60),
        "tampered body": sign(SECRET.encode(), _body() + b" "),
    }
    return cases[kind]


@pytest.mark.parametrize(
    ("kind", "message"),
    [
        ("missing", "missing signature"),
        ("malformed", "malformed signature"),
        ("other secret", "signature does not match the call"),
        ("too old", "signature expired"),
        ("from the future", "signature expired"),
        ("tampered body", "signature does not match the call"),
    ],
)
def test_calls_without_a_valid_signature_are_refused(
    signed_weather: Process, kind: str, message: str
) -> None:
    response = _post(signed_weather, _body(), _signature(kind))
    assert response.status_code == 401
    assert response.json()["error"] == {
        "message": message,
        "type": "authentication_error",
        "param": None,
        "code": "invalid_signature",
    }


def test_a_signed_call_runs(signed_weather: Process) -> None:
    response = _post(signed_weather, _body(), sign(SECRET.encode(), _body()))
    assert response.status_code == 200 and response.json()["result"]["city"] == "Oslo"


async def test_the_gateway_client_signs_with_the_domain_secret(signed_weather: Process) -> None:
    settings = GatewaySettings(domain_secrets=json.dumps({"weather": SECRET}))
    intent = ExecutionIntent.model_validate_json(_body())
    async with domain_http_client(timeout=10.0) as http:
        signed = DomainClient(http, signing_secrets=settings.domain.secret_map())
        output = await signed.execute(signed_weather.url, intent, "sig-1")
        assert output.result["city"] == "Oslo"
        with pytest.raises(DomainProtocolError, match="HTTP 401: missing signature"):
            await DomainClient(http).execute(signed_weather.url, intent, "sig-2")


def test_a_malformed_secrets_setting_is_refused() -> None:
    with pytest.raises(ValueError, match="DOMAIN_SECRETS"):
        GatewaySettings(domain_secrets='["not", "an", "object"]').domain.secret_map()
