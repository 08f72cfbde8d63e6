"""A domain that is down when the gateway starts is routed as soon as it comes up, with nobody
re-registering it (the registry's background health refresh), all real processes over HTTP."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.conftest import Process, reserve_port, start_domain, start_gateway, write_bootstrap

pytestmark = pytest.mark.integration

#: The domain starts this long after the gateway answers (the scenario of the issue).
DOMAIN_STARTS_AFTER_S = 10.0
#: Bound on waiting for the first routed answer: the catalog change retrains the intent model, slow
#: on a busy 2-core machine; a gateway that never routes still fails the test.
ROUTED_WITHIN_S = 90.0
QUERY = "qual o preço da Apple?"


def _domains(gateway: Process) -> dict[str, dict[str, Any]]:
    listed = httpx.get(f"{gateway.url}/v1/domains", timeout=10).json()["data"]
    return {d["name"]: d for d in listed}


def _run(gateway: Process, attempt: int) -> dict[str, Any]:
    response = httpx.post(
        f"{gateway.url}/v1/runs",
        json={"input_text": QUERY, "session_id": f"recovery-{attempt}"},
        timeout=30,
    )
    assert response.status_code == 200, response.text
    trace: dict[str, Any] = response.json()
    return trace


def _first_run_routed_to_finance(gateway: Process) -> dict[str, Any]:
    """Ask until a run reaches finance (each on a fresh session), within ``ROUTED_WITHIN_S``."""
    deadline = time.monotonic() + ROUTED_WITHIN_S
    attempt = 0
    while True:
        trace = _run(gateway, attempt)
        if any(step["domain"] == "finance" for step in trace["steps"]):
            return trace
        attempt += 1
        if time.monotonic() > deadline:
            routed = [(step["domain"], step["capability"]) for step in trace["steps"]]
            raise AssertionError(f"finance never routed within {ROUTED_WITHIN_S}s; last run went to {routed}")
        time.sleep(0.5)


def test_a_domain_started_after_the_gateway_is_routed_without_re_registration(
    tmp_path: Path, domain_processes: dict[str, Process]
) -> None:
    # the domain's port is held (bound, not listening) until the domain answers on it: connections
    # are refused as by a domain that is down, and no other process is given the port
    reserved = reserve_port()
    finance_port = reserved.port
    bootstrap = write_bootstrap(
        tmp_path / "bootstrap.json",
        {"finance": f"http://127.0.0.1:{finance_port}", "general": domain_processes["general"].url},
    )
    started: list[Process] = []
    try:
        gateway = start_gateway(
            {
                "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'gateway.sqlite3'}",
                "BOOTSTRAP_FILE": str(bootstrap),
                "API_KEYS": "",
                "REDIS_URL": "",
            }
        )
        started.append(gateway)
        gateway_up = time.monotonic()
        finance = _domains(gateway)["finance"]
        assert finance["healthy"] is False and finance["capabilities"] == []

        time.sleep(max(0.0, gateway_up + DOMAIN_STARTS_AFTER_S - time.monotonic()))
        started.append(start_domain("finance", port=finance_port))
        reserved.release()

        trace = _first_run_routed_to_finance(gateway)
        [step] = trace["steps"]
        assert (step["capability"], step["status"]) == ("get_stock_price", "completed")
        assert trace["status"] == "completed" and "AAPL" in trace["answer"]
        finance = _domains(gateway)["finance"]
        assert finance["healthy"] is True and "get_stock_price" in finance["capabilities"]
    finally:
        reserved.release()
        for process in reversed(started):
            process.stop()
