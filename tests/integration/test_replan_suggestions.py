"""A failure's suggestion through the real gateway (``POST /v1/runs``) and a domain process: a
capability that only reads runs again with it and the answer says so; one that changes something
is not called with it until the person says yes (an approval naming the change)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.conftest import Process, gateway_over, run_turn, start_fixture_domain

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def salon() -> Iterator[Process]:
    started = start_fixture_domain("suggesting_domain")
    try:
        yield started
    finally:
        started.stop()


@pytest.fixture(scope="module")
def gateway(salon: Process, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Process]:
    with gateway_over({"salon": salon}, tmp_path_factory.mktemp("replan")) as started:
        yield started


def calls(salon: Process) -> list[list[Any]]:
    listed: list[list[Any]] = httpx.get(f"{salon.url}/calls", timeout=10).json()["calls"]
    return listed


def test_a_read_only_capability_runs_again_with_the_suggestion_and_says_so(
    gateway: Process, salon: Process
) -> None:
    before = len(calls(salon))
    done = run_turn(gateway, f"price-{uuid.uuid4().hex[:8]}", "quanto custa um corte de cabelo?")
    assert done["status"] == "completed", done
    assert done["answer"] == "Usei “BRL” para currency, como o serviço sugeriu.\nCorte: R$ 50,00."
    assert [c[1].get("currency") for c in calls(salon)[before:]] == [None, "BRL"]


def test_a_capability_that_changes_something_waits_for_a_yes_to_the_change(
    gateway: Process, salon: Process
) -> None:
    session = f"book-{uuid.uuid4().hex[:8]}"
    before = len(calls(salon))
    approval = run_turn(gateway, session, "book me a haircut")
    assert approval["status"] == "waiting_input" and approval["answer"].endswith("Go ahead? (yes/no)")
    asked = run_turn(gateway, session, "yes")
    assert asked["status"] == "waiting_input", asked
    assert asked["answer"].startswith(
        "That did not work: Esse horário está ocupado. The service suggests trying again with "
        "“10:00” for slot. Next step: "
    )
    assert [c[1].get("slot") for c in calls(salon)[before:]] == [None]  # not called with 10:00
    done = run_turn(gateway, session, "yes")
    assert done["status"] == "completed" and done["answer"] == "Corte marcado às 10:00.", done
    assert [c[1].get("slot") for c in calls(salon)[before:]] == [None, "10:00"]


def test_a_no_to_the_change_does_nothing(gateway: Process, salon: Process) -> None:
    session = f"no-{uuid.uuid4().hex[:8]}"
    before = len(calls(salon))
    run_turn(gateway, session, "quero marcar um corte")
    run_turn(gateway, session, "sim")
    declined = run_turn(gateway, session, "não")
    assert declined["status"] == "cancelled"
    assert declined["answer"] == "Tudo bem, não fiz nada. O que você gostaria de fazer?"
    assert len(calls(salon)) == before + 1
