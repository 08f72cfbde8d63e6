"""Nothing acts before it can be recorded (issue 23): a gateway whose database refuses writes runs
no step of a turn (the notifier's outbox stays empty), answers 503 ``storage_unavailable`` in the
OpenAI error shape (never a 500), and ``/ready`` says the database is down although it still
answers reads; once writes are allowed again, ``/ready`` recovers and the same request runs once.

The refusal is PostgreSQL's own: the gateway's role loses its INSERT/UPDATE rights on its tables
while it runs (as a read-only or full database would refuse them), and gets them back."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import pytest

from tests.conftest import PG_ADMIN_URL, Process, gateway_over, start_domain, unavailable

pytestmark = pytest.mark.integration


def _admin(sql: str, database: str | None = None) -> None:
    async def run() -> None:
        url = PG_ADMIN_URL if database is None else f"{PG_ADMIN_URL.rsplit('/', 1)[0]}/{database}"
        conn = await asyncpg.connect(url, timeout=3)
        try:
            await conn.execute(sql)
        finally:
            await conn.close()

    asyncio.run(run())


@pytest.fixture
def own_role_database() -> Iterator[tuple[str, str]]:
    """A PostgreSQL database owned by a role of its own (not a superuser, so rights apply)."""
    name = f"t_{uuid.uuid4().hex[:12]}"
    try:
        _admin(f'CREATE ROLE "{name}" LOGIN')
    except (OSError, asyncpg.PostgresError):
        unavailable("PostgreSQL at 127.0.0.1:5432")
    _admin(f'CREATE DATABASE "{name}" OWNER "{name}"')
    try:
        yield name, f"postgresql+asyncpg://{name}@127.0.0.1:5432/{name}"
    finally:
        _admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        _admin(f'DROP ROLE IF EXISTS "{name}"')


def _outbox(notifier: Process) -> list[dict[str, Any]]:
    return list(httpx.get(f"{notifier.url}/outbox", timeout=10).json()["messages"])


def _turn(gateway: Process, session: str, text: str) -> httpx.Response:
    return httpx.post(f"{gateway.url}/v1/runs", json={"input_text": text, "session_id": session}, timeout=60)


def test_a_database_refusing_writes_runs_no_step_and_answers_503(
    domain_processes: dict[str, Process], own_role_database: tuple[str, str], tmp_path: Path
) -> None:
    role, url = own_role_database
    outbox = tmp_path / "outbox.sqlite3"
    notifier = start_domain("notifier", {"NOTIFIER_OUTBOX_PATH": str(outbox), "TELEGRAM_BOT_TOKEN": ""})
    domains = {**domain_processes, "notifier": notifier}
    try:
        with gateway_over(domains, tmp_path, {"DATABASE_URL": url}) as gateway:
            session = f"ro-{uuid.uuid4().hex[:8]}"
            assert _turn(gateway, session, "qual a cotação da Vale?").status_code == 200
            assert httpx.get(f"{gateway.url}/ready", timeout=10).status_code == 200

            _admin(f'REVOKE INSERT, UPDATE ON ALL TABLES IN SCHEMA public FROM "{role}"', role)
            ready = httpx.get(f"{gateway.url}/ready", timeout=10)
            assert ready.status_code == 503 and ready.json()["down"] == ["database"]
            refused = _turn(gateway, session, "manda a cotação da Vale no meu telegram")
            assert refused.status_code == 503, refused.text
            assert refused.json()["error"]["code"] == "storage_unavailable"
            assert refused.json()["error"]["type"] == "server_error"
            assert refused.headers["Retry-After"] == "1"
            assert "permission" not in refused.text and "Traceback" not in refused.text
            assert _outbox(notifier) == []  # nothing was sent that could not be recorded

            _admin(f'GRANT INSERT, UPDATE ON ALL TABLES IN SCHEMA public TO "{role}"', role)
            assert httpx.get(f"{gateway.url}/ready", timeout=10).status_code == 200
            sent = _turn(gateway, session, "manda a cotação da Vale no meu telegram")
            assert sent.status_code == 200, sent.text
            assert len(_outbox(notifier)) == 1
    finally:
        notifier.stop()
