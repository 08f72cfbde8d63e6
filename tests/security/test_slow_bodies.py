"""Issue 24, finding 8: a request body must arrive within ``HTTP_BODY_TIMEOUT_S`` of its headers,
and a 500 says ``Connection: close`` (the server closes the connection after one).

Before, a connection that sent its headers and then dripped (or never sent) its body was held
for as long as the client liked: hundreds of them held file descriptors until real turns and
outbound calls failed. A real gateway process, raw sockets for the slow clients.
"""

from __future__ import annotations

import asyncio
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import uvicorn
from fastapi import FastAPI

from gateway.errors import install_error_handlers
from gateway.server import guarded_protocol
from tests.conftest import Process, free_port, start_gateway, write_bootstrap

BODY_TIMEOUT_S = 1.0
SLOW_CLIENTS = 200


@pytest.fixture(scope="module")
def gateway(
    domain_processes: dict[str, Process], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Process]:
    work = tmp_path_factory.mktemp("slow-bodies")
    process = start_gateway(
        {
            "DATABASE_URL": f"sqlite+aiosqlite:///{work / 'gateway.sqlite3'}",
            "BOOTSTRAP_FILE": str(
                write_bootstrap(Path(work / "b.json"), {n: p.url for n, p in domain_processes.items()})
            ),
            "API_KEYS": "",
            "REDIS_URL": "",
            "HTTP_BODY_TIMEOUT_S": str(BODY_TIMEOUT_S),
        }
    )
    try:
        yield process
    finally:
        process.stop()


def _port(gateway: Process) -> int:
    return int(gateway.url.rsplit(":", 1)[1])


def _slow_body(port: int) -> socket.socket:
    """A connection whose request promises a body and sends a tenth of it."""
    conn = socket.create_connection(("127.0.0.1", port))
    conn.sendall(
        b"POST /v1/runs HTTP/1.1\r\nHost: gateway\r\nContent-Type: application/json\r\n"
        b"Content-Length: 100\r\n\r\n" + b'{"input_t'
    )
    return conn


@pytest.mark.integration
def test_a_body_that_never_finishes_is_cut_after_the_body_timeout(gateway: Process) -> None:
    with _slow_body(_port(gateway)) as slow:
        started = time.monotonic()
        # bounded wait: the server closes it after HTTP_BODY_TIMEOUT_S; before, it never did
        slow.settimeout(BODY_TIMEOUT_S + 10)
        while slow.recv(1024):  # whatever the server says before it closes
            pass
        assert time.monotonic() - started < BODY_TIMEOUT_S + 5


@pytest.mark.integration
def test_many_slow_bodies_hold_nothing_a_turn_needs(gateway: Process) -> None:
    slow = [_slow_body(_port(gateway)) for _ in range(SLOW_CLIENTS)]
    try:
        answered = httpx.post(
            f"{gateway.url}/v1/runs",
            json={"input_text": "cotação da Apple", "session_id": "slow-bodies"},
            timeout=60,
        )
        assert answered.status_code == 200, answered.text
        for conn in slow:  # every one of them is closed by the server, none held
            conn.settimeout(BODY_TIMEOUT_S + 20)
            while conn.recv(1024):
                pass
    finally:
        for conn in slow:
            conn.close()


def _failing_app() -> FastAPI:
    app = FastAPI()
    install_error_handlers(app)

    @app.get("/boom")
    async def boom() -> None:
        raise RuntimeError("internal detail that must not leak")

    return app


async def test_a_500_says_connection_close() -> None:
    port = free_port()
    config = uvicorn.Config(
        _failing_app(),
        host="127.0.0.1",
        port=port,
        log_level="critical",
        http=guarded_protocol(10.0, 65_536, 5.0),
    )
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    try:
        while not server.started:
            assert not task.done(), "uvicorn did not start"
            await asyncio.sleep(0.01)
        async with httpx.AsyncClient() as http:
            response = await http.get(f"http://127.0.0.1:{port}/boom")
    finally:
        server.should_exit = True
        await task
    assert response.status_code == 500
    assert response.headers.get("connection") == "close"
    assert "internal detail" not in response.text
