"""DomainClient on ``domain_http_client`` (aiohttp transport, lean ``/execute`` path) over real
loopback HTTP, side by side with a plain ``httpx.AsyncClient``: the same calls give the same
answers and the same platform errors, connections are kept alive and survive a server restart."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import httpx
import pytest
import uvicorn
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, PlainTextResponse
from starlette.middleware.gzip import GZipMiddleware

from orchestrator import DomainClient
from orchestrator.client import domain_http_client
from orchestrator.transport import AiohttpTransport
from shared.errors import DomainProtocolError, DomainUnavailable
from shared.models import DomainOutput, ExecutionIntent
from tests.conftest import free_port
from tests.orchestrator.conftest import bakery

INTENT = ExecutionIntent(domain="bakery", capability="bake_bread", parameters={"kind_text": "rye"})

HttpFactory = Callable[..., httpx.AsyncClient]


@asynccontextmanager
async def serving(app: FastAPI, port: int | None = None) -> AsyncIterator[str]:
    port = port or free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    task = asyncio.create_task(server.serve())
    try:
        while not server.started:  # uvicorn.Server exposes a flag, not an event
            assert not task.done(), "uvicorn did not start"
            await asyncio.sleep(0.01)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        await task


@pytest.fixture(params=["aiohttp", "httpx"])
def make_http(request: pytest.FixtureRequest) -> HttpFactory:
    """Both transports, so every expectation below is checked against httpx's own behaviour."""
    if request.param == "aiohttp":
        return domain_http_client
    return lambda timeout=10.0, limits=None: httpx.AsyncClient(
        timeout=timeout, limits=limits or httpx.Limits()
    )


def _odd_app() -> FastAPI:
    """``/{kind}/execute`` answers the way ``kind`` says."""
    app = FastAPI()

    @app.post("/{kind}/execute")
    async def execute(kind: str) -> object:
        if kind.startswith("status"):
            code = int(kind.removeprefix("status"))
            return JSONResponse({"error": {"message": f"said {code}"}}, code)
        if kind == "html":
            return PlainTextResponse("<html>", 200)
        if kind == "slow":
            await asyncio.sleep(1.0)
        return JSONResponse({"status": "success", **({"extra": 1} if kind == "extra" else {})})

    return app


async def test_execute_manifest_health_and_replay(make_http: HttpFactory) -> None:
    svc = bakery()
    async with serving(svc.app()) as url, make_http() as http:
        client = DomainClient(http)
        assert [c.name for c in (await client.manifest(url)).capabilities] == ["bake_bread", "slow_cake"]
        assert (await client.health(url))["status"] == "ok"
        first = await client.execute(url, INTENT, "run-1:1", timeout=5)
        again = await client.execute(url, INTENT, "run-1:1", timeout=5)
    assert first.explanation == "Baked a rye loaf" and first.result == {"loaf": "rye"}
    assert again.metadata.get("idempotent_replay") is True  # the Idempotency-Key reached the domain
    assert svc.executions == {"bake_bread": 1}


async def test_request_headers_and_body_reach_the_server(make_http: HttpFactory) -> None:
    seen: dict[str, Any] = {}
    app = FastAPI()

    @app.post("/execute")
    async def execute(request: Request) -> JSONResponse:
        seen["headers"] = dict(request.headers)
        seen["body"] = await request.body()
        return JSONResponse({"status": "success", "explanation": "pão"})

    intent = ExecutionIntent(domain="d", capability="c", parameters={"text": "ação"})
    async with serving(app) as url, make_http() as http:
        output = await DomainClient(http).execute(url, intent, "r:1:x")
    assert output.explanation == "pão"
    assert ExecutionIntent.model_validate_json(seen["body"]) == intent
    assert seen["headers"]["idempotency-key"] == "r:1:x"
    assert seen["headers"]["content-type"] == "application/json"
    assert seen["headers"]["content-length"] == str(len(seen["body"]))


@pytest.mark.parametrize(
    ("path", "error", "message"),
    [
        ("/status500", DomainProtocolError, "answered HTTP 500: said 500"),
        ("/status503", DomainUnavailable, "answered HTTP 503: said 503"),
        ("/html", DomainProtocolError, "answered with a body that is not JSON"),
        ("/extra", DomainProtocolError, "answered with an invalid body: extra:"),
    ],
)
async def test_bad_answers_map_to_the_same_platform_errors(
    make_http: HttpFactory, path: str, error: type[Exception], message: str
) -> None:
    async with serving(_odd_app()) as url, make_http() as http:
        with pytest.raises(error, match=message):
            await DomainClient(http).execute(url + path, INTENT, "r:1")


async def test_no_answer_in_time_is_a_read_timeout(make_http: HttpFactory) -> None:
    async with serving(_odd_app()) as url, make_http() as http:
        with pytest.raises(DomainUnavailable, match=r"did not answer in time \(ReadTimeout\)") as err:
            await DomainClient(http).execute(f"{url}/slow", INTENT, "r:1", timeout=0.2)
    assert (err.value.details or {}).get("delivered") is not False  # it may have acted: no resend


async def test_refused_connection_was_not_delivered(make_http: HttpFactory) -> None:
    url = f"http://127.0.0.1:{free_port()}"
    async with make_http() as http:
        with pytest.raises(DomainUnavailable, match=re.escape(f"could not connect to {url}/execute")) as err:
            await DomainClient(http).execute(url, INTENT, "r:1")
    assert err.value.details["delivered"] is False


@pytest.mark.parametrize("reply", [b"", b"this is not HTTP\r\n\r\n"])
async def test_peer_that_hangs_up_or_talks_garbage_is_unavailable(
    make_http: HttpFactory, reply: bytes
) -> None:
    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.read(65536)
        writer.write(reply)
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        async with make_http() as http:
            with pytest.raises(DomainUnavailable, match=r"connection to .* failed \(\w+Error\)"):
                await DomainClient(http).execute(f"http://127.0.0.1:{port}", INTENT, "r:1")
    finally:
        server.close()
        await server.wait_closed()


async def test_waiting_too_long_for_a_pooled_connection_was_not_delivered() -> None:
    """One connection, busy: the second call never gets one in time and never reached the domain."""
    limits = httpx.Limits(max_connections=1)
    timeout = httpx.Timeout(5.0, pool=0.1, connect=0.1)
    async with serving(_odd_app()) as url, domain_http_client(timeout, limits) as http:
        client = DomainClient(http)
        busy = asyncio.create_task(client.execute(f"{url}/slow", INTENT, "r:1"))
        await asyncio.sleep(0.05)
        with pytest.raises(DomainUnavailable, match=r"could not connect to .* in time") as err:
            await client.execute(f"{url}/slow", INTENT, "r:2")
        assert (await busy).status == "success"
    assert err.value.details["delivered"] is False


async def test_connections_are_reused_and_survive_a_server_restart(make_http: HttpFactory) -> None:
    peers: list[tuple[str, int]] = []
    app = FastAPI()

    @app.post("/execute")
    async def execute(request: Request) -> dict[str, Any]:
        assert request.client is not None
        peers.append((request.client.host, request.client.port))
        return DomainOutput(status="success").model_dump(mode="json")

    port = free_port()
    async with make_http() as http:
        client = DomainClient(http)
        async with serving(app, port) as url:
            for i in range(5):
                await client.execute(url, INTENT, f"r:{i}")
        assert len(set(peers)) == 1  # keep-alive: one connection for five sequential calls
        # the old server closed its connections: the pooled one must not be used for the next call
        async with serving(app, port) as url:
            assert (await client.execute(url, INTENT, "r:after")).status == "success"
        assert len(set(peers)) == 2


async def test_concurrent_calls_open_one_connection_each_up_to_the_limit() -> None:
    peers: set[int] = set()
    app = FastAPI()

    @app.post("/execute")
    async def execute(request: Request) -> dict[str, Any]:
        assert request.client is not None
        peers.add(request.client.port)
        await asyncio.sleep(0.05)
        return DomainOutput(status="success").model_dump(mode="json")

    async with serving(app) as url, domain_http_client(limits=httpx.Limits(max_connections=4)) as http:
        client = DomainClient(http)
        outputs = await asyncio.gather(*(client.execute(url, INTENT, f"r:{i}") for i in range(10)))
    assert all(o.status == "success" for o in outputs)
    assert len(peers) == 4


async def test_transport_belongs_to_the_loop_that_used_it_and_can_be_reopened() -> None:
    transport = AiohttpTransport()
    async with serving(bakery().app()) as url:
        async with httpx.AsyncClient(transport=transport) as http:
            assert (await http.get(f"{url}/health")).json()["status"] == "ok"
        # closed with its client; a new client on the same transport opens a new session
        async with httpx.AsyncClient(transport=transport) as http:
            assert (await http.get(f"{url}/health")).status_code == 200


async def test_compressed_answers_and_client_headers(make_http: HttpFactory) -> None:
    """A domain behind gzip still answers readable JSON on both paths; the client's own default
    headers go out with every call."""
    seen: list[dict[str, str]] = []
    app = FastAPI()
    app.add_middleware(GZipMiddleware, minimum_size=0)

    @app.post("/execute")
    async def execute(request: Request) -> dict[str, Any]:
        seen.append(dict(request.headers))
        return DomainOutput(status="success", explanation="x" * 2000).model_dump(mode="json")

    async with serving(app) as url, make_http() as http:
        http.headers["X-Gateway"] = "g1"
        output = await DomainClient(http).execute(url, INTENT, "r:1")
    assert output.explanation == "x" * 2000
    assert seen[0]["x-gateway"] == "g1" and seen[0]["user-agent"].startswith("python-httpx/")


async def test_domain_client_keeps_no_cookies() -> None:
    """One client serves everyone's calls: a cookie a domain sets must never be sent back."""
    cookies: list[str | None] = []
    app = FastAPI()

    @app.post("/execute")
    async def execute(request: Request) -> JSONResponse:
        cookies.append(request.headers.get("cookie"))
        answer = JSONResponse(DomainOutput(status="success").model_dump(mode="json"))
        answer.set_cookie("session", "alice")
        return answer

    @app.get("/health")
    async def health(request: Request) -> JSONResponse:
        cookies.append(request.headers.get("cookie"))
        answer = JSONResponse({"status": "ok"})
        answer.set_cookie("session", "bob")
        return answer

    async with serving(app) as url, domain_http_client() as http:
        client = DomainClient(http)
        await client.execute(url, INTENT, "r:1")
        await client.health(url)
        await client.execute(url, INTENT, "r:2")
        await client.health(url)
    assert cookies == [None, None, None, None] and len(http.cookies) == 0


async def test_event_hooks_still_run_for_execute() -> None:
    """The lean path skips httpx's request machinery only when nothing installed on it would run."""
    hooked: list[str] = []

    async def hook(request: httpx.Request) -> None:
        hooked.append(request.headers["idempotency-key"])

    svc = bakery()
    async with serving(svc.app()) as url, domain_http_client() as http:
        http.event_hooks["request"].append(hook)
        assert (await DomainClient(http).execute(url, INTENT, "r:7")).status == "success"
    assert hooked == ["r:7"]
