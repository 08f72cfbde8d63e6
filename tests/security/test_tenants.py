"""Tenant separation, through a real gateway process over the real domain processes.

Two ``API_KEYS`` are two tenants: neither reads, continues, answers, forks or resets the other's
sessions and runs, and every refusal is the 404 of a session or run that does not exist. Keys made
through the admin route or the CLI are stored hashed and stop working once revoked; admin routes
refuse user keys; the Telegram webhook's sessions are no key's.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.conftest import ROOT, Process, start_gateway, write_bootstrap

pytestmark = pytest.mark.integration

K1, K2 = "tenant-one-key-4f1c", "tenant-two-key-9a7e"
ADMIN_TOKEN = "tenants-admin-token-2b8d"
TELEGRAM_SECRET = "tenants-telegram-secret"
#: how long the gateway trusts a stored key it found (a CLI revocation takes this long to land)
AUTH_CACHE_S = 1.0


@pytest.fixture(scope="module")
def gateway(
    domain_processes: dict[str, Process], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Process]:
    work = tmp_path_factory.mktemp("tenants")
    bootstrap = write_bootstrap(work / "bootstrap.json", {n: p.url for n, p in domain_processes.items()})
    process = start_gateway(
        {
            "DATABASE_URL": f"sqlite+aiosqlite:///{work / 'gateway.sqlite3'}",
            "BOOTSTRAP_FILE": str(bootstrap),
            "API_KEYS": f"{K1},{K2}",
            "ADMIN_TOKEN": ADMIN_TOKEN,
            "TELEGRAM_WEBHOOK_SECRET": TELEGRAM_SECRET,
            "AUTH_CACHE_S": str(AUTH_CACHE_S),
            "REDIS_URL": "",
        }
    )
    try:
        yield process
    finally:
        process.stop()


def database_of(gateway: Process) -> Path:
    return Path(gateway.env["DATABASE_URL"].removeprefix("sqlite+aiosqlite:///"))


def call(gateway: Process, key: str, method: str, path: str, **kwargs: Any) -> httpx.Response:
    headers = {"Authorization": f"Bearer {key}", **kwargs.pop("headers", {})}
    return httpx.request(method, f"{gateway.url}{path}", headers=headers, timeout=60, **kwargs)


def say(gateway: Process, key: str, session: str, text: str) -> dict[str, Any]:
    response = call(gateway, key, "POST", "/v1/runs", json={"input_text": text, "session_id": session})
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def error_of(response: httpx.Response, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.text
    error: dict[str, Any] = response.json()["error"]
    return error


def new_id() -> str:
    return f"tenant-test-{uuid.uuid4().hex[:10]}"


@pytest.fixture(scope="module")
def asked(gateway: Process) -> dict[str, Any]:
    """Tenant one's session, waiting for the answer to a question (which Nordea?)."""
    session = new_id()
    trace = say(gateway, K1, session, "qual o preço da Nordea?")
    assert trace["status"] == "waiting_input", trace["answer"]
    return trace


def chat_body(text: str, **extra: Any) -> dict[str, Any]:
    return {"model": "orchestrator", "messages": [{"role": "user", "content": text}], **extra}


READS = [
    "/v1/sessions/{session}",
    "/v1/sessions/{session}/history",
    "/v1/sessions/{session}/versions/0",
    "/v1/runs/{run}",
    "/v1/runs/{run}/events",
]


@pytest.mark.parametrize("template", READS)
def test_another_tenants_session_and_run_read_as_missing(
    gateway: Process, asked: dict[str, Any], template: str
) -> None:
    path = template.format(session=asked["session_id"], run=asked["run_id"])
    assert call(gateway, K1, "GET", path).status_code == 200
    foreign = error_of(call(gateway, K2, "GET", path), 404)
    # word for word what a session or run that never existed answers
    missing_path = template.format(session=new_id(), run=f"run-{uuid.uuid4().hex}")
    missing = error_of(call(gateway, K2, "GET", missing_path), 404)
    assert foreign["param"] == missing["param"] and foreign["code"] == missing["code"]
    assert foreign["message"].split("'")[0] == missing["message"].split("'")[0]


WRITES: list[tuple[str, str, dict[str, Any], dict[str, str]]] = [
    ("answer through /v1/runs", "/v1/runs", {"input_text": "2", "session_id": "{session}"}, {}),
    ("background run", "/v1/runs", {"input_text": "2", "session_id": "{session}", "background": True}, {}),
    ("chat completion", "/v1/chat/completions", chat_body("2"), {"X-Session-Id": "{session}"}),
    ("streamed chat", "/v1/chat/completions", chat_body("2", stream=True), {"X-Session-Id": "{session}"}),
    ("fork", "/v1/sessions/{session}/fork", {"version": 0}, {}),
]


@pytest.mark.parametrize(("what", "path", "body", "headers"), WRITES, ids=[w[0] for w in WRITES])
def test_another_tenant_can_neither_answer_continue_nor_fork_a_session(
    gateway: Process,
    asked: dict[str, Any],
    what: str,
    path: str,
    body: dict[str, Any],
    headers: dict[str, str],
) -> None:
    session = asked["session_id"]
    before = call(gateway, K1, "GET", f"/v1/sessions/{session}").json()

    def fill(value: Any) -> Any:
        return value.replace("{session}", session) if isinstance(value, str) else value

    response = call(
        gateway,
        K2,
        "POST",
        path.replace("{session}", session),
        json={k: fill(v) for k, v in body.items()},
        headers={k: fill(v) for k, v in headers.items()},
    )
    assert error_of(response, 404)["message"] == f"No session with id '{session}'"
    after = call(gateway, K1, "GET", f"/v1/sessions/{session}").json()
    assert after["status"] == "waiting_input" and after["pending_question"] is not None
    assert (after["turn_count"], after["versions"]) == (before["turn_count"], before["versions"])


def test_another_tenant_cannot_reset_a_session_and_the_owner_still_answers(gateway: Process) -> None:
    session = new_id()
    assert say(gateway, K1, session, "qual o preço da Nordea?")["status"] == "waiting_input"
    error_of(call(gateway, K2, "DELETE", f"/v1/sessions/{session}"), 404)
    # the question is still the owner's to answer, and the answer is the owner's
    answered = say(gateway, K1, session, "2")
    assert answered["status"] == "completed" and "NDA-FI.HE" in answered["answer"]


def test_the_sessions_list_shows_only_the_callers_sessions(gateway: Process, asked: dict[str, Any]) -> None:
    mine = new_id()
    say(gateway, K2, mine, "cotação da Apple")
    listed_by_two = {
        s["session_id"] for s in call(gateway, K2, "GET", "/v1/sessions?limit=200").json()["data"]
    }
    assert mine in listed_by_two and asked["session_id"] not in listed_by_two
    searched = call(gateway, K2, "GET", "/v1/sessions", params={"q": asked["session_id"]}).json()
    assert (searched["data"], searched["total"]) == ([], 0)
    listed_by_one = {
        s["session_id"] for s in call(gateway, K1, "GET", "/v1/sessions?limit=200").json()["data"]
    }
    assert asked["session_id"] in listed_by_one and mine not in listed_by_one


def test_a_fork_cannot_land_on_another_tenants_session_id(gateway: Process, asked: dict[str, Any]) -> None:
    mine = new_id()
    say(gateway, K2, mine, "cotação da Apple")
    versions = call(gateway, K2, "GET", f"/v1/sessions/{mine}").json()["versions"]
    resumable = next(v["version"] for v in versions if v["step_boundary"])
    response = call(
        gateway,
        K2,
        "POST",
        f"/v1/sessions/{mine}/fork",
        json={"version": resumable, "new_session_id": asked["session_id"]},
    )
    assert error_of(response, 409)["param"] == "new_session_id"
    owner_view = call(gateway, K1, "GET", f"/v1/sessions/{asked['session_id']}").json()
    assert owner_view["pending_question"] is not None  # untouched


def test_a_reset_archive_is_its_sessions_tenants(gateway: Process) -> None:
    session = new_id()
    say(gateway, K1, session, "cotação da Apple")
    archived = call(gateway, K1, "DELETE", f"/v1/sessions/{session}").json()["archived_as"]
    assert archived
    assert call(gateway, K1, "GET", f"/v1/sessions/{archived}/versions/0").status_code == 200
    error_of(call(gateway, K2, "GET", f"/v1/sessions/{archived}/versions/0"), 404)
    error_of(call(gateway, K2, "POST", f"/v1/sessions/{archived}/fork", json={"version": 0}), 404)
    response = call(gateway, K2, "POST", "/v1/runs", json={"input_text": "oi", "session_id": archived})
    error_of(response, 404)
    # nor can a tenant take an archive's name before the reset that would write it
    error_of(
        call(gateway, K2, "POST", "/v1/runs", json={"input_text": "oi", "session_id": f"{session}~reset-99"}),
        404,
    )


def telegram_update(chat_id: int, text: str) -> dict[str, Any]:
    return {"update_id": 1, "message": {"message_id": 7, "chat": {"id": chat_id}, "text": text}}


def test_telegram_sessions_are_no_keys(gateway: Process) -> None:
    chat_id = 4_100_000 + uuid.uuid4().int % 100_000
    reply = httpx.post(
        f"{gateway.url}/channels/telegram/webhook",
        json=telegram_update(chat_id, "qual o preço da Nordea?"),
        headers={"X-Telegram-Bot-Api-Secret-Token": TELEGRAM_SECRET},
        timeout=60,
    )
    assert reply.status_code == 200 and reply.json()["method"] == "sendMessage", reply.text
    session = f"telegram-{chat_id}"
    for key in (K1, K2, ADMIN_TOKEN):
        error_of(call(gateway, key, "GET", f"/v1/sessions/{session}"), 404)
        response = call(gateway, key, "POST", "/v1/runs", json={"input_text": "2", "session_id": session})
        error_of(response, 404)
    # a chat that never wrote is not a key's to open either
    unused = f"telegram-{chat_id + 1}"
    error_of(call(gateway, K1, "POST", "/v1/runs", json={"input_text": "oi", "session_id": unused}), 404)
    # and the Telegram chat goes on with its own question
    answered = httpx.post(
        f"{gateway.url}/channels/telegram/webhook",
        json=telegram_update(chat_id, "2"),
        headers={"X-Telegram-Bot-Api-Secret-Token": TELEGRAM_SECRET},
        timeout=60,
    )
    assert "NDA-FI.HE" in answered.json()["text"]


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("POST", "/v1/domains", {"name": "probe", "base_url": "http://127.0.0.1:9"}),
        ("DELETE", "/v1/domains/finance", None),
        ("POST", "/v1/admin/keys", {"tenant": "acme"}),
        ("GET", "/v1/admin/keys", None),
        ("DELETE", "/v1/admin/keys/key_x", None),
    ],
)
def test_admin_routes_refuse_user_keys(gateway: Process, method: str, path: str, body: Any) -> None:
    error_of(call(gateway, K1, method, path, json=body), 403)
    error_of(httpx.request(method, f"{gateway.url}{path}", json=body, timeout=10), 401)


def test_domains_show_where_they_live_to_admins_only(gateway: Process) -> None:
    as_user = call(gateway, K1, "GET", "/v1/domains").json()["data"]
    assert {d["name"] for d in as_user} >= {"finance", "general"}
    assert all("base_url" not in d and "last_error" not in d for d in as_user)
    as_admin = call(gateway, ADMIN_TOKEN, "GET", "/v1/domains").json()["data"]
    assert all(d["base_url"].startswith("http://127.0.0.1:") for d in as_admin)


def stored_keys(gateway: Process) -> list[tuple[Any, ...]]:
    with sqlite3.connect(database_of(gateway)) as db:
        return list(db.execute("SELECT * FROM api_keys"))


def test_a_key_made_by_the_admin_is_its_own_tenant_stored_hashed_and_revocable(gateway: Process) -> None:
    made = call(gateway, ADMIN_TOKEN, "POST", "/v1/admin/keys", json={"tenant": "acme", "label": "ops"})
    assert made.status_code == 201, made.text
    key, key_id = made.json()["key"], made.json()["id"]

    session = new_id()
    assert say(gateway, key, session, "cotação da Apple")["status"] == "completed"
    error_of(call(gateway, K1, "GET", f"/v1/sessions/{session}"), 404)

    rows = stored_keys(gateway)
    assert not any(key in str(value) for row in rows for value in row)  # never the key itself
    assert any(hashlib.sha256(key.encode()).hexdigest() in row for row in rows)
    listed = call(gateway, ADMIN_TOKEN, "GET", "/v1/admin/keys").json()["data"]
    mine = next(k for k in listed if k["id"] == key_id)
    assert (mine["tenant"], mine["role"], mine["label"], mine["revoked_at"]) == ("acme", "user", "ops", None)
    assert key not in json.dumps(listed) and "key_hash" not in mine

    assert call(gateway, ADMIN_TOKEN, "DELETE", f"/v1/admin/keys/{key_id}").status_code == 200
    refused = error_of(call(gateway, key, "GET", f"/v1/sessions/{session}"), 401)
    assert refused["message"] == "Incorrect API key provided."


def test_an_admin_key_from_the_database_may_use_admin_routes(gateway: Process) -> None:
    made = call(gateway, ADMIN_TOKEN, "POST", "/v1/admin/keys", json={"tenant": "ops", "role": "admin"})
    admin_key = made.json()["key"]
    assert call(gateway, admin_key, "GET", "/v1/admin/keys").status_code == 200
    assert "base_url" in call(gateway, admin_key, "GET", "/v1/domains").json()["data"][0]
    reserved = call(gateway, admin_key, "POST", "/v1/admin/keys", json={"tenant": "telegram"})
    assert error_of(reserved, 400)["param"] == "tenant"


def test_a_tenant_name_derived_from_an_api_key_is_reserved(gateway: Process) -> None:
    """Issue 24, finding 10: a key made for ``key-<hash>`` (an ``API_KEYS`` entry's tenant) would
    read every session of that tenant."""
    session = new_id()
    say(gateway, K1, session, "cotação da Apple")
    derived = f"key-{hashlib.sha256(K1.encode()).hexdigest()[:12]}"
    for tenant in (derived, "key-0123456789ab"):  # configured now or not: the whole pattern
        refused = call(gateway, ADMIN_TOKEN, "POST", "/v1/admin/keys", json={"tenant": tenant})
        error = error_of(refused, 400)
        assert error["param"] == "tenant" and "reserved" in error["message"], error
    listed = call(gateway, ADMIN_TOKEN, "GET", "/v1/admin/keys").json()["data"]
    assert all(k["tenant"] != derived for k in listed)
    # the derived tenant's sessions stay its key's alone
    assert call(gateway, K1, "GET", f"/v1/sessions/{session}").status_code == 200


def orchestrator_keys(gateway: Process, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "cli",
            "keys",
            "--lang",
            "en",
            "--database-url",
            gateway.env["DATABASE_URL"],
            *args,
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_a_key_made_by_the_cli_works_at_once_and_its_revocation_lands(gateway: Process) -> None:
    created = orchestrator_keys(gateway, "create", "--tenant", "beta")
    assert created.returncode == 0, created.stderr
    key = created.stdout.strip()
    assert key.startswith("ork_") and "Store it now" in created.stderr
    session = new_id()
    assert say(gateway, key, session, "cotação da Apple")["status"] == "completed"
    assert not any(key in str(value) for row in stored_keys(gateway) for value in row)

    listed = orchestrator_keys(gateway, "list")
    line = next(line for line in listed.stdout.splitlines() if "\tbeta\t" in line)
    assert key not in listed.stdout
    revoked = orchestrator_keys(gateway, "revoke", line.split("\t")[0])
    assert revoked.returncode == 0, revoked.stderr
    # another process revoked it: this gateway stops trusting it within AUTH_CACHE_S
    deadline = time.monotonic() + AUTH_CACHE_S + 10
    while call(gateway, key, "GET", f"/v1/sessions/{session}").status_code != 401:
        assert time.monotonic() < deadline, "the revoked key still works"
        time.sleep(0.1)


def test_a_request_without_a_key_or_with_an_unknown_one_is_refused(gateway: Process) -> None:
    assert httpx.get(f"{gateway.url}/v1/sessions", timeout=10).status_code == 401
    error_of(call(gateway, "not-a-key", "GET", "/v1/sessions"), 401)


def test_open_mode_is_one_tenant_until_the_first_key_is_stored(
    domain_processes: dict[str, Process], tmp_path: Path
) -> None:
    bootstrap = write_bootstrap(tmp_path / "bootstrap.json", {n: p.url for n, p in domain_processes.items()})
    process = start_gateway(
        {
            "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'open.sqlite3'}",
            "BOOTSTRAP_FILE": str(bootstrap),
            "API_KEYS": "",
            "ADMIN_TOKEN": ADMIN_TOKEN,
            "REDIS_URL": "",
        }
    )
    try:
        session = new_id()
        opened = httpx.post(
            f"{process.url}/v1/runs",
            json={"input_text": "cotação da Apple", "session_id": session},
            timeout=60,
        )
        assert opened.status_code == 200, opened.text
        # open mode: one tenant, whoever calls (the admin token only adds the admin role)
        assert call(process, ADMIN_TOKEN, "GET", f"/v1/sessions/{session}").status_code == 200
        made = call(process, ADMIN_TOKEN, "POST", "/v1/admin/keys", json={"tenant": "acme"})
        assert made.status_code == 201, made.text
        # the first stored key closes the gateway, and its tenant does not see the open mode's sessions
        error_of(httpx.get(f"{process.url}/v1/sessions/{session}", timeout=10), 401)
        error_of(call(process, made.json()["key"], "GET", f"/v1/sessions/{session}"), 404)
    finally:
        process.stop()
