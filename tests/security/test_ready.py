"""Finding 8 (first half) and the low ones on health: ``/ready`` answered 200 with Redis down or the
SQLite file deleted, and hung on a database that stopped answering; every turn and
``GET /v1/domains`` answered a generic 500 while Redis was down; a fatal signal killed the gateway
without a line. Now ``/ready`` is a 503 naming what is down, a Redis outage is a 503
``service_unavailable`` saying the shared store is unreachable (in OpenAI's error shape, in a
stream too), and a fatal signal leaves the Python traceback on stderr.

Real gateway processes in front of the real domains; a Redis server of the test's own (stopped and
restarted by it); PostgreSQL behind a loopback proxy the test can freeze.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import signal
import socket
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.conftest import (
    Process,
    exit_code,
    free_port,
    reserve_port,
    spawn,
    start_gateway,
    stop_process,
    unavailable,
    write_bootstrap,
)

pytestmark = pytest.mark.integration

READY_TIMEOUT_S = 1.0


def start_logged_gateway(env: dict[str, str], log: Path) -> Process:
    """A gateway without API keys, with a short ready timeout, its output appended to ``log``."""
    return start_gateway({"API_KEYS": "", "READY_TIMEOUT_S": str(READY_TIMEOUT_S), **env}, log=log)


def base_env(tmp_path: Path, domains: dict[str, Process], database_url: str | None = None) -> dict[str, str]:
    bootstrap = write_bootstrap(tmp_path / "bootstrap.json", {n: p.url for n, p in domains.items()})
    return {
        "DATABASE_URL": database_url or f"sqlite+aiosqlite:///{tmp_path / 'gateway.sqlite3'}",
        "BOOTSTRAP_FILE": str(bootstrap),
        "REDIS_URL": "",
    }


def ready(gateway: Process) -> httpx.Response:
    # bounded: a probe that hangs is as bad as one that lies
    return httpx.get(f"{gateway.url}/ready", timeout=READY_TIMEOUT_S + 10)


def wait_ready(gateway: Process, status: int) -> httpx.Response:
    """Poll ``/ready`` until it answers ``status`` (a recovery is seen by the next probe or so)."""
    deadline = time.monotonic() + 30
    while True:
        response = ready(gateway)
        if response.status_code == status or time.monotonic() > deadline:
            return response
        time.sleep(0.1)


def chat_json(text: str, **extra: Any) -> dict[str, Any]:
    return {"model": "orchestrator", "messages": [{"role": "user", "content": text}], **extra}


def test_ready_fails_when_the_sqlite_file_is_deleted(
    tmp_path: Path, domain_processes: dict[str, Process]
) -> None:
    gateway = start_logged_gateway(base_env(tmp_path, domain_processes), tmp_path / "gateway.log")
    try:
        assert wait_ready(gateway, 200).status_code == 200
        for leftover in tmp_path.glob("gateway.sqlite3*"):  # the file and its -wal / -shm
            leftover.unlink()
        response = ready(gateway)
        assert response.status_code == 503, response.text
        body = response.json()
        assert body["status"] == "not_ready"
        assert body["checks"]["database"] == "missing"
        assert body["down"] == ["database"]
    finally:
        gateway.stop()


class RedisServer:
    """A redis-server of the test's own on a port held for it (:func:`reserve_port`; redis-server
    sets SO_REUSEADDR), to stop and start again: while it is down its port is given to no one else."""

    def __init__(self, work: Path):
        binary = shutil.which("redis-server")
        if binary is None:
            unavailable("redis-server")
        self.binary = str(binary)
        self.reserved = reserve_port()
        self.port = self.reserved.port
        self.work = work
        self.proc: Any = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        argv = [self.binary, "--port", str(self.port), "--bind", "127.0.0.1"]
        argv += ["--save", "", "--appendonly", "no", "--dir", str(self.work)]
        with (self.work / "redis.log").open("ab") as sink:
            self.proc = spawn(argv, output=sink)
        deadline = time.monotonic() + 30
        while True:  # answering PING: ready
            assert exit_code(self.proc) is None, (self.work / "redis.log").read_text()
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1) as conn:
                    conn.sendall(b"PING\r\n")
                    if conn.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                pass
            assert time.monotonic() < deadline, "redis-server did not start"
            time.sleep(0.05)

    def kill(self) -> None:
        if self.proc is not None:
            stop_process(self.proc, signal.SIGKILL)
            self.proc = None


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path)
    try:
        server.start()
        yield server
    finally:
        server.kill()
        server.reserved.release()


def assert_store_unavailable(response: httpx.Response) -> None:
    assert response.status_code == 503, response.text
    error = response.json()["error"]
    assert error["code"] == "service_unavailable"
    assert error["type"] == "server_error"
    assert "shared store" in error["message"]
    assert response.headers["retry-after"] == "1"  # nothing ran: safe to retry


def test_a_redis_outage_fails_ready_and_answers_503_not_500(
    tmp_path: Path, domain_processes: dict[str, Process], own_redis: RedisServer
) -> None:
    env = {**base_env(tmp_path, domain_processes), "REDIS_URL": own_redis.url, "REDIS_TIMEOUT_S": "1"}
    gateway = start_logged_gateway(env, tmp_path / "gateway.log")
    url = gateway.url
    session = {"X-Session-Id": f"ready-{uuid.uuid4().hex[:8]}"}
    try:
        assert wait_ready(gateway, 200).json()["checks"]["redis"] == "ok"
        assert httpx.post(
            f"{url}/v1/chat/completions", json=chat_json("cotação da Vale"), timeout=30
        ).is_success

        own_redis.kill()
        response = ready(gateway)
        assert response.status_code == 503, response.text
        assert response.json()["checks"]["redis"] == "unreachable"
        assert response.json()["down"] == ["redis"]
        turn = httpx.post(f"{url}/v1/chat/completions", json=chat_json("cotação da Vale"), headers=session)
        assert_store_unavailable(turn)
        assert_store_unavailable(httpx.post(f"{url}/v1/runs", json={"input_text": "cotação da Vale"}))
        assert_store_unavailable(httpx.get(f"{url}/v1/domains"))
        # a stream: refused before it starts, or ended with the error object, then [DONE]
        with httpx.stream(
            "POST", f"{url}/v1/chat/completions", json=chat_json("cotação da Vale", stream=True), timeout=30
        ) as stream:
            if stream.status_code != 200:
                stream.read()
                assert_store_unavailable(stream)
            else:
                events = [line[len("data: ") :] for line in stream.iter_lines() if line.startswith("data: ")]
                assert events[-1] == "[DONE]"
                assert json.loads(events[-2])["error"]["code"] == "service_unavailable"

        own_redis.start()  # same port: the gateway recovers without a restart
        assert wait_ready(gateway, 200).status_code == 200
        again = httpx.post(f"{url}/v1/chat/completions", json=chat_json("cotação da Vale"), headers=session)
        assert again.status_code == 200, again.text
    finally:
        gateway.stop()
    assert "internal_error" not in (tmp_path / "gateway.log").read_text()


class FreezableProxy(threading.Thread):
    """A loopback TCP proxy (its own thread and event loop) that can stop forwarding without
    closing anything: a database that no longer answers, as behind a network partition."""

    def __init__(self, target_port: int):
        super().__init__(daemon=True)
        self.target_port = target_port
        self.port = free_port()
        self.loop = asyncio.new_event_loop()
        self.started = threading.Event()
        self.flowing: asyncio.Event | None = None

    def run(self) -> None:
        asyncio.set_event_loop(self.loop)
        with contextlib.suppress(asyncio.CancelledError):  # stop()
            self.loop.run_until_complete(self._serve())

    async def _serve(self) -> None:
        self.flowing = asyncio.Event()
        self.flowing.set()
        server = await asyncio.start_server(self._connection, "127.0.0.1", self.port)
        self.started.set()
        async with server:
            await server.serve_forever()

    async def _pump(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        assert self.flowing is not None
        try:
            while data := await reader.read(65536):
                await self.flowing.wait()
                writer.write(data)
                await writer.drain()
        except OSError:
            pass
        finally:
            writer.close()

    async def _connection(self, client_r: asyncio.StreamReader, client_w: asyncio.StreamWriter) -> None:
        server_r, server_w = await asyncio.open_connection("127.0.0.1", self.target_port)
        await asyncio.gather(self._pump(client_r, server_w), self._pump(server_r, client_w))

    def freeze(self) -> None:
        assert self.flowing is not None
        self.loop.call_soon_threadsafe(self.flowing.clear)

    def thaw(self) -> None:
        assert self.flowing is not None
        self.loop.call_soon_threadsafe(self.flowing.set)

    def stop(self) -> None:
        def cancel_all() -> None:
            for task in asyncio.all_tasks(self.loop):
                task.cancel()

        self.loop.call_soon_threadsafe(cancel_all)
        self.join(timeout=10)


async def test_ready_fails_when_the_database_stops_answering(
    tmp_path: Path, domain_processes: dict[str, Process], pg_database_url: str
) -> None:
    target = int(pg_database_url.split("@", 1)[1].split("/", 1)[0].rsplit(":", 1)[1])
    proxy = FreezableProxy(target)
    proxy.start()
    assert proxy.started.wait(10)
    through_proxy = pg_database_url.replace(f":{target}/", f":{proxy.port}/")
    env = base_env(tmp_path, domain_processes, through_proxy)
    gateway = start_logged_gateway(env, tmp_path / "gateway.log")
    try:
        assert wait_ready(gateway, 200).status_code == 200
        proxy.freeze()
        response = ready(gateway)  # before: no answer at all while the database hung
        assert response.status_code == 503, response.text
        assert response.json()["checks"]["database"] == "unreachable"
        assert response.json()["down"] == ["database"]
        proxy.thaw()
        assert wait_ready(gateway, 200).status_code == 200
    finally:
        proxy.thaw()
        gateway.stop()
        proxy.stop()


def test_a_fatal_signal_leaves_the_traceback_on_stderr(
    tmp_path: Path, domain_processes: dict[str, Process]
) -> None:
    log = tmp_path / "gateway.log"
    gateway = start_logged_gateway(base_env(tmp_path, domain_processes), log)
    try:
        os.kill(gateway.proc.pid, signal.SIGSEGV)  # what an unwritable SQLite -shm raises is SIGBUS
        gateway.proc.wait(timeout=30)
    finally:
        gateway.stop("kill")
    assert gateway.proc.returncode == -signal.SIGSEGV
    text = log.read_text(errors="replace")
    assert "Fatal Python error: Segmentation fault" in text
    assert "Current thread" in text or "Thread 0x" in text
