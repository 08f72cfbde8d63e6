"""The sessions API's edge cases, through a real gateway process: precise 400/404/409 answers,
versions and forks of a reset session, and a history that shows what the person typed."""

from __future__ import annotations

import sqlite3
import uuid
from pathlib import Path
from typing import Any

import httpx
import pytest

from gateway.errors import BODY_MUST_BE_JSON
from tests.conftest import Process, run_turn
from tests.integration.test_gateway_config import in_process, settings_for

pytestmark = pytest.mark.integration


def new_session() -> str:
    return f"test-{uuid.uuid4().hex[:12]}"


def error_of(response: httpx.Response, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.text
    error: dict[str, Any] = response.json()["error"]
    return error


def versions_of(platform: Process, session: str) -> list[int]:
    view = httpx.get(f"{platform.url}/v1/sessions/{session}", timeout=10).json()
    return [v["version"] for v in view["versions"]]


@pytest.fixture(scope="module")
def answered_session(platform: Process) -> str:
    session = new_session()
    run_turn(platform, session, "cotação da Apple")
    return session


def test_a_fork_without_a_body_names_the_field_it_lacks(platform: Process, answered_session: str) -> None:
    url = f"{platform.url}/v1/sessions/{answered_session}/fork"
    empty = error_of(httpx.post(url, timeout=10), 400)
    assert empty["param"] == "version"
    assert empty["message"].startswith("version: Field required")
    no_version = error_of(httpx.post(url, json={}, timeout=10), 400)
    assert (no_version["param"], no_version["message"]) == ("version", "version: Field required")
    negative = error_of(httpx.post(url, json={"version": -1}, timeout=10), 400)
    assert negative["param"] == "version"


def test_a_fork_body_that_is_not_json_is_told_so(platform: Process, answered_session: str) -> None:
    url = f"{platform.url}/v1/sessions/{answered_session}/fork"
    form = error_of(httpx.post(url, data={"version": "1"}, timeout=10), 400)
    assert (form["message"], form["code"]) == (BODY_MUST_BE_JSON, "invalid_json")
    broken = error_of(
        httpx.post(url, content=b'{"version": ', headers={"content-type": "application/json"}, timeout=10),
        400,
    )
    assert broken["code"] == "invalid_json"
    assert broken["message"].startswith("The request body is not valid JSON")


def test_a_missing_version_of_an_existing_session_is_a_404_naming_the_version(
    platform: Process, answered_session: str
) -> None:
    url = f"{platform.url}/v1/sessions/{answered_session}"
    missing = error_of(httpx.get(f"{url}/versions/999", timeout=10), 404)
    assert missing == {
        "message": f"Session '{answered_session}' has no version 999",
        "type": "not_found_error",
        "param": "version",
        "code": "not_found",
    }
    fork = error_of(httpx.post(f"{url}/fork", json={"version": 999}, timeout=10), 404)
    assert (fork["param"], fork["message"]) == ("version", f"Session '{answered_session}' has no version 999")
    # an existing version still answers, so the 404 above is about the number only
    assert httpx.get(f"{url}/versions/0", timeout=10).status_code == 200


@pytest.mark.parametrize("version", [str(10**30), "-1", str(2**31), "three"])
def test_an_out_of_range_version_is_a_400(platform: Process, answered_session: str, version: str) -> None:
    url = f"{platform.url}/v1/sessions/{answered_session}/versions/{version}"
    assert error_of(httpx.get(url, timeout=10), 400)["param"] == "version"
    fork_url = f"{platform.url}/v1/sessions/{answered_session}/fork"
    body = {"version": int(version) if version.lstrip("-").isdigit() else version}
    assert error_of(httpx.post(fork_url, json=body, timeout=10), 400)["param"] == "version"


def test_an_unknown_session_is_still_a_404_on_the_session(platform: Process) -> None:
    missing = error_of(httpx.get(f"{platform.url}/v1/sessions/nope-{uuid.uuid4().hex}/versions/0"), 404)
    assert missing["param"] == "session_id" and missing["message"].startswith("No session with id")


def test_versions_and_forks_of_a_reset_session_keep_working(platform: Process) -> None:
    session = new_session()
    run_turn(platform, session, "qual o preço da Nordea?")
    before = versions_of(platform, session)
    waiting = before[-1]
    question = httpx.get(f"{platform.url}/v1/sessions/{session}/versions/{waiting}", timeout=10).json()

    reset = httpx.delete(f"{platform.url}/v1/sessions/{session}", timeout=10)
    assert reset.status_code == 200, reset.text
    archived = reset.json()["archived_as"]
    assert archived and archived != session

    # the session's URLs still serve the versions emitted before the reset
    after = httpx.get(f"{platform.url}/v1/sessions/{session}/versions/{waiting}", timeout=10)
    assert after.status_code == 200, after.text
    assert after.json()["state"] == question["state"]
    history = httpx.get(f"{platform.url}/v1/sessions/{session}/history", timeout=10).json()
    assert [v["version"] for v in history["versions"]] == before
    fork = httpx.post(f"{platform.url}/v1/sessions/{session}/fork", json={"version": waiting}, timeout=10)
    assert fork.status_code == 201, fork.text
    assert fork.json()["forked_from"] == session
    answered = run_turn(platform, fork.json()["session_id"], "a finlandesa")
    assert answered["steps"][0]["output"]["result"]["symbol"] == "NDA-FI.HE"
    # resetting again keeps pointing at the same archive
    assert httpx.delete(f"{platform.url}/v1/sessions/{session}", timeout=10).json()["archived_as"] == archived

    # a new turn starts new versions; the old ones stay under the archive's id
    run_turn(platform, session, "cotação da Apple")
    kept = httpx.get(f"{platform.url}/v1/sessions/{archived}/versions/{waiting}", timeout=10)
    assert kept.status_code == 200 and kept.json()["state"] == question["state"]


def test_a_turn_is_stored_once_its_trace_in_the_run_and_the_version_points_to_it(platform: Process) -> None:
    session = new_session()
    asked = run_turn(platform, session, "qual o preço da Nordea?")
    answered = run_turn(platform, session, "a finlandesa")
    waiting, settled = versions_of(platform, session)[-2:]
    url = f"{platform.url}/v1/sessions/{session}/versions"
    # a turn waiting for the person keeps what it goes on with
    paused = httpx.get(f"{url}/{waiting}", timeout=10).json()["state"]["turn"]
    assert paused["run_id"] == asked["run_id"] and paused["plan"] is not None and paused["steps"]
    # a settled one keeps what the version views show; its trace is the run's
    done = httpx.get(f"{url}/{settled}", timeout=10).json()["state"]["turn"]
    assert (done["run_id"], done["status"], done["answer"]) == (
        answered["run_id"],
        "completed",
        answered["answer"],
    )
    assert (done["plan"], done["steps"], done["output"], done["execution_intent"]) == (None, [], None, None)
    run = httpx.get(f"{platform.url}/v1/runs/{answered['run_id']}", timeout=10).json()
    assert run["steps"][0]["output"]["result"]["symbol"] == "NDA-FI.HE" and run["plan"] is not None
    # the session still goes on from the settled version, and a fork of it too
    fork = httpx.post(f"{platform.url}/v1/sessions/{session}/fork", json={"version": settled}, timeout=10)
    assert fork.status_code == 201, fork.text
    again = run_turn(platform, fork.json()["session_id"], "cotação da Apple")
    assert again["status"] == "completed" and again["steps"]


def test_history_shows_what_the_person_typed_and_what_it_resolved_to(platform: Process) -> None:
    session = new_session()
    run_turn(platform, session, "qual o preço da Nordea?")
    run_turn(platform, session, "a finlandesa")
    history = httpx.get(f"{platform.url}/v1/sessions/{session}/history", timeout=10).json()
    asked, answered = history["turns"]
    assert (asked["event_id"], answered["event_id"]) == ("evt-0002", "evt-0004")
    assert asked["input_text"] == "qual o preço da Nordea?"
    assert answered["input_text"] == "a finlandesa"
    # the reply ran the question it answered
    assert answered["resolved_to"]["query"] == "qual o preço da Nordea?"
    assert answered["resolved_to"]["goal"] == answered["goal"] is not None
    # ...and what the reply chose shows in the call it became
    assert [call["params"].get("symbol") for call in answered["resolved_to"]["calls"]] == ["NDA-FI.HE"]
    assert asked["resolved_to"]["calls"][0]["params"].get("symbol") != "NDA-FI.HE"
    view = httpx.get(f"{platform.url}/v1/sessions/{session}", timeout=10).json()
    assert [t["input_text"] for t in view["turns"]] == ["qual o preço da Nordea?", "a finlandesa"]


async def test_a_session_reset_without_an_archive_answers_409(
    tmp_path: Path, domain_processes: dict[str, Process]
) -> None:
    async with in_process(settings_for(tmp_path, domain_processes)) as client:
        asked = await client.post(
            "/v1/runs", json={"input_text": "qual o preço da Nordea?", "session_id": "s"}
        )
        assert asked.status_code == 200, asked.text
        archived = (await client.delete("/v1/sessions/s")).json()["archived_as"]
        # as a reset made before resets kept their versions left it
        with sqlite3.connect(tmp_path / "gateway.sqlite3") as db:
            db.execute("DELETE FROM graph_versions WHERE session_id = ?", (archived,))
            db.execute("DELETE FROM graph_sessions WHERE session_id = ?", (archived,))
        gone = error_of(await client.get("/v1/sessions/s/versions/0"), 409)
        assert gone["message"] == "Session 's' was reset; versions before the reset are no longer available"
        assert gone["param"] == "session_id"
        fork = error_of(await client.post("/v1/sessions/s/fork", json={"version": 0}), 409)
        assert fork["message"] == gone["message"]
        assert (await client.get("/v1/sessions/s")).status_code == 200
