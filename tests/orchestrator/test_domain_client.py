from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from fastapi.responses import JSONResponse, PlainTextResponse

from orchestrator import DomainClient, map_httpx_exceptions
from shared.errors import DomainProtocolError, DomainUnavailable
from shared.manifest import ManifestInvalid
from shared.models import ExecutionIntent


async def test_manifest_health_and_execute(hosts: Any, client: DomainClient, make: dict[str, Any]) -> None:
    svc = make["bakery"]()
    url = hosts.serve("bakery.test", svc.app())
    manifest = await client.manifest(url)
    assert manifest.domain == "bakery" and [c.name for c in manifest.capabilities] == [
        "bake_bread",
        "slow_cake",
    ]
    assert (await client.health(url))["status"] == "ok"
    intent = ExecutionIntent(domain="bakery", capability="bake_bread", parameters={"kind_text": "rye"})
    output = await client.execute(url, intent, "run-1:1", timeout=5)
    assert output.explanation == "Baked a rye loaf"
    assert hosts.requests[-1].headers["Idempotency-Key"] == "run-1:1"


async def test_same_idempotency_key_runs_the_capability_once(
    hosts: Any, client: DomainClient, make: dict[str, Any]
) -> None:
    svc = make["bakery"]()
    url = hosts.serve("bakery.test", svc.app())
    intent = ExecutionIntent(domain="bakery", capability="bake_bread")
    first = await client.execute(url, intent, "run-9:1")
    again = await client.execute(url, intent, "run-9:1")
    assert svc.executions == {"bake_bread": 1}
    assert again.metadata.get("idempotent_replay") is True and again.result == first.result


async def test_unreachable_domain_is_domain_unavailable(client: DomainClient) -> None:
    with pytest.raises(DomainUnavailable, match=r"^could not connect to http://nowhere.test/manifest$"):
        await client.manifest("http://nowhere.test")


async def test_invalid_manifest_carries_field_paths(
    hosts: Any, client: DomainClient, make: dict[str, Any]
) -> None:
    url = hosts.serve(
        "bad.test",
        make["raw"](
            {"domain": "bad", "version": "1", "description": "x", "capabilities": [{"name": "Bad Name"}]}
        ),
    )
    with pytest.raises(ManifestInvalid) as err:
        await client.manifest(url)
    paths = {e["path"] for e in err.value.errors}
    assert "capabilities.0" in paths or "capabilities.0.name" in paths


def _app(status: int, body: object) -> FastAPI:
    app = FastAPI()

    @app.post("/execute")
    async def execute() -> object:
        if isinstance(body, str):
            return PlainTextResponse(body, status)
        return JSONResponse(body, status)

    return app


@pytest.mark.parametrize(
    ("status", "body", "error", "message"),
    [
        (
            500,
            {"error": {"message": "internal error in domain"}},
            DomainProtocolError,
            "HTTP 500: internal error in domain",
        ),
        (503, {"error": {"message": "overloaded"}}, DomainUnavailable, "HTTP 503: overloaded"),
        (200, "<html>", DomainProtocolError, "not JSON"),
        (200, {"status": "maybe"}, DomainProtocolError, "invalid body: status:"),
        (200, {"status": "success", "extra": 1}, DomainProtocolError, "invalid body: extra:"),
    ],
)
async def test_bad_answers_become_platform_errors(
    hosts: Any, client: DomainClient, status: int, body: object, error: type[Exception], message: str
) -> None:
    url = hosts.serve("odd.test", _app(status, body))
    with pytest.raises(error, match=message) as err:
        await client.execute(url, ExecutionIntent(domain="odd", capability="x"), "r:1")
    assert "Traceback" not in str(err.value)


@pytest.mark.parametrize(
    ("raised", "expected", "message"),
    [
        (httpx.ReadTimeout("timed out"), DomainUnavailable, "did not answer in time (ReadTimeout)"),
        (
            httpx.RemoteProtocolError("peer closed"),
            DomainUnavailable,
            "connection to u failed (RemoteProtocolError)",
        ),
    ],
)
def test_map_httpx_exceptions_translates_transport_errors(
    raised: Exception, expected: type[Exception], message: str
) -> None:
    with pytest.raises(expected, match=re.escape(message)) as err, map_httpx_exceptions("u"):
        raise raised
    assert err.value.__cause__ is None and err.value.__suppress_context__


async def test_an_unchanged_manifest_is_read_again_as_a_copy_and_a_changed_one_is_validated_again(
    hosts: Any, client: DomainClient, make: dict[str, Any]
) -> None:
    served: dict[str, Any] = {"domain": "shop", "version": "1", "description": "a shop", "capabilities": []}
    url = hosts.serve("shop.test", make["raw"](served))
    first = await client.manifest(url)
    first.description = "changed by whoever read it"
    again = await client.manifest(url)
    assert again.description == "a shop" and again is not first
    served["capabilities"] = [{"name": "Bad Name"}]  # the domain now serves an invalid manifest
    with pytest.raises(ManifestInvalid):
        await client.manifest(url)
