"""Issue 24, finding 11: a session's turns are paged newest first, so the newest always appear.

``GET /v1/sessions/{id}`` showed the first 50 turns and ``…/history`` the first 1,000: past
those, the turn just committed was missing, and the documented recovery ("not in the history:
send it again") would resend it. Now the first page is the newest turns (oldest first within the
page, as before), and ``next_before`` walks to older pages until every turn was seen once.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.conftest import Process, gateway_over

pytestmark = pytest.mark.integration

TURNS = 53  # past the session view's page of 50


@pytest.fixture(scope="module")
def gateway(
    domain_processes: dict[str, Process], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Process]:
    with gateway_over(domain_processes, tmp_path_factory.mktemp("pages"), {"RATE_LIMIT_PER_MIN": "0"}) as g:
        yield g


@pytest.fixture(scope="module")
def long_session(gateway: Process) -> tuple[str, list[str]]:
    """A session of :data:`TURNS` turns; its run ids in the order they were made."""
    session = f"pages-{uuid.uuid4().hex[:8]}"
    run_ids = []
    with httpx.Client(base_url=gateway.url, timeout=60) as http:
        for i in range(TURNS):
            said = http.post("/v1/runs", json={"input_text": f"cotação da Apple {i}", "session_id": session})
            assert said.status_code == 200, said.text
            run_ids.append(said.json()["run_id"])
    return session, run_ids


def get(gateway: Process, path: str, **params: Any) -> dict[str, Any]:
    response = httpx.get(f"{gateway.url}{path}", params=params, timeout=30)
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def test_the_session_view_shows_the_newest_turns(
    gateway: Process, long_session: tuple[str, list[str]]
) -> None:
    session, run_ids = long_session
    view = get(gateway, f"/v1/sessions/{session}")
    assert [t["run_id"] for t in view["turns"]] == run_ids[-50:]
    assert view["next_before"] is not None


def test_the_history_pages_newest_first_and_covers_every_turn_once(
    gateway: Process, long_session: tuple[str, list[str]]
) -> None:
    session, run_ids = long_session
    seen: list[list[str]] = []
    before = None
    while True:
        params: dict[str, Any] = {"limit": 20, **({"before": before} if before else {})}
        page = get(gateway, f"/v1/sessions/{session}/history", **params)
        seen.append([t["run_id"] for t in page["turns"]])
        before = page["next_before"]
        if before is None:
            break
    assert seen[0] == run_ids[-20:]  # the first page is the newest
    assert [r for page in reversed(seen) for r in page] == run_ids  # each exactly once, in order
    # the default history page still holds every turn of a session this size, oldest first
    assert [t["run_id"] for t in get(gateway, f"/v1/sessions/{session}/history")["turns"]] == run_ids


def test_a_cursor_the_gateway_never_gave_is_a_400_naming_it(
    gateway: Process, long_session: tuple[str, list[str]]
) -> None:
    session, _ = long_session
    for bad in ("not-a-cursor", "eyJ4IjogMX0", "W10"):
        response = httpx.get(
            f"{gateway.url}/v1/sessions/{session}/history", params={"before": bad}, timeout=30
        )
        assert response.status_code == 400, response.text
        assert response.json()["error"]["param"] == "before"
