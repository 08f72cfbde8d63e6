"""Fixtures shared by the whole suite: free ports, real processes, real PostgreSQL and Redis.

Under ``CI=true`` a missing PostgreSQL or Redis is a failure, not a skip.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parent.parent
PG_ADMIN_URL = os.environ.get("TEST_PG_ADMIN_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
REDIS_TEST_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/15")
IN_CI = os.environ.get("CI", "").lower() == "true"


def unavailable(what: str) -> None:
    """Skip locally, fail in CI: a missing service must never pass silently there."""
    if IN_CI:
        pytest.fail(f"{what} is required under CI=true but is not reachable")
    pytest.skip(f"{what} not reachable")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_http(url: str, timeout_s: float = 20.0, proc: subprocess.Popen[bytes] | None = None) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"process for {url} exited with {proc.returncode}")
        try:
            if httpx.get(url, timeout=1.0).status_code < 500:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise TimeoutError(f"{url} did not answer within {timeout_s}s")


@dataclass
class Process:
    name: str
    url: str
    proc: subprocess.Popen[bytes]
    env: dict[str, str] = field(default_factory=dict)

    def stop(self, sig: str = "term") -> None:
        if self.proc.poll() is None:
            if sig == "kill":
                self.proc.kill()
            else:
                self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def start_domain(name: str, env: dict[str, str] | None = None, port: int | None = None) -> Process:
    return _start_service(name, ["-m", f"domains.{name}", "--host", "127.0.0.1"], env, port)


def start_fixture_domain(script: str) -> Process:
    """A domain the core has never seen, ``tests/fixtures/<script>.py``, on a free port."""
    return _start_service(script, [str(ROOT / "tests" / "fixtures" / f"{script}.py")], None, None)


def _start_service(name: str, argv: list[str], env: dict[str, str] | None, port: int | None) -> Process:
    """``python <argv> --port P``, waited for on ``/health`` (killed if it never answers)."""
    port = port or free_port()
    full_env = {**os.environ, **(env or {})}
    proc = subprocess.Popen([sys.executable, *argv, "--port", str(port)], cwd=ROOT, env=full_env)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_http(f"{url}/health", proc=proc)
    except Exception:
        proc.kill()
        raise
    return Process(name, url, proc, env or {})


def start_gateway(env: dict[str, str], port: int | None = None) -> Process:
    port = port or free_port()
    full_env = {
        **os.environ,
        "GATEWAY_HOST": "127.0.0.1",
        "GATEWAY_PORT": str(port),
        "LOG_LEVEL": "WARNING",
        **env,
    }
    proc = subprocess.Popen([sys.executable, "-m", "gateway"], cwd=ROOT, env=full_env)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_http(f"{url}/health", proc=proc)
    except Exception:
        proc.kill()
        raise
    return Process("gateway", url, proc, env)


def chat(gateway: Process, session: str, text: str, timeout_s: float = 30) -> str:
    """One user message through ``/v1/chat/completions`` on ``session``; the assistant's text."""
    response = httpx.post(
        f"{gateway.url}/v1/chat/completions",
        json={"model": "orchestrator", "messages": [{"role": "user", "content": text}]},
        headers={"X-Session-Id": session},
        timeout=timeout_s,
    )
    assert response.status_code == 200, response.text
    return str(response.json()["choices"][0]["message"]["content"])


def write_bootstrap(path: Path, domains: dict[str, str]) -> Path:
    path.write_text(json.dumps({"domains": [{"name": n, "base_url": u} for n, u in domains.items()]}))
    return path


@pytest.fixture(scope="session")
def domain_processes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Process]]:
    """finance, notifier and general as real processes, shared by the integration tests."""
    data = tmp_path_factory.mktemp("domains")
    env = {"NOTIFIER_OUTBOX_PATH": str(data / "outbox.sqlite3"), "TELEGRAM_BOT_TOKEN": ""}
    started: dict[str, Process] = {}
    try:
        for name in ("finance", "notifier", "general"):
            started[name] = start_domain(name, env)
        yield started
    finally:
        for p in started.values():
            p.stop()


@pytest.fixture(scope="session")
def platform(
    domain_processes: dict[str, Process], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Process]:
    """A real gateway process on SQLite talking HTTP to the real domain processes."""
    work = tmp_path_factory.mktemp("gateway")
    bootstrap = write_bootstrap(work / "bootstrap.json", {n: p.url for n, p in domain_processes.items()})
    gateway = start_gateway(
        {
            "DATABASE_URL": f"sqlite+aiosqlite:///{work / 'gateway.sqlite3'}",
            "BOOTSTRAP_FILE": str(bootstrap),
            "ADMIN_TOKEN": "test-admin-token",
            "API_KEYS": "",
            "REDIS_URL": "",
        }
    )
    try:
        yield gateway
    finally:
        gateway.stop()


@pytest.fixture
async def pg_database_url() -> AsyncIterator[str]:
    """A fresh PostgreSQL database for one test, dropped afterwards."""
    import asyncpg

    name = f"t_{uuid.uuid4().hex[:12]}"
    try:
        admin = await asyncpg.connect(PG_ADMIN_URL, timeout=3)
    except (TimeoutError, OSError, asyncpg.PostgresError):
        unavailable("PostgreSQL at 127.0.0.1:5432")
        raise  # unreachable: unavailable() skips or fails
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    base = PG_ADMIN_URL.rsplit("/", 1)[0]
    try:
        yield f"{base}/{name}".replace("postgresql://", "postgresql+asyncpg://")
    finally:
        admin = await asyncpg.connect(PG_ADMIN_URL, timeout=3)
        try:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await admin.close()


@pytest.fixture
async def redis_url() -> AsyncIterator[str]:
    import redis.asyncio as aioredis

    client = aioredis.from_url(REDIS_TEST_URL)
    try:
        await client.ping()
    except (OSError, aioredis.RedisError):
        unavailable("Redis at 127.0.0.1:6379")
    try:
        await client.flushdb()
        yield REDIS_TEST_URL
        await client.flushdb()
    finally:
        await client.aclose()
