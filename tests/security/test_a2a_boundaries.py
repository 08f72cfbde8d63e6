"""Issue 24, finding 6: the A2A channel refuses what no turn may take, before anything runs.

A NUL, a lone surrogate, an integer no column holds, or a message longer than
``MAX_MESSAGE_CHARS``: a JSON-RPC "invalid params" error naming the field, no session created, no
domain called, and no SQL or internal text in any answer. Invalid UTF-8 and very deep JSON are
answered without a 5xx. On SQLite and on PostgreSQL (where the NUL used to reach the database).
"""

from __future__ import annotations

import contextlib
import json
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.conftest import Process, start_gateway, write_bootstrap
from tests.security.conftest import backend_database

pytestmark = pytest.mark.integration

KEY = "a2a-boundary-key-7d1e"
AUTH = {"Authorization": f"Bearer {KEY}", "Content-Type": "application/json"}
MAX_CHARS = 500
#: what an answer must never carry
INTERNAL = ("INSERT", "SELECT", "Traceback", "sqlalchemy", "asyncpg", "sqlite3", "psycopg", 'File "')


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def gateway(
    request: pytest.FixtureRequest,
    domain_processes: dict[str, Process],
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[Process]:
    work = tmp_path_factory.mktemp(f"a2a-{request.param}")
    bootstrap = write_bootstrap(work / "bootstrap.json", {n: p.url for n, p in domain_processes.items()})
    with contextlib.ExitStack() as stack:
        database = stack.enter_context(backend_database(request.param, Path(work)))
        process = start_gateway(
            {
                "DATABASE_URL": database,
                "BOOTSTRAP_FILE": str(bootstrap),
                "API_KEYS": KEY,
                "REDIS_URL": "",
                "MAX_MESSAGE_CHARS": str(MAX_CHARS),
            }
        )
        try:
            yield process
        finally:
            process.stop()


def send_body(text_json: str, context: str, extra: str = "") -> bytes:
    """A JSON-RPC ``message/send`` (A2A 0.3) whose text part is the JSON literal ``text_json``
    (escapes such as ``\\u0000`` kept as the client wrote them)."""
    return (
        '{"jsonrpc": "2.0", "id": 7, "method": "message/send", "params": {"message": '
        f'{{"role": "user", "messageId": "{uuid.uuid4().hex}", "contextId": "{context}", '
        f'"parts": [{{"kind": "text", "text": {text_json}}}]{extra}}}}}}}'
    ).encode()


def post(gateway: Process, body: bytes) -> httpx.Response:
    return httpx.post(f"{gateway.url}/a2a", content=body, headers=AUTH, timeout=60)


def no_internal_text(response: httpx.Response) -> None:
    assert response.status_code < 500, response.text
    for marker in INTERNAL:
        assert marker not in response.text, response.text


REFUSED = [
    pytest.param('"cotação da Apple\\u0000"', "", "NUL", id="NUL"),
    pytest.param('"cotação da Apple \\ud800"', "", "lone surrogate", id="lone surrogate"),
    pytest.param(json.dumps("a" * (MAX_CHARS + 1)), "", f"at most {MAX_CHARS} characters", id="too long"),
    pytest.param(
        '"cotação da Apple"',
        ', "metadata": {"n": 123456789012345678901234567890}',
        "out of range",
        id="huge int",
    ),
]


@pytest.mark.parametrize(("text_json", "extra", "reason"), REFUSED)
def test_bad_text_is_a_json_rpc_error_before_anything_runs(
    gateway: Process, text_json: str, extra: str, reason: str
) -> None:
    context = f"a2a-bad-{uuid.uuid4().hex[:8]}"
    response = post(gateway, send_body(text_json, context, extra))
    no_internal_text(response)
    body: dict[str, Any] = response.json()
    assert body["id"] == 7 and body["error"]["code"] == -32602, body
    assert reason in body["error"]["message"], body
    assert body["error"]["data"]["param"].startswith("params.message"), body
    # nothing ran: no session was made for the context
    session = httpx.get(f"{gateway.url}/v1/sessions/{context}", headers=AUTH, timeout=30)
    assert session.status_code == 404, session.text


@pytest.mark.parametrize(
    "body",
    [
        pytest.param(
            send_body('"cota\\u00e7\\u00e3o"', "ctx-utf8").replace(b"cota", b"cota\xff\xfe"),
            id="invalid UTF-8",
        ),
        pytest.param(b"[" * 100_000 + b"]" * 100_000, id="deep JSON"),
        pytest.param(
            b'{"jsonrpc": "2.0", "id": ' + b"9" * 5000 + b', "method": "message/send"}', id="huge id"
        ),
    ],
)
def test_malformed_requests_are_answered_without_a_5xx(gateway: Process, body: bytes) -> None:
    no_internal_text(post(gateway, body))


def test_a_valid_message_still_runs(gateway: Process) -> None:
    response = post(gateway, send_body('"cotação da Apple"', f"a2a-ok-{uuid.uuid4().hex[:8]}"))
    no_internal_text(response)
    result = response.json()["result"]
    assert result["status"]["state"] in ("completed", "input-required"), result
