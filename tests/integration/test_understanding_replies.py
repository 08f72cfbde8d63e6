"""A reply that is only a value of the request waiting for it answers it, though the classifier
alone reads another goal in the word: "banho" to the question about booking Thor is the service
(a price request is also about a bath). Through a real gateway and a domain the core has never
seen (round 5's pet care, registered from its manifest alone), in Portuguese and English."""

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
    pets = start_service("pet_care", ["-m", "bench.understanding.round5.domains.pet_care"], None, None)
    try:
        domains = {**domain_processes, "pet_care": pets}
        with gateway_over(domains, tmp_path_factory.mktemp("understanding-replies")) as running:
            yield running
    finally:
        pets.stop()


@pytest.mark.parametrize(
    ("request_text", "reply"),
    [
        ("marca um horário pro Thor quinta às 15h", "banho"),
        ("book Thor in on thursday at 3pm", "a bath"),
    ],
)
def test_a_bare_value_answers_the_waiting_request(gateway: Process, request_text: str, reply: str) -> None:
    session = f"reply-{uuid.uuid4().hex[:10]}"
    first = run_turn(gateway, session, request_text)
    assert first["status"] == "waiting_input" and first["steps"] == [], first["answer"]
    named = run_turn(gateway, session, reply)
    assert named["question"]["kind"] == "approval", named["answer"]
    assert named["intent"]["goal"] == "BOOK_PET_SERVICE"
    assert named["intent"]["entities"]["service"] == "BATH"
    assert named["intent"]["entities"]["pet_text"] == "Thor"
    assert all(s["status"] == "pending" for s in named["steps"])  # nothing booked before the yes
