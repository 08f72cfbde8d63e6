"""``X-Orchestrator-Overhead-Ms`` on every answer to a turn: chat (plain and streamed) and runs."""

from __future__ import annotations

import time
from datetime import datetime

import httpx
import pytest

from gateway.telemetry import OVERHEAD_HEADER, blocked_ms
from tests.telemetry.conftest import ObservedPlatform

FAN_OUT = "preço da Apple e Microsoft"


def _chat(text: str, session: str, stream: bool = False) -> dict:
    return {
        "model": "orchestrator",
        "messages": [{"role": "user", "content": text}],
        "stream": stream,
        "metadata": {"session_id": session},
    }


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/v1/chat/completions", _chat(FAN_OUT, "overhead-chat")),
        ("/v1/runs", {"input_text": FAN_OUT, "session_id": "overhead-runs"}),
    ],
)
def test_a_turn_answer_carries_its_overhead(observed: ObservedPlatform, path: str, body: dict) -> None:
    started = time.perf_counter()
    response = httpx.post(f"{observed.gateway.url}{path}", json=body, headers=observed.auth, timeout=60)
    total_ms = (time.perf_counter() - started) * 1000
    assert response.status_code == 200, response.text
    overhead = float(response.headers[OVERHEAD_HEADER])
    assert 0 <= overhead <= total_ms


def test_the_overhead_leaves_out_the_time_spent_in_domains(observed: ObservedPlatform) -> None:
    started = time.perf_counter()
    response = httpx.post(
        f"{observed.gateway.url}/v1/runs",
        json={"input_text": FAN_OUT, "session_id": "overhead-domains"},
        headers=observed.auth,
        timeout=60,
    )
    total_ms = (time.perf_counter() - started) * 1000
    run = response.json()
    overhead = float(response.headers[OVERHEAD_HEADER])
    intervals = [
        (datetime.fromisoformat(s["started_at"]), datetime.fromisoformat(s["finished_at"]))
        for s in run["steps"]
    ]
    assert len(intervals) >= 2
    # parallel steps: the union of their intervals was waited on, once
    waited_ms = blocked_ms(intervals)
    assert waited_ms > 0
    assert 0 <= overhead <= total_ms - waited_ms


def test_a_stream_carries_the_header_and_ends_with_the_whole_overhead(observed: ObservedPlatform) -> None:
    started = time.perf_counter()
    with httpx.stream(
        "POST",
        f"{observed.gateway.url}/v1/chat/completions",
        json=_chat(FAN_OUT, "overhead-stream", stream=True),
        headers=observed.auth,
        timeout=60,
    ) as response:
        assert response.status_code == 200
        head_overhead = float(response.headers[OVERHEAD_HEADER])
        lines = [line for line in response.iter_lines() if line]
    total_ms = (time.perf_counter() - started) * 1000
    comments = [line for line in lines if line.startswith(f": {OVERHEAD_HEADER}: ")]
    assert len(comments) == 1 and lines[-1] == comments[0], lines[-3:]
    assert lines[-2] == "data: [DONE]"
    overhead = float(comments[0].split(": ")[-1])
    assert 0 <= head_overhead <= overhead <= total_ms


def test_a_turn_overhead_is_not_on_other_answers(observed: ObservedPlatform) -> None:
    response = httpx.get(f"{observed.gateway.url}/v1/models", headers=observed.auth, timeout=10)
    assert OVERHEAD_HEADER not in response.headers
