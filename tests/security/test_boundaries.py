"""Findings 7 and 9 and the low ones at the HTTP boundary: what a client sends is refused with a 400
naming the field before anything runs, on SQLite and on PostgreSQL. Before, a NUL byte on
PostgreSQL, a lone surrogate or a non-Latin-1 session id answered 500 *after* the turn had run (the
Telegram message was already sent, so a retrying client sent it again); huge integers raised
``OverflowError``; fork took any ``new_session_id``; a message had no length cap; uvicorn held
slow-header connections forever; compose published the gateway with no API key.

Real gateway processes (one per database) in front of the real finance, notifier and general
domains; the notifier's outbox shows whether a turn's side effect ran.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import socket
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.conftest import PG_ADMIN_URL, ROOT, Process, start_gateway, unavailable, write_bootstrap

pytestmark = pytest.mark.integration

NOTIFYING = "manda a cotação da Vale no meu telegram"
HEADER_TIMEOUT_S = 1.0


async def _pg_admin(statement: str) -> None:
    import asyncpg

    admin = await asyncpg.connect(PG_ADMIN_URL, timeout=3)
    try:
        await admin.execute(statement)
    finally:
        await admin.close()


@pytest.fixture(scope="module")
def pg_module_url() -> Iterator[str]:
    """A fresh PostgreSQL database for this module, dropped afterwards."""
    import asyncpg

    name = f"t_{uuid.uuid4().hex[:12]}"
    try:
        asyncio.run(_pg_admin(f'CREATE DATABASE "{name}"'))
    except (TimeoutError, OSError, asyncpg.PostgresError):
        unavailable("PostgreSQL at 127.0.0.1:5432")
    try:
        yield f"{PG_ADMIN_URL.rsplit('/', 1)[0]}/{name}".replace("postgresql://", "postgresql+asyncpg://")
    finally:
        asyncio.run(_pg_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


def _gateway(database_url: str, domains: dict[str, Process], work: Path) -> Iterator[Process]:
    bootstrap = write_bootstrap(work / "bootstrap.json", {n: p.url for n, p in domains.items()})
    gateway = start_gateway(
        {
            "DATABASE_URL": database_url,
            "BOOTSTRAP_FILE": str(bootstrap),
            "API_KEYS": "",
            "ADMIN_TOKEN": "test-admin-token",
            "REDIS_URL": "",
            "HTTP_HEADER_TIMEOUT_S": str(HEADER_TIMEOUT_S),
        }
    )
    try:
        yield gateway
    finally:
        gateway.stop()


@pytest.fixture(scope="module")
def sqlite_gateway(
    domain_processes: dict[str, Process], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Process]:
    work = tmp_path_factory.mktemp("boundaries-sqlite")
    yield from _gateway(f"sqlite+aiosqlite:///{work / 'gateway.sqlite3'}", domain_processes, work)


@pytest.fixture(scope="module")
def postgres_gateway(
    domain_processes: dict[str, Process], tmp_path_factory: pytest.TempPathFactory, pg_module_url: str
) -> Iterator[Process]:
    yield from _gateway(pg_module_url, domain_processes, tmp_path_factory.mktemp("boundaries-pg"))


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def gateway(request: pytest.FixtureRequest) -> Process:
    started: Process = request.getfixturevalue(f"{request.param}_gateway")
    return started


@pytest.fixture
def notifier(domain_processes: dict[str, Process]) -> Process:
    return domain_processes["notifier"]


def sent(notifier: Process) -> int:
    """Messages the notifier has handled: what a turn's side effect adds to."""
    return int(httpx.get(f"{notifier.url}/outbox", timeout=10).json()["count"])


def post(gateway: Process, path: str, body: Any, headers: dict[str, str] | None = None) -> httpx.Response:
    """``body`` as JSON with every non-ASCII character escaped, so lone surrogates and NUL travel
    exactly as a client's JSON encoder writes them (``\\ud800``, ``\\u0000``)."""
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    return httpx.post(
        f"{gateway.url}{path}",
        content=raw,
        headers={"content-type": "application/json", **(headers or {})},
        timeout=60,
    )


def chat(text: Any, **extra: Any) -> dict[str, Any]:
    return {"model": "orchestrator", "messages": [{"role": "user", "content": text}], **extra}


def assert_refused(response: httpx.Response, param: str) -> None:
    assert response.status_code == 400, response.text
    error = response.json()["error"]
    assert error["type"] == "invalid_request_error"
    assert error["param"] == param, error


def new_session() -> str:
    return f"bnd-{uuid.uuid4().hex[:10]}"


@pytest.mark.parametrize("stream", [False, True], ids=["plain", "stream"])
@pytest.mark.parametrize("bad", ["\x00", "\ud800"], ids=["nul", "lone-surrogate"])
def test_bad_text_in_a_message_is_refused_before_the_turn_runs(
    gateway: Process, notifier: Process, bad: str, stream: bool
) -> None:
    session = new_session()
    before = sent(notifier)
    refused = post(
        gateway, "/v1/chat/completions", chat(NOTIFYING + bad, stream=stream), {"X-Session-Id": session}
    )
    assert_refused(refused, "messages[0].content")
    assert sent(notifier) == before  # the Telegram message was not sent
    assert httpx.get(f"{gateway.url}/v1/sessions/{session}").status_code == 404  # nothing stored
    # the same request without the bad character does send it: the refusal is what stopped it
    accepted = post(gateway, "/v1/chat/completions", chat(NOTIFYING), {"X-Session-Id": session})
    assert accepted.status_code == 200, accepted.text
    assert sent(notifier) == before + 1


def test_bad_text_anywhere_in_a_body_or_path_is_refused(gateway: Process) -> None:
    metadata_nul = chat("cotação da Vale", metadata={"note": "a\x00b"})
    assert_refused(post(gateway, "/v1/chat/completions", metadata_nul), "metadata.note")
    assert_refused(post(gateway, "/v1/runs", {"input_text": "cotação\ud800 da Vale"}), "input_text")
    assert_refused(httpx.get(f"{gateway.url}/v1/sessions/a%00b"), "session_id")
    assert_refused(httpx.get(f"{gateway.url}/v1/sessions", params={"q": "a\x00"}), "q")


def test_session_ids_that_cannot_travel_back_in_a_header_are_refused_before_the_turn_runs(
    gateway: Process, notifier: Process
) -> None:
    before = sent(notifier)
    for bad in ("会话-1", "s\u202eevil", "s\x00", "s\ud800", "x" * 129):
        by_metadata = post(gateway, "/v1/chat/completions", chat(NOTIFYING, metadata={"session_id": bad}))
        assert_refused(by_metadata, "metadata.session_id")
        assert_refused(post(gateway, "/v1/runs", {"input_text": NOTIFYING, "session_id": bad}), "session_id")
    assert sent(notifier) == before


def test_fork_checks_new_session_id_like_a_session_id(gateway: Process) -> None:
    session = new_session()
    assert (
        post(gateway, "/v1/runs", {"input_text": "cotação da Vale", "session_id": session}).status_code == 200
    )
    versions = httpx.get(f"{gateway.url}/v1/sessions/{session}").json()["versions"]
    version = max(v["version"] for v in versions if v["step_boundary"])
    fork = f"/v1/sessions/{session}/fork"
    for bad in ("x\u202ey", "a\x00b", "会话", "x" * 129):
        assert_refused(post(gateway, fork, {"version": version, "new_session_id": bad}), "new_session_id")
    forked = post(gateway, fork, {"version": version, "new_session_id": new_session()})
    assert forked.status_code == 201, forked.text


def test_huge_and_non_finite_numbers_are_refused(gateway: Process) -> None:
    huge = str(10**30)
    assert_refused(httpx.get(f"{gateway.url}/v1/sessions", params={"offset": huge}), "offset")
    assert_refused(post(gateway, "/v1/runs", {"input_text": "oi", "metadata": {"n": 10**30}}), "metadata.n")
    not_a_number = b'{"input_text": "oi", "metadata": {"x": NaN}}'
    assert_refused(post(gateway, "/v1/runs", not_a_number), "metadata.x")


def test_a_message_longer_than_max_message_chars_is_refused(sqlite_gateway: Process) -> None:
    limit = 32_000  # MAX_MESSAGE_CHARS' default
    assert_refused(
        post(sqlite_gateway, "/v1/chat/completions", chat("a" * (limit + 1))), "messages[0].content"
    )
    half = {"type": "text", "text": "a" * (limit // 2 + 1)}
    assert_refused(post(sqlite_gateway, "/v1/chat/completions", chat([half, half])), "messages[0].content")
    too_long = "a" * (limit + 1)
    responses = {"model": "orchestrator", "input": too_long}
    assert_refused(post(sqlite_gateway, "/v1/responses", responses), "input")
    items = {"model": "orchestrator", "input": [{"role": "user", "content": too_long}]}
    assert_refused(post(sqlite_gateway, "/v1/responses", items), "input[0].content")
    assert_refused(post(sqlite_gateway, "/v1/runs", {"input_text": too_long}), "input_text")


def test_a_connection_whose_headers_never_finish_is_closed(sqlite_gateway: Process) -> None:
    port = int(sqlite_gateway.url.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port)) as slow:
        slow.sendall(b"GET /health HTTP/1.1\r\nHost: gateway\r\n")  # and never the blank line
        # bounded wait: the server closes it after HTTP_HEADER_TIMEOUT_S; before, it never did
        slow.settimeout(HEADER_TIMEOUT_S + 10)
        assert slow.recv(1024) == b""


def test_headers_larger_than_the_limit_are_refused(sqlite_gateway: Process) -> None:
    response = httpx.get(f"{sqlite_gateway.url}/health", headers={"X-Padding": "a" * 100_000}, timeout=10)
    assert response.status_code == 400
    assert httpx.get(f"{sqlite_gateway.url}/health", timeout=10).status_code == 200


def test_compose_refuses_to_publish_the_gateway_without_api_keys() -> None:
    compose = shutil.which("docker-compose")
    if compose is None:
        unavailable("docker-compose")
        return
    env = {k: v for k, v in os.environ.items() if k != "API_KEYS"}
    argv = [compose, "-f", str(ROOT / "docker-compose.yml"), "config", "-q"]
    refused = subprocess.run(argv, env=env, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert refused.returncode != 0
    assert "API_KEYS" in refused.stderr
    keyed = subprocess.run(
        argv, env={**env, "API_KEYS": "k1"}, cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert keyed.returncode == 0, keyed.stderr
