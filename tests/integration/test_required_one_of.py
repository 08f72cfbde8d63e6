"""``required_one_of`` through a real gateway and a real domain process (tests/fixtures/bills_domain.py):
a payment that names neither a biller nor a barcode is asked for one of them, naming both, before
the yes is asked for; the reply fills it, then the approval, then the payment."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest

from tests.conftest import Process, gateway_over, run_turn, start_service

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def gateway(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Process]:
    bills = start_service("bills", ["tests/fixtures/bills_domain.py"], None, None)
    try:
        with gateway_over({"bills": bills}, tmp_path_factory.mktemp("required-one-of")) as running:
            yield running
    finally:
        bills.stop()


@pytest.mark.parametrize(
    ("request_text", "asked", "reply", "paid"),
    [
        (
            "paga uma conta de 50 reais",
            "Para continuar, preciso saber: a conta a pagar ou o código de barras.",
            "a de luz",
            "Conta paga: luz.",
        ),
        (
            "I want to pay a bill of R$ 90",
            "To go on, I need to know: the bill to pay or the barcode.",
            "the water one",
            "Conta paga: water.",
        ),
    ],
)
def test_the_group_is_asked_before_the_yes(
    gateway: Process, request_text: str, asked: str, reply: str, paid: str
) -> None:
    session = f"bill-{uuid.uuid4().hex[:10]}"
    first = run_turn(gateway, session, request_text)
    assert first["status"] == "waiting_input" and first["steps"] == [], first
    assert first["question"]["kind"] == "slot_filling", first["answer"]
    assert first["answer"] == asked

    named = run_turn(gateway, session, reply)
    assert named["question"]["kind"] == "approval", named["answer"]
    assert all(s["status"] == "pending" for s in named["steps"])  # nothing paid before the yes

    done = run_turn(gateway, session, "sim" if request_text.startswith("paga") else "yes")
    assert done["status"] == "completed", done
    assert paid in done["answer"]


def test_a_request_that_names_one_is_asked_for_the_yes_at_once(gateway: Process) -> None:
    run = run_turn(gateway, f"bill-{uuid.uuid4().hex[:10]}", "paga a conta de luz")
    assert run["question"]["kind"] == "approval", run["answer"]
