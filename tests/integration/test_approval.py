"""Approval gates through the real gateway: a capability the operator lists in
``DOMAIN_CONFIRM_CAPABILITIES`` (here the notifier's Telegram send) waits for the person's yes,
in their language, with a plain summary; a no cancels with nothing sent; the question survives a
gateway restart."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.conftest import Process, gateway_over
from tests.integration.conftest import sent

GATED = {"DOMAIN_CONFIRM_CAPABILITIES": "notifier.send_telegram_message"}


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("approval")


@pytest.fixture(scope="module")
def domains(domain_processes: dict[str, Process], notifier: Process) -> dict[str, Process]:
    return {**domain_processes, "notifier": notifier}


@pytest.fixture(scope="module")
def gateway(domains: dict[str, Process], work: Path) -> Iterator[Process]:
    with gateway_over(domains, work, GATED) as started:
        yield started


def _say(gateway: Process, session: str, text: str) -> dict[str, Any]:
    response = httpx.post(
        f"{gateway.url}/v1/runs", json={"input_text": text, "session_id": session}, timeout=60
    )
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def test_a_gated_send_waits_for_yes_in_portuguese(gateway: Process, notifier: Process) -> None:
    session = f"approve-{uuid.uuid4().hex[:8]}"
    before = sent(notifier)
    asked = _say(gateway, session, "manda a cotação da Vale no meu telegram")
    assert asked["status"] == "waiting_input"
    assert "Confirma? (sim/não)" in asked["answer"] and "Telegram" in asked["answer"]
    assert "send_telegram_message" not in asked["answer"]  # no capability ids for people
    assert not asked["steps"]  # nothing ran, the quote included
    assert sent(notifier) == before
    done = _say(gateway, session, "sim")
    assert done["status"] == "completed", done
    assert [s["capability"] for s in done["steps"]] == ["get_stock_price", "send_telegram_message"]
    assert sent(notifier) == before + 1


def test_no_cancels_with_nothing_sent(gateway: Process, notifier: Process) -> None:
    session = f"approve-{uuid.uuid4().hex[:8]}"
    before = sent(notifier)
    _say(gateway, session, "manda a cotação da Petrobras no meu telegram")
    unclear = _say(gateway, session, "hmm")
    assert unclear["status"] == "waiting_input" and unclear["answer"].startswith(
        "Preciso de um sim ou um não"
    )
    declined = _say(gateway, session, "não")
    assert declined["status"] == "cancelled"
    assert "não fiz nada" in declined["answer"]
    assert not declined["steps"] and sent(notifier) == before
    # the session goes on normally afterwards
    assert _say(gateway, session, "preço da Petrobras")["status"] == "completed"


def test_the_question_survives_a_restart_and_speaks_english(
    domains: dict[str, Process], notifier: Process, tmp_path: Path
) -> None:
    session = f"approve-{uuid.uuid4().hex[:8]}"
    before = sent(notifier)
    with gateway_over(domains, tmp_path, GATED) as first:
        asked = _say(first, session, "send the Vale stock price to my telegram")
    assert asked["status"] == "waiting_input" and "Go ahead? (yes/no)" in asked["answer"], asked
    with gateway_over(domains, tmp_path, GATED) as second:  # same database file, a new process
        done = _say(second, session, "yes")
    assert done["status"] == "completed", done
    assert sent(notifier) == before + 1


def test_without_the_gate_the_same_request_runs_at_once(
    domains: dict[str, Process], notifier: Process, tmp_path: Path
) -> None:
    before = sent(notifier)
    with gateway_over(domains, tmp_path) as ungated:
        ran = _say(ungated, f"approve-{uuid.uuid4().hex[:8]}", "manda a cotação da Vale no meu telegram")
    assert ran["status"] == "completed" and sent(notifier) == before + 1
