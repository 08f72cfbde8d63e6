"""A request to change something that names nothing of it is asked what it is about before the
yes is asked for, through a real gateway and a domain the core has never seen (the held-out
clinic of bench/understanding, registered from its manifest alone), in Portuguese and English."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest

from tests.conftest import Process, gateway_over, run_turn, start_service

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def gateway(
    domain_processes: dict[str, Process], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Process]:
    clinic = start_service("clinic", ["-m", "bench.understanding.domains.clinic"], None, None)
    try:
        domains = {**domain_processes, "clinic": clinic}
        with gateway_over(domains, tmp_path_factory.mktemp("understanding-approval")) as running:
            yield running
    finally:
        clinic.stop()


@pytest.mark.parametrize(
    ("request_text", "reply", "asked"),
    [
        ("preciso desmarcar minha consulta", "a de dermatologia", "Para continuar, preciso saber:"),
        ("I need to cancel my appointment", "the dermatology one", "To go on, I need to know:"),
    ],
)
def test_nothing_named_is_asked_before_the_yes(
    gateway: Process, request_text: str, reply: str, asked: str
) -> None:
    session = f"what-{uuid.uuid4().hex[:10]}"
    first = run_turn(gateway, session, request_text)
    assert first["status"] == "waiting_input" and first["steps"] == [], first
    assert first["question"]["kind"] != "approval" and first["answer"].startswith(asked), first["answer"]

    named = run_turn(gateway, session, reply)
    assert named["question"]["kind"] == "approval", named["answer"]
    assert named["intent"]["entities"] == {"specialty": "DERMATOLOGY"}
    assert all(s["status"] == "pending" for s in named["steps"])  # nothing cancelled before the yes


def test_a_request_that_names_it_is_asked_for_the_yes_at_once(gateway: Process) -> None:
    run = run_turn(gateway, f"what-{uuid.uuid4().hex[:10]}", "desmarca a consulta de dermatologia")
    assert run["question"]["kind"] == "approval", run["answer"]
